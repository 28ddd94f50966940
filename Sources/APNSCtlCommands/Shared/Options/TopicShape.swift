import APNSCore

/// A topic's shape, checked before anything is sent: `com.example.app.` (a stray dot) would become
/// `com.example.app..push-type.…` or a bundle id APNs answers BadTopic or TopicDisallowed for, whose hints cannot
/// point at the dot. The rule is APNSCore's `BundleIDShape`, which app builds are read with too; this words it.
enum TopicShape {
    /// Throws 64 when `topic` is no bundle id; `label` names where it came from (`--topic com.x.`, `APNSCTL_TOPIC
    /// com.x.`, `the topic com.x.`).
    static func check(_ topic: String, label: String) throws(CLIError) {
        switch BundleIDShape.problem(in: topic) {
        case nil: return
        // Quotes kept by a shell (`--topic "'com.x'"`) or a settings file's typographic ones.
        case .quotes:
            throw .usage(
                "\(label): a topic is a bundle id, and no bundle id holds quotes; remove them (typographic quotes from an editor included)"
            )
        case .emptyPart:
            throw .usage(
                "\(label): a topic is a bundle id, words joined by single dots such as com.example.app, and this one has an empty part (a dot at its start or end, or two in a row); remove the stray dot"
            )
        case .character(let c):
            // Blanks, control characters and bidirectional overrides are the header rule's, said where the value was
            // read (an `.apns` file's bundle is that file's fault, 65).
            if HeaderValueRule.problem(in: String(c)) != nil { return }
            // A lookalike pasted from a document (an en dash, a letter with an accent) reads as the right one.
            throw .usage(
                "\(BundleIDShape.showingInvisible(label)): a topic is a bundle id, made of \(BundleIDShape.allowed), and this one holds \(BundleIDShape.describe(c)); retype it without that character"
            )
        }
    }
}
