/// Time traps of Live Activity payloads (CLI.md, "Live Activities and widgets"): a `timestamp` far from now
/// (the device drops an update older than the one it has), and UNIX times inside `content-state`, which
/// ActivityKit decodes into a Swift `Date` as seconds since 2001-01-01 (`JSONDecoder`'s default), 31 years late.
extension PayloadChecker {
    /// Seconds between the UNIX epoch and 2001-01-01T00:00:00Z, the reference date of a Swift `Date`.
    static let referenceDateOffset: Int64 = 978_307_200
    /// How far a `timestamp` may be from now before it is a warning.
    static let timestampTolerance: Double = 3600
    /// How far ahead of now a `timestamp` about to be sent may be: clocks differ by seconds, not by this much.
    static let sendingFutureTolerance: Double = 600

    /// A `timestamp` (in seconds: milliseconds are reported by the type rule) more than an hour from `now`; when
    /// `sending`, one more than 10 minutes ahead is an error, since iOS would then drop every later update.
    mutating func checkTimestampDistance(_ value: JSONValue) {
        guard let now, let n = value.number else { return }
        let seconds = n.doubleValue
        let ahead = seconds - Double(now)
        guard seconds.isFinite, seconds <= 1e11 else { return }
        let when = ISO8601.format(epochSeconds: Int64(seconds))
        let dropped =
            "iOS keeps the highest timestamp it has seen, so every later update with a normal timestamp would be dropped: refresh it (\(names.freshTimestamp))"
        if sending && ahead > Self.sendingFutureTolerance {
            let distance = Self.describe(distance: ahead)
            error(
                "aps.timestamp", at: value.start,
                "timestamp \(n.literal) (\(when)) is \(distance) after now; \(dropped)")
            return
        }
        guard abs(ahead) > Self.timestampTolerance else { return }
        let distance = Self.describe(distance: abs(ahead))
        if ahead < 0 {
            warning(
                "aps.timestamp", at: value.start,
                "timestamp \(n.literal) (\(when)) is \(distance) before now; the device ignores an update older than the last one it got: refresh it (\(names.freshTimestamp))"
            )
        } else {
            warning(
                "aps.timestamp", at: value.start,
                "timestamp \(n.literal) (\(when)) is \(distance) after now; \(dropped)")
        }
    }

    /// A `stale-date` before the push's own `timestamp`, or (when the clock is known) before now: the activity
    /// shows as stale the moment it arrives. A saved update sent again with a fresh timestamp keeps its old one.
    mutating func checkStaleDate(_ value: JSONValue, timestamp: JSONValue?) {
        // 0 is 1970, the earliest date there is (a placeholder left in a saved payload, say): stale on arrival too.
        guard let n = value.number, case let seconds = n.doubleValue, seconds.isFinite, seconds >= 0, seconds <= 1e11
        else { return }
        let when = ISO8601.format(epochSeconds: Int64(seconds))
        let shown = "stale-date \(n.literal) (\(when))"
        let stale = "the activity shows as stale the moment it arrives; \(names.laterStaleDate), or remove it"
        let t = timestamp?.number.map(\.doubleValue).flatMap { $0.isFinite && $0 <= 1e11 ? $0 : nil }
        // It arrives at about now (a timestamp may run a little ahead of the clock): stale only if already past.
        if let now {
            guard seconds < Double(now) else { return }
            if let t, seconds < t {
                warning("aps.stale-date", at: value.start, "\(shown) is before the timestamp; \(stale)")
            } else {
                let past = Double(now) - seconds
                let distance = past < 60 ? "less than a minute" : Self.describe(distance: past)
                warning("aps.stale-date", at: value.start, "\(shown) is \(distance) before now; \(stale)")
            }
        } else if let t, seconds < t {
            warning("aps.stale-date", at: value.start, "\(shown) is before the timestamp; \(stale)")
        }
    }

