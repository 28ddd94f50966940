/// The WHEN syntax of `--expiration`, `--stale-date` and `--dismissal-date` (CLI.md): `0`, a UNIX time in
/// seconds, or a duration from now (`45s`, `30m`, `1h`, `2d`, `2w`), plus `now` and an ISO 8601 date-time where a
/// flag allows them. One parser, so every flag that takes a time reads it the same way.
public enum TimeValue {
    /// Why a WHEN was refused; `message` is the text after the flag's name in a usage error.
    public enum Problem: Error, Equatable, Sendable {
        /// Nothing was given.
        case empty(Syntax)
        /// A unit letter after something that is not a whole number of at most 9 digits.
        case notADuration(String, Syntax)
        /// Neither a duration nor a UNIX time of at most 12 digits.
        case notATime(String, Syntax)
        /// A nonzero UNIX time before September 2001, almost surely a span meant as a duration: long past.
        case longAgo(String, Syntax)
        /// A duration with a minus sign (`-5m`): durations count forward from now.
        case negativeDuration(String, Syntax)
        /// An ISO 8601 date-time without `Z` or an offset, or a date without a time: which instant is unclear.
        case dateWithoutZone(String, Syntax)
        /// An ISO 8601 date-time before 1970, which no UNIX time in a header or payload carries.
        case beforeEpoch(String, Syntax)
        /// An ISO 8601 date-time from 1970 to September 2001: long past, refused as a UNIX time that low is (1970
        /// itself would read as 0, with 0's own meaning).
        case dateLongAgo(String, Syntax)

        /// The refused text, then what it should have been: `0`, a UNIX time, a duration, and `now` where allowed.
        public var message: String {
            switch self {
            case .empty: return "\"\": " + reason
            case .notADuration(let text, _), .notATime(let text, _), .negativeDuration(let text, _),
                .dateWithoutZone(let text, _), .longAgo(let text, _), .beforeEpoch(let text, _),
                .dateLongAgo(let text, _):
                return "\(text): " + reason
            }
        }

        /// `message` without the refused text in front, for a message that shows it already (`--expiration abc:`).
        public var reason: String {
            switch self {
            case .empty(let syntax): return "empty; \(syntax.help)"
            case .notADuration(_, let syntax): return "not a duration; \(syntax.help)"
            case .notATime(let text, let syntax):
                // JavaScript's Date.now() gives milliseconds: 13 digits where seconds have 10.
                if text.count == 13, text.allSatisfy({ $0.isASCII && $0.isNumber }), let ms = Int64(text) {
                    return
                        "a UNIX time in milliseconds (\(ms / 1000) in seconds); APNs reads seconds: give \(ms / 1000)"
                }
                return "not a time; \(syntax.help)"
            case .negativeDuration(_, let syntax):
                return
                    "a duration counts forward from now and cannot be negative; for a time already past \(syntax.past)"
            case .dateWithoutZone:
                // The date forms are the advice; the rest of the syntax's help would give them twice.
                return
                    "which instant is unclear; give a date-time with Z or an offset, such as \(TimeValue.dateExample) or 2026-11-28T19:30:00+01:00"
            case .beforeEpoch(_, let syntax):
                return "a date before 1970, which no UNIX time carries; for a time already past \(syntax.past)"
            case .dateLongAgo(_, let syntax):
                return "a date before 2001-09-09 is long past; for a time already past \(syntax.past)"
            case .longAgo(let text, let syntax):
                return syntax.allowsNow
                    ? "a UNIX time that long ago is already past (a date is wanted, not a span); for a time from now write \(text)s"
                    : "a UNIX time that long ago expires at once (APNs wants a date, not a TTL); for a time to live write \(text)s"
            }
        }
    }

    /// Which WHENs a setting takes: whether `now` is one, and what 0 means for it (for the help in messages).
    public struct Syntax: Equatable, Sendable {
        public let allowsNow: Bool
        public let zeroMeaning: String
        /// Whether an ISO 8601 date-time with a zone (`2026-11-28T18:30:00Z`) is one.
        public var allowsDate = false

