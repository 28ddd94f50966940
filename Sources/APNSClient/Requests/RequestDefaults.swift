import APNSCore
import APNSCrypto

/// CLI.md's defaults for the request headers, as pure functions so they can be tested as a table:
/// topic, push type, priority, environment and expiration, each from what the user gave, the
/// certificate, the `.apns` file and the payload.
public enum RequestDefaults {
    /// `apns-topic`: `--topic`, else the `.apns` file's `Simulator Target Bundle`, else the certificate's
    /// bundle id (with the push type's suffix when the certificate lists that topic). Nil when none is
    /// known (token auth without `--topic`: a usage error).
    public static func topic(
        explicit: String?, simulatorTargetBundle: String?, certificate: CertificateInfo?,
        pushType: PushType?
    ) -> String? {
        if let explicit { return explicit }
        if let bundle = simulatorTargetBundle, !bundle.isEmpty {
            if let pushType, !pushType.topicSuffix.isEmpty, let certificate,
                certificate.topics.contains(bundle + pushType.topicSuffix)
            {
                return bundle + pushType.topicSuffix
            }
            return bundle
        }
        return certificate?.defaultTopic(for: pushType)
    }

    /// `apns-priority`: `--priority`, else 10, but 5 for background (which forbids 10); none for widgets and
    /// controls unless given (Apple's sample sends none).
    public static func priority(explicit: Priority?, pushType: PushType) -> Priority? {
        if let explicit { return explicit }
        if pushType == .widgets || pushType == .controls { return nil }
        return pushType.defaultPriority
    }

    /// `topic` with `pushType`'s suffix appended unless it already ends so (the builder flags' topic). A topic
    /// ending with another type's `.push-type.…` suffix is no bundle id: it is kept, for the topic rule to refuse
    /// and name the topic meant, never sent as `….push-type.widgets.push-type.controls`. (A bundle id may end
    /// `.voip` or `.complication`: those get the suffix.)
    /// The suffix in other letter case (`.push-type.LiveActivity`) is the suffix, spelt as APNs spells it.
    public static func suffixed(_ topic: String, for pushType: PushType) -> String {
        let suffix = pushType.topicSuffix
        if topic.hasSuffix(suffix) { return topic }
        let lowered = topic.lowercased()
        if !suffix.isEmpty, lowered.hasSuffix(suffix), topic.utf8.count == lowered.utf8.count {
            return String(decoding: topic.utf8.dropLast(suffix.utf8.count), as: UTF8.self) + suffix
        }
        if let other = PushType.inferred(fromTopic: lowered), other != pushType,
            other.topicSuffix.hasPrefix(".push-type.")
        {
            return topic
        }
        return topic + pushType.topicSuffix
    }

    /// `apns-expiration` when none is given: 0 (deliver now or never) for push-to-talk, as Apple asks of it, a
    /// transmission delivered late being worse than none; else none (APNs stores the push as its policy says).
    public static func expiration(for pushType: PushType) -> Int64? { pushType == .pushtotalk ? 0 : nil }

    /// The environment: `--env`, else the certificate's only one, else sandbox.
    public static func environment(explicit: APNSEnvironment?, certificate: CertificateInfo?) -> APNSEnvironment {
        explicit ?? certificate?.defaultEnvironment ?? .sandbox
    }

    /// A duration such as `45s`, `30m`, `12h`, `30d`, `2w` in seconds (`--expiration`'s syntax, shared with
    /// `doctor --fail-within`); nil for anything else.
    public static func durationSeconds(_ text: String) -> Int64? { TimeValue.durationSeconds(text) }

    /// `--expiration`: `0`, a UNIX time in seconds, an ISO 8601 date-time with a zone (as `--stale-date` takes), or
    /// a duration from `now` (`45s`, `30m`, `1h`, `2d`).
    public static func expiration(_ text: String, now: Int64) throws(TimeValue.Problem) -> Int64 {
        try TimeValue.parse(text, now: now, as: .expiration)
    }
}
