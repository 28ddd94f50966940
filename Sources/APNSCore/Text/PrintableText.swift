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
}
