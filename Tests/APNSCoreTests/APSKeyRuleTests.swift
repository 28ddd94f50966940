import Testing

@testable import APNSCore

/// Type and value rules of each known `aps` key: a passing and a failing case for each.
@Suite struct APSKeyRuleTests {
    /// `{"aps":{"alert":"x", KEY: VALUE}}` judged as an alert push.
    func withAlert(_ key: String, _ value: String, _ options: ValidationOptions = ValidationOptions(pushType: .alert))
        -> ValidationReport
    {
        check("{\"aps\":{\"alert\":\"x\",\"\(key)\":\(value)}}", options)
    }

    @Test(arguments: ["0", "1", "99", "-0"])
    func badgeAcceptsNonNegativeIntegers(value: String) {
        let r = withAlert("badge", value)
        #expect(r.problems.isEmpty, "\(r.listing)")
    }

    @Test(arguments: [
        ("\"5\"", "badge must be a non-negative integer, found string \"5\"; write 5 without quotes"),
        ("-1", "badge must be a non-negative integer, found number -1; use 0 to remove the badge"),
        ("1.5", "badge must be a non-negative integer, found number 1.5; use a whole number such as 1"),
        ("1.0", "badge must be a non-negative integer, found number 1.0; use a whole number such as 1"),
        (
            "true",
            "badge must be a non-negative integer, found boolean true; use a count such as 1, or 0 to remove the badge"
        ),
        ("null", "badge must be a non-negative integer, found null; use a count such as 1, or 0 to remove the badge"),
        ("99999999999999999999", "badge 99999999999999999999 is too large; use a count the app can show"),
        ("1e400", "badge must be a non-negative integer, found number 1e400; use a whole number"),
    ])
    func badgeRejects(value: String, message: String) {
        let r = withAlert("badge", value)
        #expect(r.at("aps.badge").map(\.message) == [message])
        #expect(r.hasErrors)
    }

    @Test func badgePointsAtTheValue() throws {
        let r = check("{\n  \"aps\": {\n    \"badge\": \"5\"\n  }\n}")
        let p = try #require(r.at("aps.badge").first)
        #expect(p.line == 3 && p.column == 14, "CLI.md's example position")
    }

