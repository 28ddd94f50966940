import APNSCore

/// Header values given as flags, checked before connecting (CLI.md, `send`, "Input and output at the
/// edges"): whitespace or a control character in a topic, collapse id, channel id or request id is a usage
/// error naming the flag, never a stream reset from the server. A trailing space in `--topic` is the usual
/// copy-paste slip. The value is quoted with control characters escaped, so it cannot drive the terminal.
enum HeaderValueCheck {
    /// Throws 64 naming `flag` when `value` holds whitespace or a control character.
    static func check(_ value: String, flag: String) throws(CLIError) {
        guard let problem = problem(in: value) else { return }
        throw .usage("\(flag) \(JSONWriter.quoted(value)): \(problem); \(HeaderValueRule.advice)")
    }

    /// What is wrong with `value`, or nil when it may be sent as a header value.
    static func problem(in value: String) -> String? { HeaderValueRule.problem(in: value) }
}
