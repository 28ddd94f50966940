/// Text saved as UTF-16 (Windows PowerShell's `>` writes it), which every reader here takes as UTF-8 and would
/// otherwise call binary or a syntax error: one test, so the JSON and TOML readers say it alike.
public enum UTF16Text {
    /// Whether `bytes` start as UTF-16 does: its byte-order mark, or a NUL beside each of the first two characters.
    public static func starts(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        return bytes[0] == 0xFF && bytes[1] == 0xFE || bytes[0] == 0xFE && bytes[1] == 0xFF
            || (bytes[0] == 0 && bytes[2] == 0 && bytes[1] != 0 && bytes[3] != 0)
            || (bytes[1] == 0 && bytes[3] == 0 && bytes[0] != 0 && bytes[2] != 0)
    }
}
