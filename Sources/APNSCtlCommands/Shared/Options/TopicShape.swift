/// A topic's shape, checked before anything is sent: `com.example.app.` (a stray dot) would become
/// `com.example.app..push-type.…` or a bundle id APNs answers BadTopic or TopicDisallowed for, whose hints cannot
/// point at the dot.
enum TopicShape {
    /// Throws 64 when `topic` has an empty part (a dot at its start or end, or two in a row); `label` names where it
    /// came from (`--topic com.x.`, `APNSCTL_TOPIC com.x.`, `the topic com.x.`).
    static func check(_ topic: String, label: String) throws(CLIError) {
        // Quotes kept by a shell (`--topic "'com.x'"`) or a settings file's typographic ones: no bundle id has them.
        if topic.contains(where: { "\"'\u{201C}\u{201D}\u{2018}\u{2019}".contains($0) }) {
            throw .usage(
                "\(label): a topic is a bundle id, and no bundle id holds quotes; remove them (typographic quotes from an editor included)"
            )
        }
        guard topic.hasPrefix(".") || topic.hasSuffix(".") || topic.contains("..") else { return }
        throw .usage(
            "\(label): a topic is a bundle id, words joined by single dots such as com.example.app, and this one has an empty part (a dot at its start or end, or two in a row); remove the stray dot"
        )
    }
}
