import APNSCore

/// JSON laid out for reading (`history show`'s payload): one member per line, two spaces per level, strings
/// and numbers exactly as written but for the characters no terminal may get raw (controls, bidirectional
/// overrides), which a string holds as JSON's escapes (`\u202e`), so what is shown is still the same JSON. It works
/// on the bytes, so it keeps key order and never changes a value.
enum JSONPrettyPrinter {
    static func format(_ bytes: [UInt8]) -> String {
        // The compact form, each byte with whether it is part of a string: the layout is decided on the others.
        var compact: [(byte: UInt8, inString: Bool)] = []
        compact.reserveCapacity(bytes.count)
        JSONCompactor.forEachCompactByte(of: bytes[...]) { compact.append(($0, $1)) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var depth = 0
        func newline() {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        var i = 0
        while i < compact.count {
            let (b, inString) = compact[i]
            i += 1
            if inString {
                // The whole string at once, so its characters are whole.
                var end = i
                while end < compact.count && compact[end].inString { end += 1 }
                appendEscaped([b] + compact[i..<end].map(\.byte), to: &out)
                i = end
                continue
            }
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(b)
                // An empty object or array stays on its line.
                let closer = b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if i < compact.count, !compact[i].inString, compact[i].byte == closer {
                    out.append(closer)
                    i += 1
                } else {
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth = max(0, depth - 1)
                newline()
                out.append(b)
            case UInt8(ascii: ","):
                out.append(b)
                newline()
            case UInt8(ascii: ":"):
                out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            default:
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `string`'s bytes, each character `PrintableText` escapes written as a JSON escape instead.
    private static func appendEscaped(_ string: [UInt8], to out: inout [UInt8]) {
        guard string.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else {
            out += string
            return
        }
        for scalar in String(decoding: string, as: UTF8.self).unicodeScalars {
            if PrintableText.needsEscaping(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += Array(("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).utf8)
            } else {
                out += Array(String(scalar).utf8)
            }
        }
    }
}
