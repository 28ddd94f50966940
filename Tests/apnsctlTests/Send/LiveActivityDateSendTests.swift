import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// `send`'s Live Activity dates and messages, planned in-process with a fixed clock (`--dry-run`: every rule runs
/// before the network): timestamps that would block later updates, ISO 8601 dates in the flags and in
/// `content-state`, negative durations, problems of a flag-built payload named by flag, and a saved Live
/// Activity file sent to the bare bundle id.
@Suite struct LiveActivityDateSendTests {
    /// The test world's clock: 2027-01-15T08:00:00Z.
    static let now: Int64 = 1_800_000_000
    static let device = String(repeating: "3f2a", count: 16)

    /// `send --dry-run ARGS` with token auth and the fixed clock: status, stdout, stderr lines. `files` are
    /// written to a temporary directory, and an argument naming one is its path there (`{dir}` in messages).
    /// `variables`: the environment's (`{dir}` in a value is that directory).
    func send(_ args: [String], files: [String: String] = [:], variables: [String: String] = [:]) throws -> (
        Int32, String, [String]
    ) {
        let dir = try TemporaryDirectory(prefix: "la-dates")
        let key = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM)
        for (name, text) in files { _ = try dir.write(name, text) }
        let t = TestWorld(
            variables: variables.mapValues { $0.replacingOccurrences(of: "{dir}", with: dir.path) }, home: dir.path,
            now: Self.now)
        let status = t.run(
            ["send", "--dry-run", "--auth-key", key, "--team-id", "TEAM123456", "-d", Self.device]
                + args.map { files[$0] == nil ? $0 : dir.file($0) })
        return (status, t.stdout.text, t.stderr.lines.map { $0.replacingOccurrences(of: dir.path, with: "{dir}") })
    }

    static let update = ["--live-activity", "update", "--content-state", #"{"eta":1}"#, "--topic", "com.example.app"]

    @Test func aTimestampInMillisecondsOrTooFarAheadIsRefused() throws {
        let (ms, msOut, msErr) = try send(Self.update + ["--timestamp", "1800000000000"])
        #expect(ms == 65)
        #expect(msOut.isEmpty)
        #expect(
            msErr.first
                == "error: --timestamp: timestamp 1800000000000 looks like milliseconds; iOS keeps the highest timestamp it has seen, so every later update with a timestamp in seconds would be dropped: send it with --timestamp now"
        )
        let (ahead, _, aheadErr) = try send(Self.update + ["--timestamp", "1800003600"])
        #expect(ahead == 65)
        #expect(
            aheadErr.first
                == "error: --timestamp: timestamp 1800003600 (2027-01-15T09:00:00Z) is 60 minutes after now; iOS keeps the highest timestamp it has seen, so every later update with a normal timestamp would be dropped: refresh it (send it with --timestamp now)"
        )
        // Five minutes ahead is a clock difference, not a mistake.
        let (near, nearOut, nearErr) = try send(Self.update + ["--timestamp", "1800000300"])
        #expect(near == 0, "\(nearErr)")
        #expect(nearOut.contains(#""timestamp":1800000300,"#))
    }

    /// `validate` checks files kept for later: there a timestamp in milliseconds stays a warning (exit 0).
    @Test func validateOnlyWarnsAboutATimestampInMilliseconds() throws {
        let dir = try TemporaryDirectory(prefix: "la-dates-ms")
        let file = try dir.write(
            "ms.json", #"{"aps":{"event":"update","timestamp":1800000000000,"content-state":{}}}"# + "\n")
        let t = TestWorld(home: dir.path, now: Self.now)
        #expect(t.run(["validate", file]) == 0)
        #expect(
            t.stdout.lines == [
                "\(file):1:38: warning: aps.timestamp: timestamp 1800000000000 looks like milliseconds; APNs wants UNIX seconds: divide by 1000"
            ])
    }

    /// A saved file carries its timestamp: the same rule, at its line and column.
    @Test func aSavedFileWithAFutureTimestampIsRefused() throws {
        let (status, _, err) = try send(
            ["late.json", "--topic", "com.example.app.push-type.liveactivity"],
            files: ["late.json": #"{"aps":{"event":"end","timestamp":1800086400,"content-state":{}}}"# + "\n"])
        #expect(status == 65)
        #expect(
            err.first?.hasPrefix("error: {dir}/late.json:1:35: aps.timestamp: timestamp 1800086400") == true, "\(err)")
    }

    @Test func theDateFlagsTakeISO8601() throws {
        let (status, out, err) = try send(
            Self.update + [
                "--timestamp", "2027-01-15T09:00:00+01:00", "--stale-date", "2027-01-15T08:30:00Z",
            ])
        #expect(status == 0, "\(err)")
        #expect(out.contains(#""timestamp":1800000000,"content-state":{"eta":1},"stale-date":1800001800}}"#), "\(out)")
        let (end, endOut, endErr) = try send([
            "--live-activity", "end", "--content-state", "{}", "--dismissal-date", "2027-01-15T12:00:00-05:00",
            "--topic", "com.example.app",
        ])
        #expect(end == 0, "\(endErr)")
        #expect(endOut.contains(#""dismissal-date":1800032400}}"#), "\(endOut)")
        let (local, _, localErr) = try send(Self.update + ["--stale-date", "2027-01-15T08:30"])
        #expect(local == 64)
        #expect(
            localErr.first?.hasPrefix(
                "error: --stale-date 2027-01-15T08:30: which instant is unclear; give a date-time with Z or an offset")
                == true, "\(localErr)")
    }

    /// `--dismissal-date -5m`: the parser takes -5m for a flag; the message says what durations are, as for
    /// the `=` form that reaches apnsctl's own parser.
    @Test func aNegativeDurationSaysDurationsCountForward() throws {
        let expected =
            "error: --dismissal-date -5m: a duration counts forward from now and cannot be negative; for a time already past give now"
        for form in [["--dismissal-date", "-5m"], ["--dismissal-date=-5m"]] {
            let (status, _, err) = try send(
                ["--live-activity", "end", "--content-state", "{}", "--topic", "com.example.app"] + form)
            #expect(status == 64, "\(form): \(err)")
            #expect(err.first == expected, "\(form): \(err)")
            #expect(!err.joined().contains("Missing value"), "\(form): \(err)")
        }
        let (score, _, scoreErr) = try send(Self.update + ["--relevance-score", "-1"])
        #expect(score == 64)
        #expect(
            scoreErr.first
                == "error: --relevance-score -1: a value starting with - reads as a flag; write --relevance-score=-1")
        let (expiration, _, expirationErr) = try send(Self.update + ["--expiration", "-1h"])
        #expect(expiration == 64)
        #expect(
            expirationErr.first
                == "error: --expiration -1h: a duration counts forward from now and cannot be negative; for a time already past give 0 (deliver once, never store)"
        )
    }

    /// `--expiration` takes the WHENs `--stale-date` takes but `now` (an ISO 8601 date-time with a zone too, one
    /// concept read one way), and a bad one is named once: the settings' message shows the value, so the time's
    /// own words come without it (before: `--expiration abc: abc: not a time`).
    @Test func theExpirationTakesADateAndABadOneIsNamedOnce() throws {
        let alert = ["--alert", "hi", "--topic", "com.example.app"]
        for (when, header) in [("2027-01-16T08:00:00Z", 1_800_086_400), ("2027-01-16T09:00:00+01:00", 1_800_086_400)] {
            let (status, out, err) = try send(alert + ["--expiration", when])
            #expect(status == 0, "\(when): \(err)")
            #expect(out.contains("apns-expiration: \(header)"), "\(when): \(out)")
        }
        let (plain, _, plainErr) = try send(alert + ["--expiration", "2027-01-16"])
        #expect(plain == 64)
        // Its advice once: the date forms, without the syntax's whole help after them (which named them again).
        #expect(
            plainErr.first
                == "error: --expiration 2027-01-16: which instant is unclear; give a date-time with Z or an offset, such as 2026-11-28T18:30:00Z or 2026-11-28T19:30:00+01:00",
            "\(plainErr)")
        // No header carries a time before 1970 (it would go out negative); nor does a stale date.
        for flag in ["--expiration", "--stale-date"] {
            let args = flag == "--expiration" ? alert : Self.update
            let (early, _, earlyErr) = try send(args + [flag, "1969-12-31T23:00:00Z"])
            #expect(early == 64, "\(flag): \(earlyErr)")
            #expect(
                earlyErr.first?.hasPrefix("error: \(flag) 1969-12-31T23:00:00Z: a date before 1970, ") == true,
                "\(earlyErr)")
        }
        // An unquoted date-time in the settings file is TOML's own type, and taken as the quoted one is.
        let (profiled, profiledOut, profiledErr) = try send(
            alert + ["-p", "dev"], files: ["config.toml": "[profiles.dev]\nexpiration = 2027-01-16T08:00:00Z\n"],
            variables: ["APNSCTL_CONFIG": "{dir}/config.toml"])
        #expect(profiled == 0, "\(profiledErr)")
        #expect(profiledOut.contains("apns-expiration: 1800086400"), "\(profiledOut)")
        // After a space, a value starting with - reaches the same words.
        let (dash, _, dashErr) = try send(alert + ["--expiration", "-1"])
        #expect(dash == 64)
        #expect(dashErr.first?.contains("an ISO 8601 date-time such as 2026-11-28T18:30:00Z") == true, "\(dashErr)")
        let help =
            "give 0 (deliver once, never store), a UNIX time in seconds, an ISO 8601 date-time such as 2026-11-28T18:30:00Z, or a duration such as 30m, 1h, 2d"
        for (args, variables, shown) in [
            (["--expiration", "abc"], [:], "--expiration abc"), (["--expiration=-1h"], [:], "--expiration -1h"),
            ([], ["APNSCTL_EXPIRATION": "abc"], "APNSCTL_EXPIRATION=abc"),
        ] as [([String], [String: String], String)] {
            let (status, _, err) = try send(alert + args, variables: variables)
            #expect(status == 64, "\(shown): \(err)")
            let reason =
                shown.hasSuffix("-1h")
                ? "a duration counts forward from now and cannot be negative; for a time already past give 0 (deliver once, never store)"
                : "not a time; \(help)"
            #expect(err.first == "error: \(shown): \(reason)", "\(err)")
        }
    }

    @Test func anISODateInContentStateIsAWarningInSendAndValidate() throws {
        let state = #"{"legs":[{"eta":"2027-01-15T09:00:00Z"}]}"#
        let (status, _, err) = try send([
            "--live-activity", "update", "--content-state", state, "--topic", "com.example.app",
        ])
        #expect(status == 0, "\(err)")
        #expect(
            err == [
                "warning: --content-state: legs[0].eta: \"2027-01-15T09:00:00Z\" is an ISO 8601 date; JSONDecoder's default strategy decodes a Swift Date only from a number (seconds since 2001-01-01), so if eta is a Date the update fails on the device without a word: send 821696400 (UNIX seconds − 978307200), unless the app decodes dates with .iso8601"
            ])
        let dir = try TemporaryDirectory(prefix: "la-dates-validate")
        let file = try dir.write(
            "update.json", #"{"aps":{"event":"update","timestamp":1800000000,"content-state":\#(state)}}"# + "\n")
        let t = TestWorld(home: dir.path, now: Self.now)
        #expect(t.run(["validate", file]) == 0)
        #expect(
            t.stdout.text.hasPrefix(
                "\(file):1:81: warning: aps.content-state.legs[0].eta: \"2027-01-15T09:00:00Z\" is an ISO 8601 date;"),
            "\(t.stdout.text)")
    }

    /// A payload the flags built has no file: its problems name the flag, and a missing key the flag to add.
    @Test func problemsOfAFlagBuiltPayloadNameFlags() throws {
        let (status, _, err) = try send([
            "--live-activity", "start", "--content-state", "{}", "--topic", "com.example.app",
        ])
        #expect(status == 65)
        #expect(
            err == [
                "error: --live-activity start: a Live Activity start needs \"alert\" (shown when the activity starts); add --title TEXT and --alert TEXT",
                "error: --live-activity start: a Live Activity start needs \"attributes-type\" (your ActivityAttributes type name); add --attributes-type NAME",
                "error: --live-activity start: a Live Activity start needs \"attributes\" (the activity's static attributes); add --attributes JSON",
                "error: the payload built from --live-activity and --content-state is invalid (3 errors above); nothing was sent",
            ])
        // A problem of the whole payload names the flags that built it, never a line and column nobody wrote.
        let (large, _, tooLarge) = try send([
            "--alert", String(repeating: "x", count: 5000), "--title", "t", "--topic", "com.example.app",
        ])
        #expect(large == 65)
        #expect(
            tooLarge == [
                "error: the payload built from --alert and --title: payload is 5041 bytes, 945 over the 4096-byte limit for alert pushes (APNs answers 413 PayloadTooLarge); it is already compact: shorten it or move data out of the payload",
                "error: the payload built from --alert and --title is invalid (1 error above); nothing was sent",
            ])
        let (shown, _, nothing) = try send([
            "--content-available", "--push-type", "alert", "--topic", "com.example.app",
        ])
        #expect(shown == 0)
        #expect(
            nothing.first?.hasPrefix("warning: the payload built from --content-available: aps: an alert push") == true,
            "\(nothing)")
        let (warned, _, warning) = try send([
            "--live-activity", "update", "--content-state", "{}", "--dismissal-date", "1h", "--topic",
            "com.example.app",
        ])
        #expect(warned == 0)
        #expect(warning == ["warning: --dismissal-date: dismissal-date is used only when event is end; remove it"])
    }

    /// A saved Live Activity file to the bare bundle id: a topic error (65, as for any push type whose topic
    /// lacks its suffix) that names both fixes, not "the payload is invalid".
    @Test func aSavedLiveActivityFileToTheBareBundleIDIsATopicError() throws {
        let (status, out, err) = try send(
            ["update.json", "--topic", "com.example.app"],
            files: ["update.json": #"{"aps":{"event":"update","timestamp":1800000000,"content-state":{}}}"#])
        #expect(status == 65)
        #expect(out.isEmpty)
        #expect(
            err == [
                "error: --topic com.example.app: topic \"com.example.app\" lacks the \".push-type.liveactivity\" suffix that liveactivity pushes need; use --topic com.example.app.push-type.liveactivity, or send it with --live-activity update, which adds the suffix (and sets the timestamp to now)",
                "error: nothing was sent: fix --topic com.example.app as said above",
            ])
        let (fixed, _, fixedErr) = try send(
            ["update.json", "--topic", "com.example.app", "--live-activity", "update"],
            files: ["update.json": #"{"aps":{"event":"update","timestamp":1800000000,"content-state":{}}}"#])
        #expect(fixed == 0, "\(fixedErr)")
    }
}
