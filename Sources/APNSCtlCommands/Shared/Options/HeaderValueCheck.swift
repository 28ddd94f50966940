import APNSCore

/// Header values given as flags, checked before connecting (CLI.md, `send`, "Input and output at the
/// edges"): whitespace or a control character in a topic, collapse id, channel id or request id is a usage
/// error naming the flag, never a stream reset from the server. A trailing space in `--topic` is the usual
/// copy-paste slip. The value is quoted with control characters escaped, so it cannot drive the terminal.
enum HeaderValueCheck {
    /// Throws 64 naming `flag` when `value` holds whitespace or a control character.
    static func check(_ value: String, flag: String) throws(CLIError) {
        try refuseSecret(value, flag: flag)
        guard let problem = problem(in: value) else { return }
        throw .usage("\(flag) \(PrintableText.quoted(value, limit: 200)): \(problem); \(HeaderValueRule.advice)")
    }

    /// Throws 64 naming `flag` when `value` is a key's body or a token: pasted as a header or payload value, it would
    /// go out to the server and into the history.
    static func refuseSecret(_ value: String, flag: String) throws(CLIError) {
        guard VariableEcho.isSecretText(value) else { return }
        throw .usage("\(flag) (\(VariableEcho.description(of: value)), not shown): a secret, not a value for \(flag)")
    }

    /// A channel id given as `flag` (`--channel`, `channel get`'s argument): a header value, and base64 as APNs
    /// makes them (APNS.md), checked before connecting (64) rather than sent for a BadChannelId.
    static func channelID(_ id: String, flag: String) throws(CLIError) {
        try check(id, flag: flag)
        guard Broadcast.isChannelIDSyntax(id) else {
            // Base64 characters, but not whole 4-character groups: a copy cut short (a double-click stops at + / =).
            let cut =
                Broadcast.isChannelIDSyntax(id + String(repeating: "A", count: (4 - id.utf8.count % 4) % 4))
                ? " (its \(id.utf8.count) characters are no whole number of base64's 4-character groups: was the copy cut short at a +, / or =?)"
                : ""
            throw .usage(
                "\(flag) \(PrintableText.quoted(id, limit: 200)): not a channel id\(cut); pass it exactly as apnsctl channel create or list printed it (base64)"
            )
        }
    }

    /// A flag whose value is a UUID header (`--apns-id`, `--request-id`), as given; nil when not given, 64 naming
    /// `flag` when it is not the canonical 8-4-4-4-12 form.
    static func canonicalUUID(_ value: String?, flag: String) throws(CLIError) -> String? {
        guard let value else { return nil }
        guard UUIDString.isCanonical(value) else {
            throw .usage(
                "\(flag) \(PrintableText.quoted(value, limit: 200)): not a canonical UUID; use the 8-4-4-4-12 hex form, e.g. \(UUIDString.random())"
            )
        }
        return value
    }

    /// What is wrong with `value`, or nil when it may be sent as a header value.
    static func problem(in value: String) -> String? { HeaderValueRule.problem(in: value) }
}
