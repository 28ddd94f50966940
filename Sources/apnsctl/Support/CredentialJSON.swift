/// The few JSON pieces `inspect -o json` writes: one flat object per line, fields in a fixed order.
enum CredentialJSON {
    /// A JSON field value.
    enum Value {
        case string(String?)
        case strings([String])
        case integer(Int)
        case bool(Bool?)

        var text: String {
            switch self {
            case .string(let s): return s.map(CredentialJSON.quoted) ?? "null"
            case .strings(let list): return "[" + list.map(CredentialJSON.quoted).joined(separator: ",") + "]"
            case .integer(let n): return String(n)
            case .bool(let b): return b.map { $0 ? "true" : "false" } ?? "null"
            }
        }
    }

    /// `{"a":…,"b":…}` in the given order.
    static func object(_ fields: [(String, Value)]) -> String {
        "{" + fields.map { quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
    }

    /// A JSON string literal with the mandatory escapes.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