        public init(allowsNow: Bool, zeroMeaning: String, allowsDate: Bool = false) {
            self.allowsNow = allowsNow
            self.zeroMeaning = zeroMeaning
            self.allowsDate = allowsDate
        }

        /// An expiration (apns-expiration): 0 asks APNs to try once and never store the notification.
        public static let expiration = Syntax(
            allowsNow: false, zeroMeaning: "deliver once, never store", allowsDate: true)
        /// A Live Activity's stale or dismissal date: `now` is one, and 0 is a date long past.
        public static let activityDate = Syntax(
            allowsNow: true, zeroMeaning: "the epoch: already past", allowsDate: true)

        /// What to give, for messages: every form this syntax takes.
        public var help: String {
            let date = allowsDate ? ", an ISO 8601 date-time such as \(TimeValue.dateExample)" : ""
            return
                "give \(allowsNow ? "now, " : "")0 (\(zeroMeaning)), a UNIX time in seconds\(date), or a duration such as 30m, 1h, 2d"
        }

        /// What to give for a time that has passed.
        var past: String { allowsNow ? "give now" : "give 0 (\(zeroMeaning))" }
    }

    /// Below this UNIX time (2001-09-09) a nonzero time is taken for a slip: a span written as a number, or a date
    /// long past.
    static let longAgoLimit: Int64 = 1_000_000_000

    /// The ISO 8601 date-time messages show.
    public static let dateExample = "2026-11-28T18:30:00Z"

    /// The units of a duration: seconds, minutes, hours, days, weeks.
    private static let durationUnits: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    /// Whether `text` is a duration written with more digits than `durationSeconds` takes (`999999999999999d`):
    /// too large, not malformed.
    public static func isDurationTooLarge(_ text: String) -> Bool {
        let t = text.lowercased()
        guard let last = t.last, durationUnits[last] != nil else { return false }
        let digits = t.dropLast()
        return digits.count > 9 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// A duration such as `45s`, `30m`, `12h`, `30d`, `2w` in seconds; nil for anything else.
    public static func durationSeconds(_ text: String) -> Int64? {
        let t = text.lowercased()
        guard let last = t.last, let unit = durationUnits[last] else { return nil }
        let digits = t.dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 9,
            let n = Int64(digits)
        else {
            return nil
        }
        return n * unit
    }

    /// `text` as UNIX seconds, read as `syntax` says (`Syntax.expiration`, `Syntax.activityDate`): `0`, a UNIX
    /// time, a duration from `now`, or (with `allowsNow`) `now`, (with `allowsDate`) an ISO 8601 date-time with a
    /// zone. The syntax's `zeroMeaning` says what 0 does for this flag, for the help in messages.
    public static func parse(_ text: String, now: Int64, as syntax: Syntax) throws(Problem) -> Int64 {
        let t = text.lowercased()
        if syntax.allowsNow && t == "now" { return now }
        guard let last = t.last else { throw .empty(syntax) }
        if syntax.allowsDate, let date = ISO8601Date(text) {
            guard date.hasZone else { throw .dateWithoutZone(text, syntax) }
            guard date.epochSeconds >= 0 else { throw .beforeEpoch(text, syntax) }
            guard date.epochSeconds >= longAgoLimit else { throw .dateLongAgo(text, syntax) }
            return date.epochSeconds
        }
        if t.hasPrefix("-"), durationSeconds(String(t.dropFirst())) != nil { throw .negativeDuration(text, syntax) }
        if durationUnits[last] != nil {
            guard let seconds = durationSeconds(t) else { throw .notADuration(text, syntax) }
            return now + seconds
        }
        guard t.allSatisfy({ $0.isASCII && $0.isNumber }), t.count <= 12, let seconds = Int64(t) else {
            throw .notATime(text, syntax)
        }
        if seconds != 0 && seconds < longAgoLimit {
            // APNs takes an absolute time; 3600 would mean 1970-01-01T01:00Z and expire at once.
            throw .longAgo(text, syntax)
        }
        return seconds
    }
}
