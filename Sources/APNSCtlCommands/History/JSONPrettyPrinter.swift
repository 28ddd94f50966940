import APNSCore

/// JSON laid out for reading (`history show`'s payload): one member per line, two spaces per level, strings
/// and numbers exactly as written. It works on the bytes, so it keeps key order and never changes a value.
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
                out.append(b)
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
}
