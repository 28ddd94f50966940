import APNSCore

/// Header values given as flags, checked before connecting (CLI.md, `send`, "Input and output at the
/// edges"): whitespace or a control character in a topic, collapse id, channel id or request id is a usage
/// error naming the flag, never a stream reset from the server. A trailing space in `--topic` is the usual
/// copy-paste slip. The value is quoted with control characters escaped, so it cannot drive the terminal.
enum HeaderValueCheck {
    /// Throws 64 naming `flag` when `value` holds whitespace or a control character.
    static func check(_ value: String, flag: String) throws(CLIError) {
        guard let problem = problem(in: value) else { return }
        throw .usage("\(flag) \(JSONWriter.quoted(value)): \(problem); a header value cannot hold whitespace or "
            + "control characters; remove it")
    }

    /// What is wrong with `value`, or nil when it may be sent as a header value.
    static func problem(in value: String) -> String? {
        let scalars = Array(value.unicodeScalars)
        guard let index = scalars.firstIndex(where: isForbidden) else { return nil }
        let scalar = scalars[index]
        let what: String
        switch scalar {
        case " ": what = "a space"
        case "\t": what = "a tab"
        case "\n", "\r": what = "a line break"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            what = (scalar.properties.isWhitespace ? "a whitespace character" : "a control character")
                + " (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
        }
        if index == scalars.count - 1 && scalars.count > 1 { return "ends with \(what)" }
        if index == 0 && scalars.count > 1 { return "starts with \(what)" }
        return "holds \(what)"
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
