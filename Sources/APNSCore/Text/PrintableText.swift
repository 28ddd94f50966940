/// Text from untrusted input (payload keys, certificate subjects) made safe to print on a terminal.
public enum PrintableText {
    /// Control characters (C0 such as ESC and newline, DEL, C1) become `\u{1B}`-style escapes, so a
    /// payload or a crafted certificate cannot forge output lines or send terminal escape sequences.
    public static func escapingControls(_ text: String) -> String {
        func isControl(_ v: UInt32) -> Bool { v < 0x20 || (0x7F...0x9F).contains(v) }
        guard text.unicodeScalars.contains(where: { isControl($0.value) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar.value) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Bytes from the network or a file (an error body, a response header, a proxy's status line) as one
    /// printable line: decoded as UTF-8 (bad bytes repaired), tabs and line breaks as spaces, every other
    /// control character escaped as `escapingControls` does, surrounding spaces trimmed, and cut to `limit`
    /// characters with `…`.
    public static func line<Bytes: Collection>(_ bytes: Bytes, limit: Int = 200) -> String where Bytes.Element == UInt8 {
        // The usual case (ids, reasons): short printable ASCII, taken as it is. Checked on the contiguous bytes by
        // concrete code: called from other modules this function is not specialised, and the generic check was
        // a third of all a batch's work per result.
        if let plain = bytes.withContiguousStorageIfAvailable({ isPlainLine($0, limit: limit) ? String(decoding: $0, as: UTF8.self) : nil }),
           let plain {
            return plain
        }
        let decoded = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
        var flat = String(String.UnicodeScalarView(decoded.unicodeScalars.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }))
        while flat.hasPrefix(" ") { flat.removeFirst() }
        while flat.hasSuffix(" ") { flat.removeLast() }
        let cut = flat.count > limit
        if cut { flat = String(flat.prefix(limit)) }
        return escapingControls(flat) + (cut ? "…" : "")
    }

    /// `line` for text already decoded (a response header's value, a string from a JSON answer): the usual short
    /// printable ASCII is returned as it is, without a copy.
    public static func line(_ text: String, limit: Int = 200) -> String {
        var text = text
        if text.withUTF8({ isPlainLine($0, limit: limit) }) { return text }
        return line(Array(text.utf8), limit: limit)
    }

    /// At most `limit` bytes of printable ASCII, not starting or ending with a space: printed as they are.
    private static func isPlainLine(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
        guard bytes.count <= limit, let first = bytes.first, first != 0x20, bytes[bytes.count - 1] != 0x20 else { return false }
        for b in bytes where b < 0x20 || b >= 0x7F { return false }
        return true
    }

    /// `escapingControls` for each line of a message of several lines: its own line breaks stay, every
    /// other control character that came from input is escaped.
    public static func escapingControlsPerLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }) else {
            return text
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { escapingControls(String($0)) }
            .joined(separator: "\n")
    }
}
