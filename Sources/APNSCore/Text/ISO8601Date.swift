/// An ISO 8601 date (`2026-11-28`) or date-time (`2026-11-28T18:30:00Z`, `2026-11-28T19:30:00.250+01:00`) as
/// read from text: what the Live Activity date flags take, and what the content-state rule recognises in a
/// string a Swift `Date` cannot be decoded from. Calendar fields are checked (no 2026-02-30).
public struct ISO8601Date: Sendable, Equatable {
    /// The instant in UNIX seconds (fractions dropped); a date alone or a time without a zone is read as UTC.
    public let epochSeconds: Int64
    /// Whether a time of day was given (`T18:30`), not only a date.
    public let hasTime: Bool
    /// Whether the time names its zone (`Z` or an offset such as `+01:00`); without one it is ambiguous.
    public let hasZone: Bool

    /// Reads `text` whole; nil when it is not an ISO 8601 date or date-time (extended format, `T` or a space
    /// between date and time, `Z`, `±HH:MM` or `±HHMM`).
    public init?(_ text: some StringProtocol) {
        var reader = Reader(bytes: Array(text.utf8))
        guard let year = reader.digits(4), reader.take("-"), let month = reader.digits(2), reader.take("-"),
            let day = reader.digits(2), (1...12).contains(month), day >= 1,
            day <= Self.daysIn(month: month, year: year)
        else { return nil }
        var seconds = ISO8601.epochSeconds(year: year, month: month, day: day)
        guard !reader.atEnd else {
            (epochSeconds, hasTime, hasZone) = (seconds, false, false)
            return
        }
        guard reader.take("T") || reader.take("t") || reader.take(" "), let hour = reader.digits(2),
            reader.take(":"), let minute = reader.digits(2), hour < 24, minute < 60
        else { return nil }
        seconds += hour * 3600 + minute * 60
        if reader.take(":") {
            guard let second = reader.digits(2), second <= 60 else { return nil }
            seconds += second
            if reader.take(".") || reader.take(",") {
                guard reader.skipDigits() > 0 else { return nil }
            }
        }
        var zoned = false
        if reader.take("Z") || reader.take("z") {
            zoned = true
        } else if let sign: Int64 = reader.take("+") ? -1 : reader.take("-") ? 1 : nil {
            // An offset east of UTC (+01:00) means the same wall time came earlier in UTC.
            guard let h = reader.digits(2) else { return nil }
            _ = reader.take(":")
            guard let m = reader.digits(2), h < 24, m < 60 else { return nil }
            seconds += sign * (h * 3600 + m * 60)
            zoned = true
        }
        guard reader.atEnd else { return nil }
        (epochSeconds, hasTime, hasZone) = (seconds, true, zoned)
    }

    /// Days in `month` of `year`, in the proleptic Gregorian calendar.
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// A cursor over ASCII bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }

        /// Consumes `character` when it is next.
        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// Exactly `count` decimal digits as a number.
        mutating func digits(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var n: Int64 = 0
            for b in bytes[index..<index + count] {
                guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
                n = n * 10 + Int64(b - UInt8(ascii: "0"))
            }
            index += count
            return n
        }

        /// Consumes a run of digits (a fraction of a second) and says how many.
        mutating func skipDigits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - start
        }
    }
}
