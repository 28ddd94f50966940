/// The rule for values sent as HTTP/2 header values (topic, collapse id, channel id, request id): no whitespace,
/// no control character and no bidirectional override (no header means one; printed in a dry run's request and
/// curl line, it would reorder the line). Shared by the commands' flag checks and the settings parser, so a topic from a
/// flag, a variable or a profile is refused in the same words (`ends with a space`).
public enum HeaderValueRule {
    /// What to do about a value the rule refuses, after its problem.
    public static let advice =
        "a header value cannot hold whitespace, control characters or bidirectional overrides; remove it"

    /// What is wrong with `value`, or nil when it may be sent as a header value.
    public static func problem(in value: String) -> String? {
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
            let kind =
                scalar.properties.isWhitespace
                ? "a whitespace character"
                : PrintableText.needsEscaping(scalar) && scalar.value > 0x9F
                    ? "a bidirectional override" : "a control character"
            what = kind + " (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
        }
        if index == scalars.count - 1 && scalars.count > 1 { return "ends with \(what)" }
        if index == 0 && scalars.count > 1 { return "starts with \(what)" }
        return "holds \(what)"
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || PrintableText.needsEscaping(scalar)
    }
}
