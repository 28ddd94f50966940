import Testing

@testable import APNSCore

/// The Live Activity time traps: a timestamp far from now, and UNIX times where a Swift `Date` wants seconds since 2001.
@Suite struct LiveActivityTimeRuleTests {
    static let now: Int64 = 1_764_151_200

    func la(_ aps: String, now: Int64? = now) -> ValidationReport {
        var options = ValidationOptions(pushType: .liveactivity)
        options.now = now
        return check(#"{"aps":{"event":"update","content-state":{},"# + aps + "}}", options)
    }

    @Test func timestampWithinAnHourIsQuiet() {
        #expect(la(#""timestamp":1764150000"#).problems.isEmpty)
        #expect(la(#""timestamp":1764154700"#).problems.isEmpty)
    }

    @Test func timestampFarFromNowIsAWarning() {
        let old = la(#""timestamp":1762167000"#)
        #expect(
            old.hasWarning(
                "aps.timestamp",
                "timestamp 1762167000 (2025-11-03T10:50:00Z) is 22 days before now; the device ignores an update older than the last one it got"
            ))
        #expect(!old.hasErrors)
        #expect(la(#""timestamp":1764240000"#).hasWarning("aps.timestamp", "is 24 hours after now"))
        // Without a clock (validate of a file kept for later) the rule does not run.
        #expect(la(#""timestamp":1762167000"#, now: nil).problems.isEmpty)
    }

    /// A saved end sent again with a fresh timestamp keeps its old dismissal-date: removed on arrival, said. One at
    /// the timestamp (`--dismissal-date now` beside `--timestamp now`) or later is quiet.
    @Test func aDismissalDateBeforeTheTimestampIsAWarning() {
        func end(_ aps: String) -> ValidationReport {
            var options = ValidationOptions(pushType: .liveactivity)
            options.now = Self.now
            return check(#"{"aps":{"event":"end","content-state":{},"# + aps + "}}", options)
        }
        let old = end(#""timestamp":1764151200,"dismissal-date":1762173600"#)
        #expect(
            old.hasWarning(
                "aps.dismissal-date",
                "dismissal-date 1762173600 (2025-11-03T12:40:00Z) is 22 days before the timestamp, so the activity is removed the moment the end arrives; set a later dismissal-date"
            ), "\(old.listing)")
        #expect(end(#""timestamp":1764151200,"dismissal-date":1764151200"#).at("aps.dismissal-date").isEmpty)
        // A Date's seconds since 2001 (a 1995 date as UNIX seconds) is said; a tiny "past = now" is not.
        #expect(
            end(#""timestamp":1764151200,"dismissal-date":785847600"#).hasWarning(
                "aps.dismissal-date", "before the timestamp"))
        #expect(end(#""timestamp":1764151200,"dismissal-date":1"#).at("aps.dismissal-date").isEmpty)
        #expect(end(#""timestamp":1764151200,"dismissal-date":1764154800"#).at("aps.dismissal-date").isEmpty)
    }

    /// A stale-date before the push's timestamp (a saved update sent again with a fresh one), or before now: the
    /// activity is stale the moment it arrives. Later ones are quiet; without a clock only the first is known.
    @Test func aStaleDateAlreadyPastIsAWarning() {
        let stale = "the activity shows as stale the moment it arrives; set a later stale-date, or remove it"
        let beforeTimestamp = la(#""timestamp":1764151200,"stale-date":1764150000"#)
        #expect(
            beforeTimestamp.hasWarning(
                "aps.stale-date", "stale-date 1764150000 (2025-11-26T09:40:00Z) is before the timestamp; \(stale)"))
        let beforeNow = la(#""timestamp":1764151200,"stale-date":1762170600"#, now: 1_764_151_200 + 60)
        #expect(beforeNow.hasWarning("aps.stale-date", "is before the timestamp"))
        let pastOnly = la(#""stale-date":1762170600"#)
        #expect(
            pastOnly.hasWarning(
                "aps.stale-date", "stale-date 1762170600 (2025-11-03T11:50:00Z) is 22 days before now; \(stale)"))
        #expect(la(#""timestamp":1764151200,"stale-date":1764154800"#).at("aps.stale-date").isEmpty)
        // After the timestamp but already past: said against now, under a minute as such.
        let lapsed = la(#""timestamp":1764147600,"stale-date":1764149400"#)
        #expect(
            lapsed.hasWarning("aps.stale-date", "stale-date 1764149400 (2025-11-26T09:30:00Z) is 30 minutes before now")
        )
        #expect(
            la(#""timestamp":1764151140,"stale-date":1764151170"#).hasWarning(
                "aps.stale-date", "is less than a minute before now"))
        // A timestamp a little ahead of the clock, and a stale-date between now and it: not stale on arrival.
        #expect(la(#""timestamp":1764151500,"stale-date":1764151320"#).at("aps.stale-date").isEmpty)
        #expect(la(#""stale-date":1762170600"#, now: nil).at("aps.stale-date").isEmpty)
        #expect(!beforeTimestamp.hasErrors)
        // 0 is a date too, the earliest.
        #expect(
            la(#""timestamp":1764151200,"stale-date":0"#).hasWarning(
                "aps.stale-date", "stale-date 0 (1970-01-01T00:00:00Z) is before the timestamp; \(stale)"))
    }