    @Test(arguments: ["content-available", "mutable-content"])
    func flagsWantTheNumberOne(key: String) {
        #expect(withAlert(key, "1").problems.isEmpty)
        #expect(withAlert(key, "0").hasWarning("aps.\(key)", "\(key) 0 has no effect; use 1 or remove the key"))
        #expect(!withAlert(key, "0").hasErrors)
        for (value, fix) in [
            ("true", "; write 1"), ("\"1\"", "; write 1"), ("1.0", "; write 1"), ("2", "; use 1 or remove the key"),
            ("false", "; use 1 or remove the key"),
        ] {
            let r = withAlert(key, value)
            #expect(
                r.hasError("aps.\(key)", "\(key) must be the number 1, found ") && r.hasError("aps.\(key)", fix),
                "\(value): \(r.listing)")
        }
    }

    @Test(arguments: ["thread-id", "category", "target-content-id", "filter-criteria"])
    func stringKeys(key: String) {
        #expect(withAlert(key, "\"x\"").problems.isEmpty)
        #expect(withAlert(key, "5").hasError("aps.\(key)", "\(key) must be a string, found number 5; put it in quotes"))
        #expect(withAlert(key, "[]").hasError("aps.\(key)", "\(key) must be a string, found array"))
    }

    @Test(arguments: ["passive", "active", "time-sensitive", "critical"])
    func interruptionLevelAcceptsTheFourLevels(level: String) {
        #expect(withAlert("interruption-level", "\"\(level)\"").problems.isEmpty)
    }

    @Test func interruptionLevelRejectsOthersWithSuggestion() {
        let r = withAlert("interruption-level", "\"timeSensitive\"")
        #expect(
            r.at("aps.interruption-level").map(\.message) == [
                "interruption-level must be one of passive, active, time-sensitive, critical, found string \"timeSensitive\"; did you mean \"time-sensitive\"?"
            ])
        #expect(
            withAlert("interruption-level", "\"urgent\"").hasError("aps.interruption-level", "found string \"urgent\""))
        #expect(withAlert("interruption-level", "1").hasError("aps.interruption-level", "found number 1"))
    }

    @Test func relevanceScoreIsZeroToOneForAlerts() {
        for ok in ["0", "1", "0.5", "1.0", "1e-1"] {
            #expect(withAlert("relevance-score", ok).problems.isEmpty, "\(ok)")
        }
        #expect(
            withAlert("relevance-score", "1.01").hasError(
                "aps.relevance-score", "relevance-score must be between 0 and 1 for alert pushes, found 1.01"))
        #expect(withAlert("relevance-score", "-0.1").hasError("aps.relevance-score", "between 0 and 1"))
        #expect(
            withAlert("relevance-score", "\"0.5\"").hasError(
                "aps.relevance-score", "relevance-score must be a number, found string \"0.5\"; remove the quotes"))
        let la = "{\"aps\":{\"event\":\"update\",\"timestamp\":1,\"content-state\":{},\"relevance-score\":75}}"
        #expect(check(la, type(.liveactivity)).problems.isEmpty, "Live Activities take any number")
    }

    @Test func urlArgsIsAnArrayOfStrings() {
        #expect(withAlert("url-args", "[\"a\",\"b\"]").problems.isEmpty)
        #expect(
            withAlert("url-args", "\"a\"").hasError(
                "aps.url-args", "url-args must be an array of strings, found string \"a\"; wrap it: [\"a\"]"))
        #expect(
            withAlert("url-args", "[\"a\",1]").hasError(
                "aps.url-args[1]", "every element must be a string, found number 1"))
    }

    @Test func unknownKeysWarnWithSuggestion() {
        let r = withAlert("bagde", "1")
        #expect(
            r.at("aps.bagde").map(\.message) == [
                "unknown aps key \"bagde\" is ignored by APNs; did you mean \"badge\"?"
            ])
        #expect(r.at("aps.bagde").first?.severity == .warning)
        #expect(
            withAlert("contentAvailable", "1").hasWarning("aps.contentAvailable", "did you mean \"content-available\"?")
        )
        #expect(
            withAlert("userId", "7").hasWarning(
                "aps.userId",
                "unknown aps key \"userId\" is ignored by APNs; put custom data beside \"aps\", at the top level"))
        #expect(!r.hasErrors)
        // An alert's or a critical sound's key one level too high is told where it belongs, not to move it to the
        // top level (where it shows nothing either).
        #expect(
            withAlert("title", "\"T\"").hasWarning(
                "aps.title",
                "unknown aps key \"title\" is ignored by APNs; it belongs in aps.alert: {\"aps\":{\"alert\":{\"title\":…}}}"
            ))
        #expect(withAlert("loc-key", "\"K\"").hasWarning("aps.loc-key", "it belongs in aps.alert"))
        #expect(withAlert("volume", "1").hasWarning("aps.volume", "it belongs in aps.sound, a critical alert's sound"))
        #expect(
            withAlert("Title", "\"T\"").hasWarning(
                "aps.Title", "it belongs in aps.alert: {\"aps\":{\"alert\":{\"title\":…}}}"))
    }

    @Test func keysForOtherPushTypesWarn() {
        #expect(
            withAlert("event", "\"update\"").hasWarning(
                "aps.event",
                "event has no effect on alert pushes; it is a Live Activity key: send with apns-push-type liveactivity")
        )
        #expect(
            withAlert("content-changed", "true").hasWarning(
                "aps.content-changed",
                "content-changed has no effect on alert pushes; it is for controls and widgets pushes"))
        let la = check(
            "{\"aps\":{\"event\":\"update\",\"timestamp\":1,\"content-state\":{},\"badge\":1,\"sound\":\"a\"}}",
            type(.liveactivity))
        #expect(
            la.hasWarning("aps.badge", "badge has no effect on liveactivity pushes; it is for alert pushes: remove it"))
        #expect(la.hasWarning("aps.sound", "a Live Activity plays the sound named in aps.alert.sound"))
        let voip = check("{\"aps\":{\"badge\":1,\"event\":\"x\"}}", type(.voip))
        #expect(voip.at("aps.badge").isEmpty, "app-defined payloads may carry what they like")
        #expect(voip.hasWarning("aps.event", "Live Activity key"))
    }

    @Test func liveActivityValueTypes() {
        let base = "\"event\":\"update\",\"timestamp\":1700000000,\"content-state\":{}"
        func la(_ extra: String) -> ValidationReport { check("{\"aps\":{\(base),\(extra)}}", type(.liveactivity)) }
        #expect(la("\"stale-date\":1700003600").problems.isEmpty)
        #expect(
            la("\"stale-date\":\"soon\"").hasError(
                "aps.stale-date", "stale-date must be a number of UNIX seconds, found string \"soon\""))
        #expect(
            la("\"stale-date\":1700003600000").hasWarning(
                "aps.stale-date", "looks like milliseconds; APNs wants UNIX seconds: divide by 1000"))
        // Far above milliseconds, dividing by 1000 would mend nothing.
        for huge in ["1e30", "99999999999999999999999999"] {
            let report = la("\"stale-date\":\(huge)")
            #expect(
                report.hasWarning(
                    "aps.stale-date",
                    "is no time (too large for seconds or milliseconds); APNs wants UNIX seconds (date +%s gives now)"),
                "\(huge)")
            #expect(!report.hasWarning("aps.stale-date", "divide by 1000"), "\(huge)")
        }
        #expect(
            check("{\"aps\":{\"event\":\"update\",\"timestamp\":\"1\",\"content-state\":{}}}", type(.liveactivity))
                .hasError(
                    "aps.timestamp", "timestamp must be a number of UNIX seconds, found string \"1\"; remove the quotes"
                ))
        #expect(
            check("{\"aps\":{\"event\":\"begin\",\"timestamp\":1,\"content-state\":{}}}", type(.liveactivity))
                .hasError("aps.event", "event must be one of start, update, end, found string \"begin\""))
        #expect(
            check("{\"aps\":{\"event\":\"update\",\"timestamp\":1,\"content-state\":[]}}", type(.liveactivity))
                .hasError("aps.content-state", "content-state must be an object, found array"))
        #expect(la("\"input-push-channel\":5").hasError("aps.input-push-channel", "must be a string"))
    }
}
