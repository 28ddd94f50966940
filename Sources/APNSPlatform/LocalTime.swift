#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Times in the user's time zone (`TZ`, else the system's), as `history` shows when each send started.
public enum LocalTime {
    /// `2026-11-28 18:02`, or with `seconds` `2026-11-28 18:02:11`.
    public static func format(epochSeconds: Int64, seconds: Bool = false) -> String {
        var time = time_t(epochSeconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return String(epochSeconds) }
        func pad(_ n: Int32) -> String { n < 10 ? "0\(n)" : String(n) }
        let date = "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))"
        let clock = "\(pad(parts.tm_hour)):\(pad(parts.tm_min))" + (seconds ? ":\(pad(parts.tm_sec))" : "")
        return date + " " + clock
    }

    /// The UNIX time of a local date and time; nil when the fields name no time.
    public static func epochSeconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0) -> Int64? {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_isdst = -1
        let time = mktime(&parts)
        return time == -1 ? nil : Int64(time)
    }
}
