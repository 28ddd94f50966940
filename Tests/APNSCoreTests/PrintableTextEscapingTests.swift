import APNSCore
import Testing

/// The one escaper for printed text (`PrintableText.escapingControls`) and its JSON counterpart (`JSONWriter`):
/// C0 and C1 controls, DEL and the bidirectional overrides and isolates, `\u{…}` in text, JSON's `\u…` in JSON.
@Suite struct PrintableTextEscapingTests {
    static let escaped: [(Unicode.Scalar, String, String)] = [
        ("\u{1B}", "\\u{1B}", "\\u001b"), ("\u{7F}", "\\u{7F}", "\\u007f"), ("\u{80}", "\\u{80}", "\\u0080"),
        ("\u{9B}", "\\u{9B}", "\\u009b"), ("\u{9F}", "\\u{9F}", "\\u009f"),
        ("\u{202A}", "\\u{202A}", "\\u202a"), ("\u{202E}", "\\u{202E}", "\\u202e"),
        ("\u{2066}", "\\u{2066}", "\\u2066"), ("\u{2069}", "\\u{2069}", "\\u2069"),
    ]

    @Test func controlsAndBidirectionalOverridesAreEscapedInTextAndAsJSONInJSON() {
        for (scalar, text, json) in Self.escaped {
            let value = "a" + String(Character(scalar)) + "b"
            #expect(PrintableText.needsEscaping(scalar))
            #expect(PrintableText.escapingControls(value) == "a\(text)b", "U+\(String(scalar.value, radix: 16))")
            #expect(PrintableText.escapingControlsPerLine("x\n" + value) == "x\na\(text)b")
            #expect(PrintableText.line(value) == "a\(text)b")
            #expect(PrintableText.unescapedLine(value) == value, "kept for the printer to escape")
            #expect(JSONWriter.quoted(value) == "\"a\(json)b\"", "U+\(String(scalar.value, radix: 16))")
        }
    }

    /// A payload embedded in JSON output (a dry run, the history) holds these raw only inside its strings: each
    /// becomes the same `\u` escape `JSONWriter` writes, and the document still reads as the same JSON. Printed
    /// over several lines (a dry run's text), only tabs and line feeds stay raw: a carriage return would print
    /// over the start of its line.
    @Test func embeddedPayloadsAndLaidOutTextAreEscapedToo() throws {
        // ESC is no JSON inside a string, raw: a payload holding it is not valid, and is embedded as a string.
        for (scalar, text, json) in Self.escaped where scalar.value >= 0x20 {
            let value = "x" + String(Character(scalar)) + "y"
            let payload = "{\n  \"a\": \"\(value)\"\n}\n"
            var w = JSONWriter()
            w.embedded(Array(payload.utf8))
            #expect(w.text == "{\"a\":\"x\(json)y\"}", "U+\(String(scalar.value, radix: 16))")
            #expect(try JSONReader.parse(w.bytes)["a"]?.string == value)
            #expect(PrintableText.escapingControlsButLayout("a\tb\nc" + value) == "a\tb\nc" + "x\(text)y")
        }
        #expect(PrintableText.escapingControlsButLayout("abc\rX") == "abc\\u{D}X")
    }

    @Test func printableTextIsLeftAsItIs() {
        // Non-ASCII that is neither: an ellipsis (E2 80 A6, beside the overrides' E2 80 AA…AE), accents, marks.
        for text in ["3f2a…9c1d", "café", "\u{2029}x", "\u{200F}", "\u{A0}nbsp", "日本語", "\u{2065}\u{206A}", "\u{202F}"]
        {
            #expect(PrintableText.escapingControls(text) == text, "\(text.debugDescription)")
        }
        // Escaping twice changes nothing: every printer may escape what it prints.
        let once = PrintableText.escapingControls("\u{1B}[31m\u{9B}\u{202E}")
        #expect(PrintableText.escapingControls(once) == once)
    }
}
