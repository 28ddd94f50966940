/// Why settings could not be read or resolved. Every case is one `error:` line naming where (the flag, the
/// variable, or `PATH:LINE`) and what to do; none quotes a secret. `exitCode` is CLI.md's: 66 for a file
/// that must exist and does not, 64 for everything else.
public struct SettingsProblem: Error, Sendable, Equatable {
    /// What kind of failure, for the exit code.
    public enum Kind: Sendable, Equatable {
        /// A bad file, value, combination or name: exit 64.
        case usage
        /// A settings file or `mock.json` that was asked for and is missing or unreadable: exit 66.
        case inputMissing
    }

    public let kind: Kind
    /// The whole message, without the `error: ` prefix.
    public let message: String

    public init(_ kind: Kind = .usage, _ message: String) { (self.kind, self.message) = (kind, message) }

    static func usage(_ message: String) -> SettingsProblem { SettingsProblem(.usage, message) }
    static func missing(_ message: String) -> SettingsProblem { SettingsProblem(.inputMissing, message) }

    /// The exit code of CLI.md.
    public var exitCode: Int32 { kind == .inputMissing ? 66 : 64 }
}
