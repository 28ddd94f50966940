import Testing

@testable import APNSCore

/// ISO 8601 dates as the Live Activity date flags take them and as the content-state rule recognises them.
@Suite struct ISO8601DateTests {
    /// 2026-11-28T18:30:00Z.
    static let evening: Int64 = 1_795_890_600

    @Test func dateTimesWithAZoneAreInstants() {
        for text in [
            "2026-11-28T18:30:00Z", "2026-11-28T19:30:00+01:00", "2026-11-28T13:30:00-0500", "2026-11-28t18:30z",
            "2026-11-28 18:30:00.750Z", "2026-11-28T18:30:00,5+00:00",
        ] {
            let date = ISO8601Date(text)
            #expect(date?.epochSeconds == Self.evening, "\(text)")
            #expect(date?.hasZone == true && date?.hasTime == true, "\(text)")
        }
    }

    @Test func aDateAloneOrATimeWithoutZoneIsReadAsUTCAndSaysSo() {
        let day = ISO8601Date("2026-11-28")
        #expect(day?.epochSeconds == Self.evening - 66_600 && day?.hasTime == false && day?.hasZone == false)
        let local = ISO8601Date("2026-11-28T18:30:00")
        #expect(local?.epochSeconds == Self.evening && local?.hasTime == true && local?.hasZone == false)
        #expect(ISO8601Date("2028-02-29")?.epochSeconds == 1_835_395_200)
    }

    @Test func otherTextIsNoDate() {
        for text in [
            "", "2026", "2026-11", "2026-13-01", "2026-02-29", "2026-11-31", "2026-11-28T24:00Z", "2026-11-28T18:60Z",
            "2026-11-28T18", "2026-11-28T18:30:00+1", "2026-11-28T18:30:00Zjunk", "26-11-28", "2026/11/28",
            "1764151200", "2026-11-28T18:30:00.Z",
        ] {
            #expect(ISO8601Date(text) == nil, "\(text)")
        }
    }

    /// `--stale-date` and `--dismissal-date` take a date-time with a zone; one without is refused with the
    /// reason, and a negative duration says that durations count forward.
    @Test func theDateFlagsTakeZonedDateTimesAndNoNegativeDurations() throws {
        let syntax = TimeValue.Syntax(allowsNow: true, zeroMeaning: "the epoch: already past", allowsDate: true)
        func parse(_ text: String) throws(TimeValue.Problem) -> Int64 {
            try TimeValue.parse(text, now: 100, as: syntax)
        }
        #expect(try parse("2026-11-28T19:30:00+01:00") == Self.evening)
        #expect(try parse("15m") == 1000)
        #expect(throws: TimeValue.Problem.dateWithoutZone("2026-11-28T18:30", syntax)) { try parse("2026-11-28T18:30") }
        #expect(throws: TimeValue.Problem.negativeDuration("-5m", syntax)) { try parse("-5m") }
        #expect(
            TimeValue.Problem.negativeDuration("-5m", syntax).message
                == "-5m: a duration counts forward from now and cannot be negative; for a time already past give now"
        )
        // A syntax without dates takes none, and without `now` its past is 0.
        let noDates = TimeValue.Syntax(allowsNow: false, zeroMeaning: "deliver once, never store")
        #expect(throws: TimeValue.Problem.self) { try TimeValue.parse("2026-11-28T18:30:00Z", now: 100, as: noDates) }
        do {
            _ = try TimeValue.parse("-1h", now: 100, as: noDates)
            Issue.record("-1h was taken")
        } catch {
            #expect(
                error.message
                    == "-1h: a duration counts forward from now and cannot be negative; for a time already past give 0 (deliver once, never store)"
            )
        }
    }

    @Test func theTimestampFlagTakesAZonedDateTime() throws {
        var flags = PayloadFlags()
        flags.liveActivity = .update
        flags.contentState = FlagJSON(field: .contentState, bytes: Array("{}".utf8))
        flags.timestamp = "2026-11-28T18:30:00Z"
        let body = try PayloadBuilder.build(flags, base: nil, now: 1)
        #expect(String(decoding: body, as: UTF8.self).contains(#""timestamp":\#(Self.evening),"#))
        flags.timestamp = "2026-11-28T18:30:00"
        #expect(throws: PayloadFlagProblem.badTimestamp("2026-11-28T18:30:00")) {
            try PayloadBuilder.build(flags, base: nil, now: 1)
        }
        flags.timestamp = nil
        flags.staleDate = "2026-11-28T18:30:00Z"
        let stale = try PayloadBuilder.build(flags, base: nil, now: 1)
        #expect(String(decoding: stale, as: UTF8.self).hasSuffix(#""stale-date":\#(Self.evening)}}"#))
    }
}
