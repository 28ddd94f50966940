/// Where credential bytes come from: a file, standard input (`-`), or memory (PEM text a CI job keeps in
/// `APNSCTL_AUTH_KEY`, `APNSCTL_CERT` or `APNSCTL_KEY`, which must never be written to disk). `name` is what every
/// message prints: the path, `-`, or a display name such as `(PEM from APNSCTL_AUTH_KEY)`, never the content.
public enum CredentialInput: Sendable, Equatable {
    case file(String)
    /// `-`: the descriptor the caller's world reads as standard input (a command run in-process has its own).
    case standardInput(Int32, name: String)
    case memory([UInt8], name: String)

    /// The path, or the display name of bytes in memory.
    public var name: String {
        switch self {
        case .file(let p): return p
        case .standardInput(_, let n): return n
        case .memory(_, let n): return n
        }
    }

    /// The path of a file input (a key id may come from its name).
    public var filePath: String? {
        if case .file(let p) = self { return p }
        return nil
    }
}
