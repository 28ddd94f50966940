import Testing

@testable import APNSCore

/// The WHEN parser's refusals: which kind, and the advice after the flag's name.
@Suite struct TimeValueTests {
    static let expiration = TimeValue.Syntax(allowsNow: false, zeroMeaning: "deliver once, never store")
    static let stale = TimeValue.Syntax(allowsNow: true, zeroMeaning: "the epoch: already past")

    func problem(_ text: String, allowsNow: Bool = false) -> TimeValue.Problem? {
        do {
            _ = try TimeValue.parse(text, now: 100, as: allowsNow ? Self.stale : Self.expiration)
            return nil
        } catch { return error }
    }

    /// A date is refused where the same instant as a number would be: 1970 would read as 0, which means
    /// "deliver once, never store", and any date before September 2001 is long past.
    @Test func aDateLongPastIsRefusedAsItsNumberIs() throws {
        var syntax = Self.expiration
        syntax.allowsDate = true
        func parse(_ text: String) throws(TimeValue.Problem) -> Int64 {
            try TimeValue.parse(text, now: 100, as: syntax)
        }
        for text in ["1970-01-01T00:00:00Z", "1999-12-31T23:00:00Z", "2001-09-09T01:46:39Z"] {
            #expect(throws: TimeValue.Problem.dateLongAgo(text, syntax)) { try parse(text) }
        }
        #expect(
            TimeValue.Problem.dateLongAgo("1999-12-31T23:00:00Z", syntax).message
                == "1999-12-31T23:00:00Z: a date before 2001-09-09 is long past; for a time already past give 0 (deliver once, never store)"
        )
        #expect(try parse("2001-09-09T01:46:40Z") == 1_000_000_000)
        #expect(throws: TimeValue.Problem.beforeEpoch("1969-12-31T23:00:00Z", syntax)) {
            try parse("1969-12-31T23:00:00Z")
        }
    }

    @Test func eachRefusalIsItsOwnCase() {
        #expect(problem("") == .empty(Self.expiration))
        #expect(problem("1.5h") == .notADuration("1.5h", Self.expiration))
        #expect(problem("soon", allowsNow: true) == .notATime("soon", Self.stale))
        #expect(problem("3600") == .longAgo("3600", Self.expiration))
        #expect(problem("now") == .notADuration("now", Self.expiration))  // w is the unit of weeks
        #expect(problem("now", allowsNow: true) == nil)
    }

    @Test func messagesSayWhatToGive() {
        let help = "a UNIX time in seconds, or a duration such as 30m, 1h, 2d"
        #expect(problem("")?.message == "\"\": empty; give 0 (deliver once, never store), " + help)
        #expect(problem("12x")?.message == "12x: not a time; give 0 (deliver once, never store), " + help)
        // JavaScript's Date.now(): milliseconds, said with the seconds meant.
        #expect(
            problem("1796100000000")?.message
                == "1796100000000: a UNIX time in milliseconds (1796100000 in seconds); APNs reads seconds: give 1796100000"
        )
        #expect(
            problem("99999999999h")?.message == "99999999999h: not a duration; give 0 (deliver once, never store), "
                + help)
        #expect(
            problem("soon", allowsNow: true)?.message == "soon: not a time; give now, 0 (the epoch: already past), "
                + help)
        #expect(
            problem("3600")?.message
                == "3600: a UNIX time that long ago expires at once (APNs wants a date, not a TTL); for a time to live write 3600s"
        )
        #expect(
            problem("3600", allowsNow: true)?.message
                == "3600: a UNIX time that long ago is already past (a date is wanted, not a span); for a time from now write 3600s"
        )
    }
}
