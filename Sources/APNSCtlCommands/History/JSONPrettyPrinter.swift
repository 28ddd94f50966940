/// JSON laid out for reading (`history show`'s payload): one member per line, two spaces per level, strings
/// and numbers exactly as written. It works on the bytes, so it keeps key order and never changes a value.
enum JSONPrettyPrinter {
    static func format(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        var i = 0
        func newline() {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if inString {
                out.append(b)
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            case UInt8(ascii: "\""):
                inString = true
                out.append(b)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(b)
                // An empty object or array stays on its line.
                var j = i
                while j < bytes.count, [0x20, 0x0a, 0x0d, 0x09].contains(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == (b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    out.append(bytes[j])
                    i = j + 1
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
