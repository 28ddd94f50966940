import APNSCore
import Testing

/// `PrintableText.line`: untrusted bytes or text as one printable line. The plain case (short printable ASCII)
/// is taken as it is; everything else is decoded, flattened, trimmed, escaped and cut, whichever way in.
@Suite struct PrintableTextLineTests {
    /// The same answer from bytes in an array, from bytes that are not contiguous, and from text.
    private func line(_ bytes: [UInt8], limit: Int = 20) -> String {
        let fromArray = PrintableText.line(bytes, limit: limit)
        #expect(PrintableText.line(bytes.lazy.map { $0 }, limit: limit) == fromArray)
        #expect(PrintableText.line(bytes[...], limit: limit) == fromArray)
        let text = String(decoding: bytes, as: UTF8.self)
        if Array(text.utf8) == bytes { #expect(PrintableText.line(text, limit: limit) == fromArray) }
        return fromArray
    }

    @Test func plainASCIIIsTakenAsItIs() {
        #expect(line(Array("BadDeviceToken".utf8)) == "BadDeviceToken")
        #expect(
            line(Array("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0".utf8), limit: 64)
                == "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
        #expect(line(Array(String(repeating: "x", count: 20).utf8)) == String(repeating: "x", count: 20))
        #expect(line([]) == "")
    }

    @Test func everythingElseIsFlattenedTrimmedEscapedAndCut() {
        #expect(line(Array("  padded\t".utf8)) == "padded")
        #expect(line(Array("two\nlines\r\nhere".utf8), limit: 40) == "two lines  here")
        #expect(line(Array("esc\u{1B}[31m".utf8)) == "esc\\u{1B}[31m")
        #expect(line(Array("del\u{7F}".utf8)) == "del\\u{7F}")
        #expect(line(Array(String(repeating: "y", count: 21).utf8)) == String(repeating: "y", count: 20) + "…")
        #expect(line([0x61, 0xFF, 0x62]) == "a\u{FFFD}b")
        #expect(line(Array("café".utf8)) == "café")
    }
}

/// The one trimming of typed and pasted values: blanks and line breaks at either end, CRLF included.
@Suite struct TrimmingBlanksTests {
    @Test func blanksAndLineBreaksAtEitherEndGoCRLFIncluded() {
        #expect(" \tcom.example.app\r\n".trimmingBlanks() == "com.example.app")
        #expect("\r\n\r\n".trimmingBlanks() == "")
        #expect("a b\r\nc".trimmingBlanks() == "a b\r\nc", "inside stays")
        #expect("\r\n{\"aps\":{}}".startsAfterBlanks(with: "{"))
        #expect(!"{\"aps\":{}}".startsAfterBlanks(with: "{"), "no blank first: plain inline JSON")
        #expect(!" x{".startsAfterBlanks(with: "{"))
    }
}