    /// Every number in `content-state` that looks like a UNIX time (10^9…2·10^9) or one in milliseconds
    /// (10^12…2·10^12), and every string that is an ISO 8601 date: a warning at its path with the value a `Date`
    /// field needs; the first 20, then a count.
    /// Walked in the source (`JSONNumberScan`): content-state is the app's data, of any size, and is not kept.
    mutating func checkContentStateDates(_ value: JSONValue, path: String) {
        var (listed, count, lastListed) = (0, 0, value.start)
        JSONNumberScan.forEachNumber(in: source, value.start..<value.end, path: path, strings: true) { range, spell in
            if source[range.lowerBound] == UInt8(ascii: "\"") {
                guard let date = isoDate(in: range) else { return }
                count += 1
                guard listed < JSONMemberFilter.listedLimit else { return }
                listed += 1
                lastListed = range.lowerBound
                reportISODate(date, at: range, path: spell())
                return
            }
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
                "\(count - listed) more values that look like UNIX times or dates not listed (\(count) in all); ActivityKit decodes a Swift Date as seconds since 2001-01-01: send Date fields as UNIX seconds − 978307200"
            )
        }
    }

    /// The ISO 8601 date or date-time a string value in `range` (quotes included) holds, with its text; nil for
    /// any other string. Dates are short: a longer string is not read.
    private func isoDate(in range: Range<Int>) -> (text: String, date: ISO8601Date)? {
        guard range.count >= 12, range.count <= 40 else { return nil }
        let inner = source[(range.lowerBound + 1)..<(range.upperBound - 1)]
        guard !inner.contains(UInt8(ascii: "\\")) else { return nil }
        let text = String(decoding: inner, as: UTF8.self)
        return ISO8601Date(text).map { (text, $0) }
    }

    /// A date written as an ISO 8601 string: `JSONDecoder`'s default strategy decodes a `Date` only from a number
    /// (seconds since 2001), so the update fails to decode on the device and the activity stops updating.
    private mutating func reportISODate(_ found: (text: String, date: ISO8601Date), at range: Range<Int>, path: String)
    {
        let field = lastComponent(path)
        let seconds = found.date.epochSeconds - Self.referenceDateOffset
        let zone = found.date.hasTime && !found.date.hasZone ? ", reading it as UTC" : ""
        let strategy: String
        switch Self.internetDateTime(found.text) {
        case .whole?: strategy = ", unless the app decodes dates with .iso8601"
        case .withFraction?:
            strategy =
                ", unless the app decodes dates with .iso8601 on a system that reads fractional seconds (older ones do not)"
        case nil:
            strategy =
                "; .iso8601 does not read this form either (it takes a date, T, a time to the second and a zone)"
        }
        warning(
            path, at: range.lowerBound,
            "\"\(found.text)\" is an ISO 8601 date; JSONDecoder's default strategy decodes a Swift Date only from a number (seconds since 2001-01-01), so if \(field) is a Date the update fails on the device without a word: send \(seconds)\(zone) (UNIX seconds − 978307200)\(strategy)"
        )
    }

    /// The internet date-time `.iso8601` reads (`2026-11-28T18:30:00Z`, `…+01:00`): `YYYY-MM-DDTHH:MM:SS` and a
    /// zone, with or without a fraction of a second after a dot (read by newer systems only); nil for other forms
    /// (a date alone, no seconds, a blank for the T, no zone, a comma).
    enum InternetDateTime { case whole, withFraction }
    static func internetDateTime(_ text: String) -> InternetDateTime? {
        let u = Array(text.utf8)
        func digits(_ r: Range<Int>) -> Bool { r.upperBound <= u.count && r.allSatisfy { u[$0] >= 48 && u[$0] <= 57 } }
        guard u.count >= 20, digits(0..<4), u[4] == 45, digits(5..<7), u[7] == 45, digits(8..<10), u[10] == 84,
            digits(11..<13), u[13] == 58, digits(14..<16), u[16] == 58, digits(17..<19)
        else { return nil }
        var i = 19
        var fraction = false
        if u[i] == 46 {
            fraction = true
            i += 1
            let start = i
            while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1 }
            guard i > start else { return nil }
        }
        let zone = Array(u[i...])
        let offset =
            zone.count == 6 && (zone[0] == 43 || zone[0] == 45) && zone[3] == 58
            && [1, 2, 4, 5].allSatisfy { zone[$0] >= 48 && zone[$0] <= 57 }
        guard zone == [90] || offset else { return nil }
        return fraction ? .withFraction : .whole
    }

    /// `40 minutes`, `3 hours`, `12 days`: the rough size of a distance in seconds.
    static func describe(distance: Double) -> String {
        func plural(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        if distance < 2 * 3600 { return plural(Int(distance / 60), "minute") }
        if distance < 2 * 86_400 { return plural(Int(distance / 3600), "hour") }
        return plural(Int(min(distance / 86_400, 1e9)), "day")
    }
}