    @Test func millisecondsAreReportedOnce() {
        let r = la(#""timestamp":1764151200000"#)
        #expect(r.at("aps.timestamp").count == 1)
        #expect(r.hasWarning("aps.timestamp", "looks like milliseconds"))
    }

    @Test func strictMakesTheWarningAnError() {
        var options = ValidationOptions(pushType: .liveactivity, strict: true)
        options.now = Self.now
        #expect(
            check(#"{"aps":{"event":"update","content-state":{},"timestamp":1}}"#, options).hasError(
                "aps.timestamp", "before now"))
    }

    @Test func unixTimeInContentStateIsTheDateTrap() {
        let r = check(
            #"{"aps":{"event":"update","timestamp":1764151200,"content-state":{"eta":1764151200,"count":3,"legs":[{"at":1764151200000}]}}}"#,
            type(.liveactivity))
        #expect(
            r.hasWarning(
                "aps.content-state.eta",
                "1764151200 looks like a UNIX time; ActivityKit decodes a Swift Date as seconds since 2001-01-01, so a Date field would show 2056-11-26T10:00:00Z: if eta is a Date, send 785844000 (UNIX seconds − 978307200)"
            ))
        #expect(r.hasWarning("aps.content-state.legs[0].at", "looks like a UNIX time in milliseconds"))
        #expect(r.hasWarning("aps.content-state.legs[0].at", "send 785844000"))
        #expect(r.at("aps.content-state.count").isEmpty)
        #expect(!r.hasErrors)
    }

    @Test func secondsSince2001AreQuiet() {
        #expect(
            check(
                #"{"aps":{"event":"update","timestamp":1764151200,"content-state":{"eta":785844000}}}"#,
                type(.liveactivity)
            ).problems.isEmpty)
    }

    @Test func contentChangedOnlyIsCheckedAsWidgetsWithAWarning() {
        let r = check(#"{"aps":{"content-changed":true}}"#)
        #expect(r.pushType == .widgets)
        #expect(r.hasWarning("(root)", "cannot be inferred; checked as widgets"))
        #expect(
            check(#"{"aps":{"content-changed":true}}"#, ValidationOptions(topic: "com.example.app.push-type.controls"))
                .problems.isEmpty)
        #expect(check(#"{"aps":{"content-changed":true}}"#, type(.controls)).problems.isEmpty)
        // Of another value: that payload written wrong, told to write true and not also to remove the key.
        let one = check(#"{"aps":{"content-changed":1}}"#)
        #expect(one.pushType == .widgets)
        #expect(one.hasError("aps.content-changed", "content-changed must be true, found number 1"))
        #expect(!one.problems.contains { $0.message.contains("has no effect") }, "\(one.problems)")
    }
}
