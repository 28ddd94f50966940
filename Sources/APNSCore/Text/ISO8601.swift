/// ISO 8601 dates in UTC (`2026-11-03T10:40:00Z`), as CLI.md asks for timestamps and expiry dates.
public enum ISO8601 {
    /// Formats seconds since the epoch; any value, however far from now (a damaged record's), without overflow.
    public static func format(epochSeconds: Int64) -> String {
        let days = floorDiv(epochSeconds, 86_400)
        let remainder = epochSeconds % 86_400
        let secs = remainder < 0 ? remainder + 86_400 : remainder
        let (y, m, d) = civil(fromDays: days)
        return
            "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secs / 3600, 2)):\(pad(secs / 60 % 60, 2)):\(pad(secs % 60, 2))Z"
    }

    /// Formats milliseconds since the epoch (APNs' 410 timestamp), dropping the fraction.
    public static func format(epochMilliseconds: Int64) -> String {
        format(epochSeconds: floorDiv(epochMilliseconds, 1000))
    }

    /// Seconds since the epoch for a UTC calendar date and time.
    public static func epochSeconds(
        year: Int64, month: Int64, day: Int64, hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0
    ) -> Int64 {
        days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    // Howard Hinnant's days-from-civil algorithms (public domain), proleptic Gregorian calendar.
    private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
