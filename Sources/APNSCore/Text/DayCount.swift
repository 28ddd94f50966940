/// A number of days as a message says it: `1 day`, `0 days`, `12 days` ("1 days ago" read as a slip).
public enum DayCount {
    public static func text<N: BinaryInteger>(_ days: N) -> String { "\(days) day\(days == 1 ? "" : "s")" }
}
