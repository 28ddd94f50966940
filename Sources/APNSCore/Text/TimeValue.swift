/// The WHEN syntax of `--expiration`, `--stale-date` and `--dismissal-date` (CLI.md): `0`, a UNIX time in
/// seconds, or a duration from now (`45s`, `30m`, `1h`, `2d`, `2w`), plus `now` where a flag allows it.
/// One parser, so every flag that takes a time reads it the same way.
public enum TimeValue {
    /// Why a WHEN was refused: the text after the flag's name in a usage error.
    public struct Problem: Error, Equatable, Sendable {
        public let message: String
        public init(message: String) { self.message = message }
    }

    /// The units of a duration: seconds, minutes, hours, days, weeks.
    private static let durationUnits: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    /// A duration such as `45s`, `30m`, `12h`, `30d`, `2w` in seconds; nil for anything else.
    public static func durationSeconds(_ text: String) -> Int64? {
        let t = text.lowercased()
        guard let last = t.last, let unit = durationUnits[last] else { return nil }
        let digits = t.dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 9, let n = Int64(digits) else {
            return nil
        }
        return n * unit
    }

    /// `text` as UNIX seconds: `0`, a UNIX time, a duration from `now`, or (with `allowsNow`) `now`.
    /// `zeroMeaning` says what 0 does for this flag, for the help in messages.
    public static func parse(_ text: String, now: Int64, allowsNow: Bool = false,
                             zeroMeaning: String = "deliver once, never store") throws(Problem) -> Int64 {
        let nowPart = allowsNow ? "now, " : ""
        let help = "give \(nowPart)0 (\(zeroMeaning)), a UNIX time in seconds, or a duration such as 30m, 1h, 2d"
        let t = text.lowercased()
        if allowsNow && t == "now" { return now }
        guard let last = t.last else { throw Problem(message: "\"\": empty; \(help)") }
        if durationUnits[last] != nil {
            guard let seconds = durationSeconds(t) else {
                throw Problem(message: "\(text): not a duration; \(help)")
            }
            return now + seconds
        }
        guard t.allSatisfy({ $0.isASCII && $0.isNumber }), t.count <= 12, let seconds = Int64(t) else {
            throw Problem(message: "\(text): not a time; \(help)")
        }
        if seconds != 0 && seconds < 1_000_000_000 {
            // APNs takes an absolute time; 3600 would mean 1970-01-01T01:00Z and expire at once.
            throw Problem(message: allowsNow
                ? "\(text): a UNIX time that long ago is already past (a date is wanted, not a span); for a time from now write \(text)s"
                : "\(text): a UNIX time that long ago expires at once (APNs wants a date, not a TTL); for a time to live write \(text)s")
        }
        return seconds
    }
}
