import Testing

@testable import APNSCore

/// The date rules of a Live Activity push about to be sent, and ISO 8601 strings in `content-state`.
@Suite struct LiveActivityDateRuleTests {
    static let now: Int64 = 1_764_151_200

    func la(_ aps: String, sending: Bool, now: Int64? = now) -> ValidationReport {
        var options = ValidationOptions(pushType: .liveactivity)
        options.now = now
        options.sending = sending
        return check(#"{"aps":{"event":"update","content-state":{},"# + aps + "}}", options)
    }

    /// iOS keeps the highest timestamp it has seen: one in milliseconds, or more than 10 minutes ahead, would
    /// make it drop every later update, so `send` refuses it; `validate` (a file kept for later) warns.
    @Test func aTimestampThatWouldBlockLaterUpdatesIsAnErrorWhenSending() {
        let millis = la(#""timestamp":1764151200000"#, sending: true)
        #expect(
            millis.hasError(
                "aps.timestamp",
                "timestamp 1764151200000 looks like milliseconds; iOS keeps the highest timestamp it has seen, so every later update with a timestamp in seconds would be dropped: set aps.timestamp to the current UNIX time"
            ))
        #expect(millis.at("aps.timestamp").count == 1)
        #expect(
            la(#""timestamp":1764151200000"#, sending: false).hasWarning("aps.timestamp", "looks like milliseconds"))
        #expect(!la(#""timestamp":1764151200000"#, sending: false).hasErrors)

        let ahead = la(#""timestamp":1764151860"#, sending: true)
        #expect(
            ahead.hasError(
                "aps.timestamp",
                "timestamp 1764151860 (2025-11-26T10:11:00Z) is 11 minutes after now; iOS keeps the highest timestamp it has seen, so every later update with a normal timestamp would be dropped: refresh it (set aps.timestamp to the current UNIX time)"
            ))
        #expect(la(#""timestamp":1764151740"#, sending: true).problems.isEmpty)  // 9 minutes: clocks differ
        #expect(la(#""timestamp":1764151860"#, sending: false).problems.isEmpty)
        // Hours ahead outside send is the warning, with the same (corrected) consequence.
        let later = la(#""timestamp":1764240000"#, sending: false)
        #expect(!later.hasErrors)
        #expect(later.hasWarning("aps.timestamp", "is 24 hours after now; iOS keeps the highest timestamp it has seen"))
        // An old timestamp stays a warning when sending: the device drops that one update, not the later ones.
        let old = la(#""timestamp":1762167000"#, sending: true)
        #expect(!old.hasErrors)
        #expect(old.hasWarning("aps.timestamp", "is 22 days before now; the device ignores an update older"))
    }

    /// A stale or dismissal date in milliseconds is not a timestamp: it stays a warning when sending.
    @Test func otherDatesInMillisecondsStayWarnings() {
        let r = la(#""timestamp":1764151200,"stale-date":1764151200000"#, sending: true)
        #expect(!r.hasErrors)
        #expect(r.hasWarning("aps.stale-date", "looks like milliseconds"))
    }

    @Test func isoStringsInContentStateAreTheDecodingTrap() {
        let r = check(
            #"{"aps":{"event":"update","timestamp":1764151200,"content-state":{"eta":"2026-11-28T18:30:00Z","note":"see 2026-11-28","legs":[{},{"at":"2026-11-28T19:30:00+01:00"}],"day":"2026-11-28"}}}"#,
            type(.liveactivity))
        #expect(
            r.hasWarning(
                "aps.content-state.eta",
                "\"2026-11-28T18:30:00Z\" is an ISO 8601 date; JSONDecoder's default strategy decodes a Swift Date only from a number (seconds since 2001-01-01), so if eta is a Date the update fails on the device without a word: send 817583400 (UNIX seconds − 978307200), unless the app decodes dates with .iso8601"
            ))
        // Nested, after an empty object in an array, and a date without a time.
        #expect(r.hasWarning("aps.content-state.legs[1].at", "send 817583400 (UNIX"))
        #expect(r.hasWarning("aps.content-state.day", "if day is a Date the update fails"))
        #expect(r.at("aps.content-state.note").isEmpty)
        #expect(!r.hasErrors)
        // A time without a zone is read as UTC, and the warning says so.
        let local = check(
            #"{"aps":{"event":"update","timestamp":1764151200,"content-state":{"eta":"2026-11-28T18:30:00"}}}"#,
            type(.liveactivity))
        #expect(local.hasWarning("aps.content-state.eta", "send 817583400, reading it as UTC (UNIX"))
        // `.iso8601` reads only a date, T, a time to the second and a zone: for other forms the warning does not
        // offer it as a way out.
        #expect(r.hasWarning("aps.content-state.day", ".iso8601 does not read this form either"))
        #expect(local.hasWarning("aps.content-state.eta", ".iso8601 does not read this form either"))
        let fraction = check(
            #"{"aps":{"event":"update","timestamp":1764151200,"content-state":{"eta":"2026-11-28T18:30:00.000Z"}}}"#,
            type(.liveactivity))
        #expect(fraction.hasWarning("aps.content-state.eta", "on a system that reads fractional seconds"))
        for form in ["2026-11-28T18:30Z", "2026-11-28T18:30:00,5Z", "2026-11-28 18:30:00Z"] {
            let r = check(
                #"{"aps":{"event":"update","timestamp":1764151200,"content-state":{"eta":""# + form + #""}}}"#,
                type(.liveactivity))
            #expect(r.hasWarning("aps.content-state.eta", ".iso8601 does not read this form either"), "\(form)")
        }
        #expect(r.hasWarning("aps.content-state.legs[1].at", "unless the app decodes dates with .iso8601"))
        // Keys are names, not values.
        #expect(
            check(
                #"{"aps":{"event":"update","timestamp":1764151200,"content-state":{"2026-11-28T18:30:00Z":1}}}"#,
                type(.liveactivity)
            ).problems.isEmpty)
    }
}
