import APNSCore
import APNSTestSupport
import Testing

@testable import APNSCtlCommands

/// The quick payload flags as `send` runs them (CLI.md's flag table): the payload each builds and the headers
/// it gets, in a dry run; exit 64 beside a PAYLOAD that is not a Live Activity; `-v` saying why the push type
/// and priority are what they are.
@Suite struct QuickPayloadFlagTests {
    static let device = String(repeating: "3f2a", count: 16)

    /// `send --dry-run` in-process with token auth to `topic`: status, stdout, stderr.
    static func dryRun(_ arguments: [String], topic: String = "com.example.demo") throws -> (Int32, String, String) {
        let dir = try TemporaryDirectory(prefix: "quick-flags")
        let key = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM)
        let t = TestWorld(home: dir.path)
        let status = t.run(
            ["send", "--dry-run", "--auth-key", key, "--team-id", "TEAM123456", "--topic", topic, "-d", device]
                + arguments)
        return (status, t.stdout.text, t.stderr.text)
    }

    /// An alert sent to a `.voip` or `.voip-ptt` topic is warned about with what that type's app must do: a call
    /// report for VoIP only (push-to-talk got the VoIP words).
    @Test func anAlertOnACallTopicIsWarnedAboutByItsType() throws {
        let (voipStatus, _, voip) = try Self.dryRun(["--alert", "hi"], topic: "com.example.demo.voip")
        #expect(voipStatus == 0 && voip.contains("which the app must answer by reporting a call"), "\(voip)")
        let (pttStatus, _, ptt) = try Self.dryRun(["--alert", "hi"], topic: "com.example.demo.voip-ptt")
        #expect(pttStatus == 0, "\(ptt)")
        #expect(
            ptt.contains(
                "goes out as a pushtotalk push, which goes to the app's push-to-talk channel, not to the screen")
                && !ptt.contains("reporting a call"), "\(ptt)")
    }

    /// The value of header `name` in a dry run's request.
    static func header(_ name: String, in stdout: String) -> String? {
        stdout.split(separator: "\n").first { $0.hasPrefix("\(name): ") }.map { String($0.dropFirst(name.count + 2)) }
    }

    /// The body a dry run prints: the line after the headers' blank line.
    static func body(in stdout: String) -> String? {
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false)
        guard let blank = lines.firstIndex(of: "") else { return nil }
        return lines.dropFirst(blank + 1).first.map(String.init)
    }

    /// Each flag, the payload it builds, its push type and priority.
    static let flags: [([String], String, String, String)] = [
        (["--subtitle", "Sub"], #"{"aps":{"alert":{"subtitle":"Sub"}}}"#, "alert", "10"),
        (
            ["--title", "T", "--subtitle", "S", "--alert", "B"],
            #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B"}}}"#,
            "alert", "10"
        ),
        (["--alert", "Hi", "--category", "REPLY"], #"{"aps":{"alert":"Hi","category":"REPLY"}}"#, "alert", "10"),
        (["--alert", "Hi", "--thread-id", "chat-7"], #"{"aps":{"alert":"Hi","thread-id":"chat-7"}}"#, "alert", "10"),
        (["--alert", "Hi", "--mutable-content"], #"{"aps":{"alert":"Hi","mutable-content":1}}"#, "alert", "10"),
        (["--content-available"], #"{"aps":{"content-available":1}}"#, "background", "5"),
        (["--alert", "Hi", "--content-available"], #"{"aps":{"alert":"Hi","content-available":1}}"#, "alert", "10"),
        (["--push-type", "background"], #"{"aps":{"content-available":1}}"#, "background", "5"),
        (
            [
                "--alert", "B", "--badge", "2", "--sound", "default", "--thread-id", "t", "--category", "c",
                "--content-available", "--mutable-content",
            ],
            #"{"aps":{"alert":"B","badge":2,"sound":"default","thread-id":"t","category":"c","content-available":1,"mutable-content":1}}"#,
            "alert", "10"
        ),
    ]

    @Test(arguments: flags.indices)
    func eachFlagBuildsItsKeyAndHeaders(index: Int) throws {
        let (arguments, payload, pushType, priority) = Self.flags[index]
        let (status, out, err) = try Self.dryRun(arguments)
        #expect(status == 0, "\(arguments): \(err)")
        #expect(Self.body(in: out) == payload, "\(arguments)")
        #expect(Self.header("apns-push-type", in: out) == pushType, "\(arguments)")
        #expect(Self.header("apns-priority", in: out) == priority, "\(arguments)")
        #expect(Self.header("apns-topic", in: out) == "com.example.demo", "\(arguments)")
    }

    /// Beside a PAYLOAD that is not a Live Activity, each quick flag is exit 64, naming the flag and its key.
    @Test(
        arguments: [
            (["--subtitle", "S"], "--subtitle", "aps.alert.subtitle"),
            (["--category", "C"], "--category", "aps.category"),
            (["--thread-id", "T"], "--thread-id", "aps.thread-id"),
            (["--mutable-content"], "--mutable-content", "aps.mutable-content"),
            (["--content-available"], "--content-available", "aps.content-available"),
        ] as [([String], String, String)])
    func withAPayloadEachIs64(_ arguments: [String], _ flag: String, _ key: String) throws {
        let (status, out, err) = try Self.dryRun([#"{"aps":{"alert":"x"}}"#] + arguments)
        #expect(status == 64, "\(err)")
        #expect(
            err
                == "error: \(flag): the quick payload flags build a payload, but PAYLOAD (inline) was given too (and is not a Live Activity); set \(key) in the payload, or leave PAYLOAD out\n"
        )
        #expect(out.isEmpty)
    }

    /// A Live Activity carries none of them: exit 64 naming the flag, nothing printed.
    @Test(arguments: ["--subtitle=S", "--category=C", "--thread-id=T", "--mutable-content", "--content-available"])
    func aLiveActivityRefusesThem(_ flag: String) throws {
        let (status, out, err) = try Self.dryRun(["--live-activity", "update", "--content-state", "{}", flag])
        let name = String(flag.prefix { $0 != "=" })
        #expect(status == 64, "\(err)")
        #expect(err.hasPrefix("error: \(name): Live Activity pushes do not carry it"), "\(err)")
        #expect(out.isEmpty)
    }

    /// `-v` says where the push type and the priority came from, before anything is sent.
    static let reasons: [(String, [String], String, String)] = [
        (
            "com.example.demo", ["--content-available"], "* push type background (from --content-available)",
            "* priority 5 (background pushes must use 5)"
        ),
        (
            "com.example.demo", ["--alert", "Hi"], "* push type alert (the default for a quick payload)",
            "* priority 10 (the default for alert pushes)"
        ),
        (
            "com.example.demo", ["--push-type", "background", "--priority", "1"],
            "* push type background (from --push-type)", "* priority 1 (from --priority)"
        ),
        (
            "com.example.demo", [#"{"aps":{"content-available":1}}"#],
            "* push type background (aps holds only content-available: 1)",
            "* priority 5 (background pushes must use 5)"
        ),
        (
            "com.example.demo", [#"{"aps":{"alert":"x"}}"#],
            "* push type alert (the default: the payload is no other type's)",
            "* priority 10 (the default for alert pushes)"
        ),
        (
            "com.example.demo.voip", [#"{"aps":{}}"#], "* push type voip (from the topic's suffix .voip)",
            "* priority 10 (the default for voip pushes)"
        ),
        (
            "com.example.demo", ["--live-activity", "end", "--content-state", "{}"],
            "* push type liveactivity (from --live-activity)",
            "* priority 10 (the default for liveactivity pushes)"
        ),
    ]

    @Test(arguments: reasons.indices)
    func verboseSaysWhyThePushTypeAndPriority(index: Int) throws {
        let (topic, arguments, type, priority) = Self.reasons[index]
        let (status, _, err) = try Self.dryRun(arguments + ["-v"], topic: topic)
        #expect(status == 0, "\(err)")
        let lines = err.split(separator: "\n").map(String.init)
        #expect(lines.contains(type), "\(err)")
        #expect(lines.contains(priority), "\(err)")
    }

    @Test func verboseSaysWhyWidgetsHaveNoPriority() throws {
        let headers = try SendPlannerTests.plan(
            SendPlannerTests.Case(
                name: "widgets", topic: "com.example.app", pushType: .widgets, contentChanged: true,
                expected: .error(0, "")))
        #expect(
            headers.headers.verboseLines == [
                "* push type widgets (from --push-type)",
                "* no apns-priority (widgets pushes are sent without one unless --priority is given)",
            ])
    }
}
