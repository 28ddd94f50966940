/// `\uXXXX` escapes of characters outside ASCII, as Python's `json.dumps` (ensure_ascii), `jq -a` and other encoders
/// write them: six bytes (twelve for a surrogate pair) where UTF-8 takes two to four. A payload over its limit
/// may fit written plainly, which "shorten it" would hide.
enum JSONUnicodeEscapes {
    /// How many bytes fewer `bytes` (valid JSON) would be with each escape of a non-ASCII character written as the
    /// character in UTF-8. Lone surrogates, which no character is, stay as they are.
    static func savings(_ bytes: [UInt8]) -> Int {
        var saved = 0
        var i = 0
        let n = bytes.count
        while i < n {
            guard bytes[i] == UInt8(ascii: "\\"), i + 1 < n else {
                i += 1
                continue
            }
            guard bytes[i + 1] == UInt8(ascii: "u"), let unit = hex4(bytes, at: i + 2) else {
                i += 2  // another escape, its character skipped with it (`\\` is one)
                continue
            }
            switch unit {
            case 0..<0x80: break
            case 0x80..<0x800: saved += 4
            case 0xD800..<0xDC00:
                if i + 11 < n, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"),
                    let low = hex4(bytes, at: i + 8), (0xDC00..<0xE000).contains(low)
                {
                    saved += 8
                    i += 12
                    continue
                }
            case 0xDC00..<0xE000: break
            default: saved += 3
            }
            i += 6
        }
        return saved
    }

    private static func hex4(_ bytes: [UInt8], at start: Int) -> Int? {
        guard start + 4 <= bytes.count else { return nil }
        var value = 0
        for b in bytes[start..<start + 4] {
            let digit: Int
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(b) - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(b) - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(b) - 55
            default: return nil
            }
            value = value * 16 + digit
        }
        return value
    }
}
