/// Whether a message may quote an environment variable's value. A value longer than 200 characters or holding
/// a line break is usually a file pasted into the variable (`APNSCTL_CERT="$(cat bag.pem)"`), a key or certificate among
/// them: no message, `-v` line or `config show` row prints it, only what it is.
public enum VariableEcho {
    /// The longest value a message quotes.
    public static let limit = 200

    /// Whether `value` may be quoted (escaped) in a message.
    public static func mayEcho(_ value: String) -> Bool {
        value.count <= limit && !value.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }

    /// Whether a command-line argument or a settings-file value may be quoted (escaped) in a message: the rule for
    /// variables, except that a value of one line with a line break around it (a slip the message should show)
    /// is quoted.
    public static func mayEchoArgument(_ value: String) -> Bool {
        value.count <= limit
            && value.split(
                omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            )
            .count <= 1
    }

    /// `value` escaped when it may be quoted, else `(a value of 3 lines, not shown)` or
    /// `(a value of 523 characters, not shown)`.
    public static func shown(_ value: String) -> String {
        if mayEcho(value) { return PrintableText.escapingControls(value) }
        return "(" + description(of: value) + ", not shown)"
    }

    /// `a value of 3 lines`, `a value of 523 characters`.
    public static func description(of value: String) -> String {
        let lines = value.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        ).count
        return lines > 1 ? "a value of \(lines) lines" : "a value of \(value.count) characters"
    }
}
