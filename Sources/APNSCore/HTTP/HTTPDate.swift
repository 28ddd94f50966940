/// The `Date` header's form (RFC 9110 §5.6.7, IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`), the one servers
/// send; the obsolete forms are not read.
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Seconds since the epoch, or nil for anything that is not an IMF-fixdate.
    public static func epochSeconds(_ text: String) -> Int64? {
        let words = text.split(separator: " ")
        guard words.count == 6, words[0].hasSuffix(","), words[5] == "GMT",
            let day = Int64(words[1]), (1...31).contains(day),
            let month = months.firstIndex(of: String(words[2])),
            let year = Int64(words[3]), words[3].count == 4
        else { return nil }
        let clock = words[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int64(clock[0]), let minute = Int64(clock[1]), let second = Int64(clock[2]),
            hour < 24, minute < 60, second < 61
        else { return nil }
        return ISO8601.epochSeconds(
            year: year, month: Int64(month + 1), day: day, hour: hour, minute: minute, second: second)
    }
}
