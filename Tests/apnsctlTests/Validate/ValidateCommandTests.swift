import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// `apnsctl validate` end to end: its exit codes, text lines and JSON Lines (in-process).
@Suite struct ValidateCommandTests {
    /// Standard input that cannot be read (here a directory, as `< dir` gives it) is exit 66 saying why, for
    /// `validate -` and `send -` alike, not an empty payload (65).
    @Test func unreadableStandardInputIsNotAnEmptyPayload() throws {
        let dir = try TemporaryDirectory()
        let credentials = try TestCredentials()
        let token = String(repeating: "ab", count: 32)
        for command in [["validate", "-"], ["send", "-", "--dry-run", "--cert", credentials.pushFile, "-d", token]] {
            // In-process, the world's standard input a descriptor of the directory, as `< dir` opens it.
            let input = open(dir.path, O_RDONLY | O_CLOEXEC)
            try #require(input >= 0)
            defer { close(input) }
            let world = TestWorld(home: dir.path, standardInput: input, clock: .system)
            let status = world.run(command)
            let stderr = world.stderr.text
            #expect(status == 66, "\(command): \(stderr)")
            #expect(stderr.contains("error: -: cannot read: Is a directory"), "\(command): \(stderr)")
            #expect(!stderr.contains("empty"), "\(command): \(stderr)")
        }
    }

