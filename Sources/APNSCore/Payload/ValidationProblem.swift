/// One finding of the validator, printed as `FILE:LINE:COLUMN: SEVERITY: PATH: MESSAGE`.
public struct ValidationProblem: Sendable, Equatable {
    /// Errors stop `send` (exit 65); warnings are advice unless `--strict`.
    public enum Severity: String, Sendable {
        case error
        case warning
    }

    /// Error or warning.
    public let severity: Severity
    /// Dotted key path (`aps.alert.title`, `aps.alert.loc-args[1]`), or `(root)` for the whole payload.
    public let path: String
    /// 1-based line in the file as read.
    public let line: Int
    /// 1-based column in UTF-8 bytes.
    public let column: Int
    /// What is wrong and what to do, on one line.
    public let message: String
    /// For a rule about a header the user set with a flag (background with `--priority 10`, a topic without
    /// its suffix): that flag and its value (`--priority 10`), which messages name instead of the payload
    /// file (CLI.md: an error about a flag's value names the flag; exit 65 stays).
    public var flag: String? = nil

    /// Makes a problem; the validator is the usual source.
    public init(severity: Severity, path: String, line: Int, column: Int, message: String) {
        self.severity = severity
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// The path of whole-payload problems (not JSON, not an object, size, empty, header combinations).
    public static let rootPath = "(root)"
}
