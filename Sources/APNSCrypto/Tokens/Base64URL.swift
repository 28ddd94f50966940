/// base64url without padding (RFC 4648 §5), the JWS alphabet; written by hand to stay off Foundation.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes without `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 3 <= bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [
                alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)], alphabet[Int(v & 63)],
            ]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)]]
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)]]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes unpadded base64url (trailing `=` tolerated); nil on any character outside the alphabet
    /// or an impossible length.
    public static func decode(_ text: Substring) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for c in text.utf8 {
            if c == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            if padding > 0 { return nil }
            guard let v = value(of: c) else { return nil }
            values.append(v)
        }
        if values.count % 4 == 1 || padding > 2 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i < values.count {
            let chunk = values[i..<min(i + 4, values.count)]
            var v: UInt32 = 0
            for (k, x) in chunk.enumerated() { v |= UInt32(x) << (18 - 6 * UInt32(k)) }
            out.append(UInt8(v >> 16 & 0xFF))
            if chunk.count > 2 { out.append(UInt8(v >> 8 & 0xFF)) }
            if chunk.count > 3 { out.append(UInt8(v & 0xFF)) }
            i += 4
        }
        return out
    }

    /// Whether `scalar` is one of the alphabet's 64 characters (padding is not).
    public static func isInAlphabet(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && value(of: UInt8(scalar.value)) != nil
    }

    private static func value(of c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}
