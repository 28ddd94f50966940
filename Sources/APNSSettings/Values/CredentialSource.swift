/// Where a certificate or key comes from: a file, or PEM text held in a variable (CI secret stores hold text;
/// it is loaded from memory and never written to disk). `displayName` is what messages, `-v`, `--dry-run` and
/// `config show` print: the path, or `(PEM from APNSCTL_AUTH_KEY)`, never the text.
public enum CredentialSource: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case pem(text: String, variable: String)

    /// The path, or `(PEM from VARIABLE)`.
    public var displayName: String {
        switch self {
        case .file(let path): return path
        case .pem(_, let variable): return "(PEM from \(variable))"  // read back by `variable(inDisplayName:)`
        }
    }

    public var description: String { displayName }

    /// The variable a `displayName` of PEM text names (`APNSCTL_AUTH_KEY` for `(PEM from APNSCTL_AUTH_KEY)`); nil for
    /// a path. For messages made from a credential problem, which carries only the name: the form is read back here,
    /// where it is written.
    public static func variable(inDisplayName name: String) -> String? {
        let prefix = "(PEM from "
        guard name.hasPrefix(prefix), name.hasSuffix(")"), name.count > prefix.count + 1 else { return nil }
        return String(name.dropFirst(prefix.count).dropLast())
    }

    /// The path of a file source.
    public var path: String? {
        if case .file(let p) = self { return p }
        return nil
    }

    /// Whether a variable's `text` is PEM itself rather than a path: it holds `-----BEGIN` anywhere or a line break.
    /// What `openssl pkcs12 -nodes` writes starts with `Bag Attributes` lines, an editor may put a byte-order mark
    /// first, and a pasted file may have a header line: still PEM, loaded from memory and never printed (a path
    /// holds neither, and taken as a path the text would be quoted by every message naming the file).
    public static func isPEM(_ text: String) -> Bool {
        text.contains("-----BEGIN") || text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }
}
