/// Text from untrusted input (payload keys, certificate subjects, settings, variables, servers' answers) made
/// safe to print on a terminal. `escapingControls` is the one escaper for printed text; JSON output escapes the
/// same characters JSON's way (`JSONWriter`).
public enum PrintableText {
    /// Whether `scalar` must not reach a terminal raw: C0 controls (ESC, line breaks), DEL, C1 controls (U+009B
    /// is a one-byte CSI on many terminals) and the bidirectional overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069), which reorder what follows them on the line so that printed text reads as other text.
    public static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// Control characters (C0 such as ESC and newline, DEL, C1) and bidirectional overrides become
    /// `\u{1B}`-style escapes, so a payload, a setting or a crafted certificate cannot forge output lines,
    /// send terminal escape sequences or reverse what a line shows.
    public static func escapingControls(_ text: String) -> String { escaping(text, keepingLayout: false) }

    /// `text` between double quotes in a message: a quote or backslash inside it backslashed, and what
    /// `escapingControls` escapes as `\u{1B}`, as every printed text escapes it (`JSONWriter.quoted` is JSON's form,
    /// `\u001b`, for JSON output).
    public static func quoted(_ text: String) -> String {
        var inner = ""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { inner.unicodeScalars.append("\\") }
            inner.unicodeScalars.append(scalar)
        }
        return "\"" + escapingControls(inner) + "\""
    }

    /// `quoted`, cut to its first `shown` characters with how many it has when longer than `limit`: a value pasted
    /// whole where a short one goes (a 100,000-character id) is named, not printed back as one line of that size.
    public static func quoted(_ text: String, limit: Int, shown: Int = 60) -> String {
        let count = text.unicodeScalars.count
        guard count > limit else { return quoted(text) }
        var start = ""
        start.unicodeScalars.append(contentsOf: text.unicodeScalars.prefix(shown))
        return quoted(start) + "… (\(count) characters)"
    }

    /// `escapingControls` but for tabs and line breaks: for text printed on several lines as it is (a payload
    /// file laid out with indents), still without a character a terminal would act on or reorder.
    public static func escapingControlsButLayout(_ text: String) -> String { escaping(text, keepingLayout: true) }

    private static func escaping(_ text: String, keepingLayout: Bool) -> String {
        guard containsEscapable(text) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if keepingLayout ? actsOnTerminal(scalar) : needsEscaping(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A tab or a line feed: layout JSON allows raw between its tokens that moves nothing already printed (a
    /// carriage return would let the rest of a line print over its start, so it stays escaped).
    public static func isLayout(_ scalar: Unicode.Scalar) -> Bool { scalar == "\t" || scalar == "\n" }

    /// A character a terminal would act on or reorder, kept or not in text printed over several lines.
    public static func actsOnTerminal(_ scalar: Unicode.Scalar) -> Bool { needsEscaping(scalar) && !isLayout(scalar) }

    /// Whether `text` holds a character `needsEscaping` names, checked on its UTF-8 bytes: every result line of a
    /// batch passes here, and scanning its scalars cost more than writing it.
    private static func containsEscapable(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x20 || b == 0x7F { return true }
                if b == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) { return true }
                if b == 0xE2, i + 2 < bytes.count {
                    let (b1, b2) = (bytes[i + 1], bytes[i + 2])
                    if b1 == 0x80 && (0xAA...0xAE).contains(b2) || b1 == 0x81 && (0xA6...0xA9).contains(b2) {
                        return true
                    }
                }
                i += 1
            }
            return false
        }
    }

    /// Bytes from the network or a file (an error body, a response header, a proxy's status line) as one
    /// printable line: decoded as UTF-8 (bad bytes repaired), tabs and line breaks as spaces, every other
    /// control character escaped as `escapingControls` does, surrounding spaces trimmed, and cut to `limit`
    /// characters with `…`.
    public static func line<Bytes: Collection>(_ bytes: Bytes, limit: Int = 200) -> String
    where Bytes.Element == UInt8 {
        // The usual case (ids, reasons): short printable ASCII, taken as it is. Checked on the contiguous bytes by
        // concrete code: called from other modules this function is not specialised, and the generic check was
        // a third of all a batch's work per result.
        if let plain = bytes.withContiguousStorageIfAvailable({
            isPlainLine($0, limit: limit) ? String(decoding: $0, as: UTF8.self) : nil
        }),
            let plain
        {
            return plain
        }
        return escapingControls(unescapedLine(bytes, limit: limit))
    }

    /// `line` for text already decoded (a response header's value, a string from a JSON answer): the usual short
    /// printable ASCII is returned as it is, without a copy.
    public static func line(_ text: String, limit: Int = 200) -> String {
        var text = text
        if text.withUTF8({ isPlainLine($0, limit: limit) }) { return text }
        return line(Array(text.utf8), limit: limit)
    }

    /// `line` without the escaping, for a value printed both as text and as JSON (a server's reason or body):
    /// each printer escapes it its own way (`escapingControls` for text, `JSONWriter` for JSON), so JSON holds
    /// `\u001b`, not `\\u{1B}`.
    public static func unescapedLine<Bytes: Collection>(_ bytes: Bytes, limit: Int = 200) -> String
    where Bytes.Element == UInt8 {
        if let plain = bytes.withContiguousStorageIfAvailable({
            isPlainLine($0, limit: limit) ? String(decoding: $0, as: UTF8.self) : nil
        }),
            let plain
        {
            return plain
        }
        let decoded = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
        var flat = String(
            String.UnicodeScalarView(decoded.unicodeScalars.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }))
        while flat.hasPrefix(" ") { flat.removeFirst() }
        while flat.hasSuffix(" ") { flat.removeLast() }
        let cut = flat.count > limit
        if cut { flat = String(flat.prefix(limit)) }
        return flat + (cut ? "…" : "")
    }

    /// `unescapedLine` for text already decoded.
    public static func unescapedLine(_ text: String, limit: Int = 200) -> String {
        var text = text
        if text.withUTF8({ isPlainLine($0, limit: limit) }) { return text }
        return unescapedLine(Array(text.utf8), limit: limit)
    }

    /// At most `limit` bytes of printable ASCII, not starting or ending with a space: printed as they are.
    private static func isPlainLine(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
        guard bytes.count <= limit, let first = bytes.first, first != 0x20, bytes[bytes.count - 1] != 0x20 else {
            return false
        }
        for b in bytes where b < 0x20 || b >= 0x7F { return false }
        return true
    }

    /// `escapingControls` for each line of a message of several lines: its own line breaks stay, every
    /// other control character that came from input is escaped.
    public static func escapingControlsPerLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 != "\n" && needsEscaping($0) }) else {
            return text
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { escapingControls(String($0)) }
            .joined(separator: "\n")
    }
}
