/// Reads `reason` and `timestamp` out of an APNs error body or GOAWAY debug data.
/// The body is tiny and untrusted; a missing or odd field just means "not given", never a failure.
public enum APNSErrorBody {
    /// The string value of the top-level `reason` key, or nil.
    public static func reason(in bytes: [UInt8]) -> String? {
        guard case .string(let s)? = value(of: "reason", in: bytes) else { return nil }
        return s
    }

    /// The integer `timestamp` (milliseconds since the epoch on a 410), or nil.
    public static func timestamp(in bytes: [UInt8]) -> Int64? {
        guard case .integer(let n)? = value(of: "timestamp", in: bytes) else { return nil }
        return n
    }

    /// Bytes from the network as one printable line: control characters become spaces, whitespace is
    /// trimmed and long text cut, so a hostile server cannot garble the terminal.
    public static func printable(_ bytes: [UInt8], limit: Int = 200) -> String {
        let decoded = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
        var text = String(String.UnicodeScalarView(decoded.unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F ? " " : $0
        }))
        while text.hasPrefix(" ") { text.removeFirst() }
        while text.hasSuffix(" ") { text.removeLast() }
        if text.count > limit { text = String(text.prefix(limit)) + "…" }
        return text
    }

    /// What a GOAWAY or error body says: the JSON `reason`, else the bytes as text, nil when empty.
    public static func explanation(of bytes: [UInt8]) -> String? {
        if let r = reason(in: bytes) { return r }
        let text = printable(bytes)
        return text.isEmpty ? nil : text
    }

    enum Scalar: Equatable { case string(String), integer(Int64), other }

    /// The scalar after the first `"key"` followed by `:` in a JSON object.
    static func value(of key: String, in bytes: [UInt8]) -> Scalar? {
        let pattern = Array("\"\(key)\"".utf8)
        guard bytes.count >= pattern.count, bytes.first(where: { !isSpace($0) }) == UInt8(ascii: "{") else { return nil }
        var i = 0
        while i + pattern.count <= bytes.count {
            if bytes[i] == pattern[0] && bytes[i..<(i + pattern.count)].elementsEqual(pattern) {
                var j = i + pattern.count
                while j < bytes.count && isSpace(bytes[j]) { j += 1 }
                if j < bytes.count && bytes[j] == UInt8(ascii: ":") {
                    j += 1
                    while j < bytes.count && isSpace(bytes[j]) { j += 1 }
                    return scalar(bytes, from: j)
                }
            }
            i += 1
        }
        return nil
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private static func scalar(_ bytes: [UInt8], from start: Int) -> Scalar? {
        guard start < bytes.count else { return nil }
        if bytes[start] == UInt8(ascii: "\"") {
            var out: [UInt8] = []
            var j = start + 1
            while j < bytes.count {
                let b = bytes[j]
                if b == UInt8(ascii: "\"") { return .string(String(decoding: out, as: UTF8.self)) }
                if b == UInt8(ascii: "\\") && j + 1 < bytes.count {
                    j += 1
                    switch bytes[j] {
                    case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "b"), UInt8(ascii: "f"):
                        out.append(0x20)
                    case UInt8(ascii: "u"):
                        out.append(UInt8(ascii: "?"))
                        j += min(4, bytes.count - j - 1)
                    default: out.append(bytes[j])
                    }
                } else {
                    out.append(b)
                }
                j += 1
            }
            return nil
        }
        var j = start
        var digits: [UInt8] = []
        if bytes[j] == UInt8(ascii: "-") { digits.append(bytes[j]); j += 1 }
        while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39, digits.count < 20 { digits.append(bytes[j]); j += 1 }
        let fraction = j < bytes.count && (bytes[j] == UInt8(ascii: ".") || bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E"))
        if !fraction, let n = Int64(String(decoding: digits, as: UTF8.self)) { return .integer(n) }
        return .other
    }
}
