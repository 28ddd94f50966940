import Testing

@testable import APNSCore

/// The WHEN parser's refusals: which kind, and the advice after the flag's name.
@Suite struct TimeValueTests {
    static let expiration = TimeValue.Syntax(allowsNow: false, zeroMeaning: "deliver once, never store")
    static let stale = TimeValue.Syntax(allowsNow: true, zeroMeaning: "the epoch: already past")

    func problem(_ text: String, allowsNow: Bool = false) -> TimeValue.Problem? {
        do {
            _ =
                allowsNow
                ? try TimeValue.parse(text, now: 100, allowsNow: true, zeroMeaning: "the epoch: already past")
                : try TimeValue.parse(text, now: 100)
            return nil
        } catch { return error }
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