    /// Standard input a parent left non-blocking, whose writer is slow: `-` waits for the payload instead of
    /// taking "nothing yet" for an empty or unreadable one. In-process, the world's standard input is the pipe
    /// with O_NONBLOCK set, as such a parent shares it.
    @Test func aNonBlockingStandardInputIsWaitedFor() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        #expect(fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK) == 0)
        let run = try InProcess.Run(["validate", "-"], standardInput: reader)
        // Once it blocks waiting for input (in read(2) of the pipe, or in poll), it is still running: it did not
        // end on "nothing yet".
        #expect(
            Wait.until {
                run.hasEnded || run.threadID.map { Self.isBlockedWaitingForInput(thread: $0, fd: reader) } == true
            })
        #expect(!run.hasEnded)
        let payload = Array(#"{"aps":{"alert":"late"}}"#.utf8)
        if !run.hasEnded { #expect(posixWriteAll(writer, payload) == nil) }
        close(writer)
        let result = run.result(within: 30)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("-: ok"), "\(result.stdout)")
    }

    /// Whether this process's thread `thread` is blocked in read(2) of `fd` or in poll(2)/ppoll(2) (x86-64 and
    /// arm64 numbers), from /proc/self/task/THREAD/syscall ("running" while it runs).
    static func isBlockedWaitingForInput(thread: Int32, fd: Int32) -> Bool {
        let fields = ((try? String(contentsOfFile: "/proc/self/task/\(thread)/syscall", encoding: .utf8)) ?? "")
            .split(separator: " ")
        guard let number = fields.first else { return false }
        let readsFD = fields.dropFirst().first == "0x" + String(fd, radix: 16)
        #if arch(x86_64)
            return (number == "0" && readsFD) || number == "7" || number == "271"
        #else
            return (number == "63" && readsFD) || number == "73"
        #endif
    }

    @Test func cleanFilePrintsOneOkLine() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("alert.json", "{\"aps\":{\"alert\":\"Hello\"}}\n")
        let r = try InProcess.apnsctl(["validate", file])
        #expect(r.status == 0)
        #expect(r.lines == ["\(file): ok (26 bytes of 4096, alert)"])
        #expect(r.stderr.isEmpty)
    }

    /// A file past the read limit exists: the advice asks whether it is the right one, not to check its path. It
    /// is over every push type's size limit, so invalid as a payload (65, CLI.md), not unreadable (66); a missing
    /// file beside it still makes the run 66, and a credential that large is an unreadable input (66).
    @Test func aFileTooLargeToBeAPayloadIsNotAPathToCheck() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("huge.json", "")
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
        let r = try InProcess.apnsctl(["validate", file])
        #expect(r.status == 65)
        #expect(
            r.stderr.contains("is it the right file? APNs takes a payload of at most 5120 bytes")
                && !r.stderr.contains("check the path"), "\(r.stderr)")
        let withMissing = try InProcess.apnsctl(["validate", file, dir.file("missing.json")])
        #expect(withMissing.status == 66, "\(withMissing.stderr)")
        let key = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM, mode: 0o600)
        let sent = try InProcess.apnsctl([
            "send", "--dry-run", "--auth-key", key, "--team-id", "TEAM123456", "--topic", "com.example.app", "-d",
            String(repeating: "ab", count: 32), file,
        ])
        #expect(sent.status == 65)
        #expect(
            sent.stderr.hasSuffix("is it the right file? APNs takes a payload of at most 5120 bytes\n"),
            "\(sent.stderr)")
        let asKey = try InProcess.apnsctl([
            "send", "--dry-run", "--auth-key", file, "--team-id", "TEAM123456", "--key-id", "ABCDE12345", "--topic",
            "com.example.app", "-d", String(repeating: "ab", count: 32), "--alert", "hi",
        ])
        #expect(asKey.status == 66, "\(asKey.stderr)")
        #expect(asKey.stderr.contains("more than 64 MiB"), "\(asKey.stderr)")
    }

    /// send's push type and size limit from variables are not validate's: a CI job that sets them is told the flags
    /// that judge the payload as send will, and the flags, when given, say it all.
    @Test func sendsVariablesAreNamedNotRead() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("alert.json", "{\"aps\":{\"alert\":\"Hello\"}}\n")
        let r = try InProcess.apnsctl(["validate", file], environment: ["APNSCTL_PUSH_TYPE": "voip"])
        #expect(r.status == 0)
        #expect(r.lines == ["\(file): ok (26 bytes of 4096, alert)"])
        #expect(
            r.stderr
                == "warning: APNSCTL_PUSH_TYPE=voip is a setting of send, which validate does not read; to judge the payloads as send will, give --push-type voip\n"
        )
        let both = try InProcess.apnsctl(
            ["validate", file], environment: ["APNSCTL_PUSH_TYPE": "voip", "APNSCTL_SIZE_LIMIT": "2k"])
        #expect(
            both.stderr.contains("are settings of send") && both.stderr.hasSuffix("--push-type voip --size-limit 2k\n"))
        let given = try InProcess.apnsctl(
            ["validate", "--push-type", "voip", file],
            environment: ["APNSCTL_PUSH_TYPE": "voip", "APNSCTL_SIZE_LIMIT": ""])
        #expect(given.status == 0 && given.stderr.isEmpty, "\(given.stderr)")
    }

    /// A mock, and a `.apns` file of 4.5 KB for its bundle's VoIP topic: over an alert's limit, within VoIP's.
    static func voipAPNSFile() throws -> (InProcessMock, TemporaryDirectory, String) {
        let mock = try InProcessMock(keepingLog: true)
        let dir = try TemporaryDirectory()
        let filler = String(repeating: "y", count: 4500)
        let voip = try dir.write(
            "call.apns", #"{"Simulator Target Bundle":"\#(mock.bundleID).voip","aps":{},"x":"\#(filler)"}"#)
        return (mock, dir, voip)
    }

    /// A `.apns` file's `Simulator Target Bundle` is the topic `send` sends it to: its suffix picks the push type
    /// and the size limit in `validate` as in `send` (a voip file of 4.5 KB passed send and failed validate).
    @Test func anAPNSFilesBundleSuffixPicksThePushTypeAsInSend() throws {
        let (mock, dir, voip) = try Self.voipAPNSFile()
        let widgets = try dir.write(
            "w.apns",
            #"{"Simulator Target Bundle":"\#(mock.bundleID).push-type.widgets","aps":{"content-changed":true}}"#)
        let r = try InProcess.apnsctl(["validate", voip, widgets])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.lines == ["\(voip): ok (4517 bytes of 5120, voip)", "\(widgets): ok (32 bytes of 4096, widgets)"])
        let sent = try InProcess.apnsctl([
            "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "-d",
            String(repeating: "3f2a", count: 16), voip,
        ])
        #expect(sent.status == 0, "\(sent.stderr)")
        let alert = try InProcess.apnsctl(["validate", "--push-type", "alert", voip])
        #expect(alert.status == 65)
        #expect(
            alert.lines.contains(
                "\(voip):1:1: warning: (root): topic \"\(mock.bundleID).voip\" ends with \".voip\", the suffix of voip pushes, but this is an alert push; use --push-type voip or the bare bundle id"
            ), "\(alert.lines)")
        let other = try InProcess.apnsctl(["validate", "--push-type", "complication", voip])
        #expect(
            other.lines.contains {
                $0.hasSuffix(
                    #"lacks the ".complication" suffix that complication pushes need; use "Simulator Target Bundle" \#(mock.bundleID).complication"#
                )
            }, "\(other.lines)")
    }

    /// The mock profile's topic is the mock certificate's bundle id, a default: a `.apns` file's bundle comes before
    /// it, as before a certificate's (with -p mock this file went to the bare bundle id as an alert, and was refused
    /// as over the alert size limit that validate does not apply to it).
    @Test func anAPNSFilesBundleComesBeforeTheMockProfilesTopic() throws {
        let (mock, dir, voip) = try Self.voipAPNSFile()
        let environment = [
            "APNSCTL_MOCK_STATE_DIR": mock.stateDir, "XDG_CONFIG_HOME": dir.file("config"),
            "XDG_CACHE_HOME": dir.file("cache"), "XDG_STATE_HOME": dir.file("state"),
        ]
        for profile in ["mock", "mock-token"] {
            let send = ["send", "-p", profile, "-d", String(repeating: "3f2a", count: 16), voip]
            let sent = try InProcess.apnsctl(send, environment: environment)
            #expect(sent.status == 0, "\(profile): \(sent.stderr)")
            let dry = try InProcess.apnsctl(send + ["--dry-run"], environment: environment)
            #expect(dry.stdout.contains("apns-topic: \(mock.bundleID).voip"), "\(profile): \(dry.stdout)")
            #expect(dry.stdout.contains("apns-push-type: voip"), "\(profile): \(dry.stdout)")
        }
        // A topic the user gave still comes first.
        let given = try InProcess.apnsctl(
            [
                "send", "-p", "mock", "--topic", mock.bundleID, "-d", String(repeating: "3f2a", count: 16), voip,
                "--dry-run",
            ],
            environment: environment)
        #expect(given.status == 65, "\(given.stdout)\(given.stderr)")
    }

    /// The bundle is send's default apns-topic: held to a --topic's rule (a shared file is untrusted input), so a
    /// bidirectional override in it is refused by validate and send alike, never printed raw or sent.
    @Test func anAPNSFilesBundleIsHeldToTheTopicsRule() throws {
        let mock = try InProcessMock()
        let dir = try TemporaryDirectory()
        let file = try dir.write(
            "bidi.apns", #"{"Simulator Target Bundle":"com.example.\#u{202E}ppa","aps":{"alert":"x"}}"#)
        let r = try InProcess.apnsctl(["validate", file])
        #expect(r.status == 65)
        #expect(
            r.lines.contains {
                $0.contains(
                    "error: Simulator Target Bundle: Simulator Target Bundle is the apns-topic send uses, and it holds a bidirectional override (U+202E)"
                )
            }, "\(r.stdout)")
        let sent = try InProcess.apnsctl(
            [
                "send", "--auth-key", mock.authKey, "--team-id", mock.teamID, "-d",
                String(repeating: "3f2a", count: 16), "--dry-run", file,
            ])
        #expect(sent.status == 65, "\(sent.stdout)\(sent.stderr)")
        #expect(!(sent.stdout + sent.stderr).unicodeScalars.contains("\u{202E}"))
    }

    /// A bundle no --topic could be (a lookalike letter, a stray dot) passed validate, and send refused it as a
    /// topic (64, no position): the file's fault, 65 at its key, in both.
    @Test func anAPNSFilesBundleIsHeldToTheBundleIDRule() throws {
        let mock = try InProcessMock()
        let dir = try TemporaryDirectory()
        for (name, bundle, what) in [
            ("accent.apns", #"com.ex\u00e4mple"#, "holds \u{2018}ä\u{2019} (U+00E4)"),
            ("dot.apns", "com.example.", "has an empty part (a dot at its start or end, or two in a row)"),
            ("rlm.apns", #"com.ex\u200fample"#, "holds an invisible character (U+200F)"),
        ] {
            let file = try dir.write(name, #"{"Simulator Target Bundle":"\#(bundle)","aps":{"alert":"x"}}"#)
            let tail =
                "Simulator Target Bundle: Simulator Target Bundle is the apns-topic send uses, and it \(what), which no bundle id has; a bundle id is made of ASCII letters, digits, hyphens, underscores and dots, such as com.example.app"
            let r = try InProcess.apnsctl(["validate", file])
            #expect(r.status == 65 && r.lines.contains("\(file):1:28: error: \(tail)"), "\(name): \(r.stdout)")
            let sent = try InProcess.apnsctl(
                [
                    "send", "--auth-key", mock.authKey, "--team-id", mock.teamID, "-d",
                    String(repeating: "3f2a", count: 16), "--dry-run", file,
                ])
            #expect(
                sent.status == 65 && sent.stderr.contains("\(file):1:28: \(tail)"),
                "\(name): \(sent.stderr)")
        }
    }

    /// A template's placeholder as the bundle, with a --topic that replaces it: not the push's topic, so a warning,
    /// and the push goes out (it was refused, 65, with no way around it but editing a shared file).
    @Test func aPlaceholderBundleBesideATopicIsOnlyWarnedAbout() throws {
        let mock = try InProcessMock()
        let dir = try TemporaryDirectory()
        let file = try dir.write(
            "template.apns",
            "{\n  \"Simulator Target Bundle\": \"<YOUR_BUNDLE_ID>\",\n  \"aps\": {\"alert\": \"hi\"}\n}\n")
        let r = try InProcess.apnsctl(
            [
                "send", "--auth-key", mock.authKey, "--team-id", mock.teamID, "-d",
                String(repeating: "3f2a", count: 16),
                "--topic", "com.example.demo", "--dry-run", file,
            ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "Simulator Target Bundle holds \u{2018}<\u{2019} (U+003C), which no bundle id has; it is not sent (the topic is com.example.demo), but the simulator cannot use it"
            ), "\(r.stderr)")
        #expect(try InProcess.apnsctl(["validate", file]).status == 65)
    }

    @Test func problemsPrintAsCompilerLinesAndExit65() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("bad.json", "{\n  \"aps\": {\n    \"badge\": \"5\",\n    \"bagde\": 1\n  }\n}\n")
        let r = try InProcess.apnsctl(["validate", file])
        #expect(r.status == 65)
        #expect(
            r.lines == [
                "\(file):3:14: error: aps.badge: badge must be a non-negative integer, found string \"5\"; write 5 without quotes",
                "\(file):4:5: warning: aps.bagde: unknown aps key \"bagde\" is ignored by APNs; did you mean \"badge\"?",
            ])
        #expect(r.stderr.isEmpty, "problems are the result: stdout")
    }

    @Test func warningsAloneExitZeroUnlessStrict() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("typo.json", "{\"aps\":{\"alert\":\"x\",\"sond\":\"default\"}}")
        let lenient = try InProcess.apnsctl(["validate", file])
        #expect(lenient.status == 0)
        #expect(
            lenient.lines == [
                "\(file):1:21: warning: aps.sond: unknown aps key \"sond\" is ignored by APNs; did you mean \"sound\"?"
            ])
        let strict = try InProcess.apnsctl(["validate", "--strict", file])
        #expect(strict.status == 65)
        #expect(
            strict.lines == [
                "\(file):1:21: error: aps.sond: unknown aps key \"sond\" is ignored by APNs; did you mean \"sound\"?"
            ])
    }

    /// CLI.md: in `validate`, a Live Activity `timestamp` more than an hour from now, either way, is a warning (send
    /// refuses one more than 10 minutes ahead); within the hour it is clean. Judged at the world's clock.
    @Test func aLiveActivityTimestampFarFromNowIsAWarning() throws {
        let dir = try TemporaryDirectory()
        let now: Int64 = 1_800_000_000
        func payload(_ timestamp: Int64) -> String {
            #"{"aps":{"event":"update","timestamp":\#(timestamp),"content-state":{"a":1}}}"#
        }
        let cases: [(Int64, String?)] = [
            (now + 7200, "is 2 hours after now; iOS keeps the highest timestamp it has seen"),
            (now - 3 * 86_400, "is 3 days before now; the device ignores an update older than the last one it got"),
            (now - 1800, nil), (now + 1800, nil),
        ]
        for (timestamp, warning) in cases {
            let file = try dir.write("la.json", payload(timestamp))
            let t = TestWorld(home: dir.path, now: now)
            let status = t.run(["validate", "--push-type", "liveactivity", file])
            #expect(status == 0, "\(t.stderr.text)")
            if let warning {
                #expect(t.stdout.text.contains("warning: aps.timestamp: timestamp \(timestamp) ("), "\(t.stdout.text)")
                #expect(t.stdout.text.contains(warning), "\(t.stdout.text)")
            } else {
                #expect(!t.stdout.text.contains("warning"), "\(timestamp): \(t.stdout.text)")
            }
        }
    }

    @Test func jsonOutputHasExactlyTheContractFields() throws {
        let dir = try TemporaryDirectory()
        let good = try dir.write("good.json", "{\"aps\":{\"alert\":\"Hello\"}}")
        let bad = try dir.write("bad \"q\".json", "{\n  \"aps\": {\n    \"badge\": \"5\"\n  }\n}")
        let r = try InProcess.apnsctl(["validate", "-o", "json", good, bad])
        #expect(r.status == 65)
        #expect(r.lines.count == 2)
        let objects = try r.lines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let fields: Set<String> = ["file", "valid", "size", "limit", "push_type", "problems"]
        for o in objects { #expect(Set(o.keys) == fields) }
        #expect(
            r.lines[0]
                == "{\"file\":\"\(good)\",\"valid\":true,\"size\":25,\"limit\":4096,\"push_type\":\"alert\",\"problems\":[]}"
        )
        #expect(objects[1]["file"] as? String == bad, "quotes in the file name are escaped")
        #expect(objects[1]["valid"] as? Bool == false)
        let problems = try #require(objects[1]["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(Set(problems[0].keys) == ["severity", "path", "line", "column", "message"])
        #expect(problems[0]["severity"] as? String == "error")
        #expect(problems[0]["path"] as? String == "aps.badge")
        #expect(problems[0]["line"] as? Int == 3 && problems[0]["column"] as? Int == 14)
        #expect(
            problems[0]["message"] as? String
                == "badge must be a non-negative integer, found string \"5\"; write 5 without quotes")
    }

    @Test func jsonOutputOfWarningsIsValidUnlessStrict() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("w.json", "{\"aps\":{\"alert\":\"\"}}")
        let r = try InProcess.apnsctl(["validate", "--output", "json", file])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"valid\":true") && r.stdout.contains("\"severity\":\"warning\""))
        let s = try InProcess.apnsctl(["validate", "-o", "json", "--strict", file])
        #expect(s.status == 65)
        #expect(s.stdout.contains("\"valid\":false") && s.stdout.contains("\"severity\":\"error\""))
    }

    @Test func standardInputIsNamedDash() throws {
        let r = try InProcess.apnsctl(["validate", "-"], stdin: Array("{\"aps\":{\"badge\":\"5\"}}".utf8))
        #expect(r.status == 65)
        #expect(
            r.lines == [
                "-:1:17: error: aps.badge: badge must be a non-negative integer, found string \"5\"; write 5 without quotes"
            ])
        let ok = try InProcess.apnsctl(["validate", "-"], stdin: Array("{\"aps\":{\"content-available\":1}}".utf8))
        #expect(ok.lines == ["-: ok (31 bytes of 4096, background)"])
    }

    @Test func missingFileIsExit66AndTheOthersAreStillChecked() throws {
        let dir = try TemporaryDirectory()
        let good = try dir.write("good.json", "{\"aps\":{\"alert\":\"Hello\"}}")
        let bad = try dir.write("bad.json", "{\"aps\":{\"badge\":-1}}")
        let missing = dir.file("missing.json")
        let r = try InProcess.apnsctl(["validate", missing, good, bad])
        #expect(r.status == 66, "a missing file outranks an invalid one")
        #expect(
            r.errorLines == [
                "error: \(missing): no such file; check the path",
                "error: 1 of 3 payload files could not be read; the others were checked",
            ])
        #expect(r.lines.count == 2)
        #expect(r.lines[0] == "\(good): ok (25 bytes of 4096, alert)")
        #expect(r.lines[1].hasPrefix("\(bad):1:17: error: aps.badge:"))
        let dirArg = try InProcess.apnsctl(["validate", dir.path])
        #expect(dirArg.status == 66)
        #expect(dirArg.stderr.hasPrefix("error: \(dir.path): is a directory"))
        // JSON: one object per file, the unread one too (invalid, its problem the reading error), in order.
        let json = try InProcess.apnsctl(["validate", "-o", "json", missing, good])
        #expect(json.status == 66)
        #expect(
            json.lines == [
                #"{"file":"\#(missing)","valid":false,"size":null,"limit":null,"push_type":null,"problems":[{"severity":"error","path":"(root)","line":null,"column":null,"message":"\#(missing): no such file; check the path"}]}"#,
                #"{"file":"\#(good)","valid":true,"size":25,"limit":4096,"push_type":"alert","problems":[]}"#,
            ], "\(json.stdout)")
        #expect(json.errorLines.first == "error: \(missing): no such file; check the path")
        // JSON typed where a file goes, as send takes it: said so, with how to give it.
        let inline = try InProcess.apnsctl(["validate", #"{"aps":{"alert":"x"}}"#])
        #expect(inline.status == 66)
        #expect(
            inline.errorLines.first
                == #"error: {"aps":{"alert":"x"}}: no such file; validate reads files, not inline JSON: printf '%s' '{…}' | apnsctl validate -"#,
            "\(inline.stderr)")
    }

    @Test(arguments: [
        (
            ["validate", "--push-type", "banner", "x.json"],
            "error: --push-type banner: unknown push type; use one of alert, background,"
        ),
        (
            ["validate", "--size-limit", "4q", "x.json"],
            "error: --size-limit 4q: not a byte count; use a number or 256, 2k, 4k, 5k"
        ),
        (
            ["validate", "--size-limit", "0", "x.json"],
            "error: --size-limit 0: no payload fits in 0 bytes; use a number from 1"
        ),
        (
            ["validate", "--size-limit", "99999999", "x.json"],
            "error: --size-limit 99999999: more than the 64 MiB apnsctl reads of a payload; APNs takes at most 5120 bytes (5k, VoIP) and 4096 (4k) for the other push types\n"
        ),
        // After a space, -1 reads as a flag; the advice to write --size-limit=-1 is followed first, and the
        // value is refused as it would be then.
        (["validate", "x.json", "--size-limit", "-1"], "error: --size-limit -1: not a byte count"),
        (["validate", "-o", "yaml", "x.json"], "error: --output yaml: unknown output format; use text or json"),
        (["validate"], "error: "),
        (["validate", "--no-such-flag", "x.json"], "error: "),
    ])
    func badUsageIsExit64(arguments: [String], stderrPrefix: String) throws {
        let r = try InProcess.apnsctl(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix(stderrPrefix), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func flagsApplyToEveryFile() throws {
        let dir = try TemporaryDirectory()
        let voip = try dir.write("voip.json", "{\"aps\":{},\"caller\":\"" + String(repeating: "x", count: 5080) + "\"}")
        #expect(try InProcess.apnsctl(["validate", voip]).status == 65, "5102 bytes are over the alert limit")
        let asVoip = try InProcess.apnsctl(["validate", "--push-type", "VoIP", voip])
        #expect(asVoip.status == 0)
        #expect(asVoip.lines == ["\(voip): ok (5102 bytes of 5120, voip)"])
        let small = try dir.write("s.json", "{\"aps\":{\"alert\":\"" + String(repeating: "y", count: 237) + "\"}}")
        let over = try InProcess.apnsctl(["validate", "--size-limit", "256", small])
        #expect(over.status == 65)
        #expect(
            over.lines == [
                "\(small):1:1: error: (root): payload is 257 bytes, 1 over the 256-byte limit set with --size-limit (APNs itself takes up to 4096); it is already compact: shorten it or move data out of the payload"
            ])
        #expect(
            try InProcess.apnsctl(["validate", "--size-limit", "2k", small]).lines == [
                "\(small): ok (257 bytes of 2048, alert)"
            ])
    }

    @Test func apnsFileIsMeasuredAsSent() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write(
            "push.apns",
            "{\n  \"Simulator Target Bundle\": \"com.example.demo\",\n  \"aps\": { \"alert\": \"Hi\" }\n}\n")
        let r = try InProcess.apnsctl(["validate", file])
        #expect(r.status == 0)
        #expect(r.lines == ["\(file): ok (22 bytes of 4096, alert)"], "{\"aps\":{\"alert\":\"Hi\"}} is 22 bytes")
    }

    @Test func helpExplainsFormatsAndExamples() throws {
        let r = try InProcess.apnsctl(["validate", "--help"])
        #expect(r.status == 0)
        for text in [
            "FILE:LINE:COLUMN", "--push-type", "--size-limit", "--strict", "--output", "Examples:",
            "apnsctl validate -o json", "Simulator Target Bundle", "65",
        ] {
            #expect(r.stdout.contains(text), "help lacks \(text)")
        }
    }

    @Test func hostileInputNeverCrashes() throws {
        let dir = try TemporaryDirectory()
        var files: [String] = []
        files.append(try dir.write("deep.json", String(repeating: "[", count: 200_000)))
        files.append(try dir.write("bytes.json", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37) }))
        files.append(try dir.write("surrogate.json", "{\"aps\":{\"alert\":\"\\uD800\"}}"))
        files.append(
            try dir.write("huge-number.json", "{\"aps\":{\"badge\":" + String(repeating: "9", count: 10_000) + "}}"))
        files.append(try dir.write("nul.json", [0x7B, 0x00, 0x7D]))
        let r = try InProcess.apnsctl(["validate"] + files, timeout: 20)
        #expect(r.status == 65 && !r.timedOut)
        func lines(_ name: String) -> [String] { r.lines.filter { $0.hasPrefix(dir.file(name) + ":") } }
        #expect(
            lines("deep.json").contains {
                $0.contains(":1:513: error: (root): not valid JSON: nesting deeper than 512 levels")
            })
        #expect(lines("bytes.json").count == 1)
        #expect(lines("surrogate.json").first?.contains("lone high surrogate \\uD800") == true)
        #expect(lines("huge-number.json").contains { $0.contains("error: aps.badge: badge 9999") })
        #expect(lines("nul.json").first?.contains("found character U+0000") == true)
    }

    /// An endless input (a device, a pipe that never ends) stops at FileSystem.maximumReadSize with an
    /// error, instead of reading until memory runs out; the other files are still checked.
    @Test func endlessInputEndsWithAnError() throws {
        let dir = try TemporaryDirectory()
        let good = try dir.write("good.json", "{\"aps\":{\"alert\":\"Hello\"}}")
        // A node like /dev/zero (character device 1,5), made here: a test never reads a real /dev entry.
        let zero = dir.file("zero")
        try #require(mknod(zero, S_IFCHR | 0o600, dev_t((1 << 8) | 5)) == 0, "mknod needs root (the tests run as root)")
        let r = try InProcess.apnsctl(["validate", zero, good], timeout: 20)
        #expect(!r.timedOut)
        #expect(r.status == 65)
        #expect(
            r.errorLines.first
                == "error: \(zero): cannot read: more than 64 MiB, far more than any payload or credential; is it the right file? APNs takes a payload of at most 5120 bytes"
        )
        #expect(r.lines == ["\(good): ok (25 bytes of 4096, alert)"])
        let key = try InProcess.apnsctl(["inspect", zero], timeout: 20)
        #expect(!key.timedOut && key.status == 66, "\(key.stderr)")
    }
}
