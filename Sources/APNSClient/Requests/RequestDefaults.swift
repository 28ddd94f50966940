import APNSCore
import APNSCrypto

/// CLI.md's defaults for the request headers, as pure functions so they can be tested as a table:
/// topic, push type, priority, environment and expiration, each from what the user gave, the
/// certificate, the `.apns` file and the payload.
public enum RequestDefaults {
    /// `apns-topic`: `--topic`, else the `.apns` file's `Simulator Target Bundle`, else the certificate's
    /// bundle id (with the push type's suffix when the certificate lists that topic). Nil when none is
    /// known (token auth without `--topic`: a usage error).
    public static func topic(explicit: String?, simulatorTargetBundle: String?, certificate: CertificateInfo?,
                             pushType: PushType?) -> String? {
        if let explicit { return explicit }
        if let bundle = simulatorTargetBundle, !bundle.isEmpty {
            if let pushType, !pushType.topicSuffix.isEmpty, let certificate,
               certificate.topics.contains(bundle + pushType.topicSuffix) {
                return bundle + pushType.topicSuffix
            }
            return bundle
        }
        return certificate?.defaultTopic(for: pushType)
    }

    /// `apns-priority`: `--priority`, else 10, but 5 for background (which forbids 10).
    public static func priority(explicit: Priority?, pushType: PushType) -> Priority {
        explicit ?? pushType.defaultPriority
    }

    /// The environment: `--env`, else the certificate's only one, else sandbox.
    public static func environment(explicit: APNSEnvironment?, certificate: CertificateInfo?) -> APNSEnvironment {
        explicit ?? certificate?.defaultEnvironment ?? .sandbox
    }

    /// Why `--expiration` was refused.
    public struct ExpirationProblem: Error, Equatable, Sendable {
        public let message: String
    }

    /// The units of a duration: seconds, minutes, hours, days, weeks.
    private static let durationUnits: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    /// A duration such as `45s`, `30m`, `12h`, `30d`, `2w` in seconds (`--expiration`'s syntax, shared with
    /// `doctor --fail-within`); nil for anything else.
    public static func durationSeconds(_ text: String) -> Int64? {
        let t = text.lowercased()
        guard let last = t.last, let unit = durationUnits[last] else { return nil }
        let digits = t.dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 9, let n = Int64(digits) else {
            return nil
        }
        return n * unit
    }

    /// `--expiration`: `0`, a UNIX time in seconds, or a duration from `now` (`45s`, `30m`, `1h`, `2d`).
    public static func expiration(_ text: String, now: Int64) throws(ExpirationProblem) -> Int64 {
        let help = "give 0 (deliver once, never store), a UNIX time in seconds, or a duration such as 30m, 1h, 2d"
        let t = text.lowercased()
        guard let last = t.last else { throw ExpirationProblem(message: "\"\": empty; \(help)") }
        if durationUnits[last] != nil {
            guard let seconds = durationSeconds(t) else {
                throw ExpirationProblem(message: "\(text): not a duration; \(help)")
            }
            return now + seconds
        }
        guard t.allSatisfy({ $0.isASCII && $0.isNumber }), t.count <= 12, let seconds = Int64(t) else {
            throw ExpirationProblem(message: "\(text): not a time; \(help)")
        }
        if seconds != 0 && seconds < 1_000_000_000 {
            // APNs takes an absolute time; 3600 would mean 1970-01-01T01:00Z and expire at once.
            throw ExpirationProblem(message: "\(text): a UNIX time that long ago expires at once (APNs wants a date, not a TTL); for a time to live write \(text)s")
        }
        return seconds
    }
}
