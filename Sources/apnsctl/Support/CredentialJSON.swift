import APNSCore

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

    /// A JSON string literal: the shared writer's escaping (controls, DEL, C1, U+2028/9), so `inspect`
    /// and `validate` JSON cannot differ on what a certificate or payload string may carry.
    static func quoted(_ s: String) -> String { JSONWriter.quoted(s) }
}
