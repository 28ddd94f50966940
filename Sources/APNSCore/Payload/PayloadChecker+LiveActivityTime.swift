/// Time traps of Live Activity payloads (CLI.md, "Live Activities and widgets"): a `timestamp` far from now
/// (the device drops an update older than the one it has), and UNIX times inside `content-state`, which
/// ActivityKit decodes into a Swift `Date` as seconds since 2001-01-01 (`JSONDecoder`'s default), 31 years late.
extension PayloadChecker {
    /// Seconds between the UNIX epoch and 2001-01-01T00:00:00Z, the reference date of a Swift `Date`.
    static let referenceDateOffset: Int64 = 978_307_200
    /// How far a `timestamp` may be from now before it is a warning.
    static let timestampTolerance: Double = 3600

    /// A `timestamp` (in seconds: milliseconds are reported by the type rule) more than an hour from `now`.
    mutating func checkTimestampDistance(_ value: JSONValue) {
        guard let now, let n = value.number else { return }
        let seconds = n.doubleValue
        guard seconds.isFinite, seconds <= 1e11, abs(seconds - Double(now)) > Self.timestampTolerance else { return }
        let distance = Self.describe(distance: abs(seconds - Double(now)))
        let when = ISO8601.format(epochSeconds: Int64(seconds))
        if seconds < Double(now) {
            warning(
                "aps.timestamp", at: value.start,
                "timestamp \(n.literal) (\(when)) is \(distance) before now; the device ignores an update older than the last one it got: refresh it (\(names.freshTimestamp))"
            )
        } else {
            warning(
                "aps.timestamp", at: value.start,
                "timestamp \(n.literal) (\(when)) is \(distance) after now; updates with a later timestamp are dropped until the clock passes it: refresh it (\(names.freshTimestamp))"
            )
        }
    }

    /// Every number in `content-state` that looks like a UNIX time (10^9…2·10^9) or one in milliseconds
    /// (10^12…2·10^12): a warning at its path with the value a `Date` field needs; the first 20, then a count.
    /// Walked in the source (`JSONNumberScan`): content-state is the app's data, of any size, and is not kept.
    mutating func checkContentStateDates(_ value: JSONValue, path: String) {
        var (listed, count, lastListed) = (0, 0, value.start)
        JSONNumberScan.forEachNumber(in: source, value.start..<value.end, path: path) { range, spell in
            let number = JSONNumber(reading: source[range])
            let (literal, d) = (number.literal, number.doubleValue)
            guard (d >= 1e9 && d <= 2e9) || (d >= 1e12 && d <= 2e12) else { return }
            count += 1
            guard listed < JSONMemberFilter.listedLimit else { return }
            listed += 1
            lastListed = range.lowerBound
            let path = spell()
            let field = lastComponent(path)
            if d <= 2e9 {
                let unix = Int64(d)
                let shown = ISO8601.format(epochSeconds: unix + Self.referenceDateOffset)
                warning(
                    path, at: range.lowerBound,
                    "\(literal) looks like a UNIX time; ActivityKit decodes a Swift Date as seconds since 2001-01-01, so a Date field would show \(shown): if \(field) is a Date, send \(unix - Self.referenceDateOffset) (UNIX seconds − 978307200)"
                )
            } else {
                let unix = Int64(d / 1000)
                warning(
                    path, at: range.lowerBound,
                    "\(literal) looks like a UNIX time in milliseconds; ActivityKit decodes a Swift Date as seconds since 2001-01-01, so a Date field would be thousands of years off: if \(field) is a Date, send \(unix - Self.referenceDateOffset) (milliseconds ÷ 1000 − 978307200)"
                )
            }
        }
        if count > listed {
            warning(
                path, at: lastListed,
                "\(count - listed) more numbers that look like UNIX times not listed (\(count) in all); ActivityKit decodes a Swift Date as seconds since 2001-01-01: send Date fields as UNIX seconds − 978307200"
            )
        }
    }

    /// `40 minutes`, `3 hours`, `12 days`: the rough size of a distance in seconds.
    static func describe(distance: Double) -> String {
        func plural(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        if distance < 2 * 3600 { return plural(Int(distance / 60), "minute") }
        if distance < 2 * 86_400 { return plural(Int(distance / 3600), "hour") }
        return plural(Int(min(distance / 86_400, 1e9)), "day")
    }
}
