/// A number of days as a message says it: `1 day`, `12 days` ("1 days ago" read as a slip). The counts are whole
/// days of a time span, cut down, so 0 is a span under a day: `less than a day`, where "0 days left" read as
/// already expired and "EXPIRED 0 days ago" as not yet.
public enum DayCount {
    public static func text<N: BinaryInteger>(_ days: N) -> String {
        days == 0 ? "less than a day" : "\(days) day\(days == 1 ? "" : "s")"
    }
}
