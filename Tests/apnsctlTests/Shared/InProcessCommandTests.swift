import APNSClient
import APNSCore
import APNSPlatform
import APNSSettings
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto
@testable import APNSCtlCommands

/// The commands in-process: each runs in a `TestWorld` (its variables and roots, a fixed
/// clock, standard output and standard error in memory, streams that are a terminal or a file as the test
/// says) through `APNSCtl.execute`, the code `main` runs, so messages, output bytes and exit codes are the
/// binary's without spawning it. The end-to-end tests check the same through the built binary.
@Suite struct InProcessCommandTests {
    static let good = String(repeating: "3f2a", count: 16)
    static let bad = "77b0" + String(repeating: "0", count: 56) + "0a11"

    static func accepted(_ hex: String, ms: Double = 24) throws -> PushResult {
        PushResult(
            target: .device(try DeviceToken(parsing: hex)),
            response: HTTPResponse(
                status: 200, headers: [HeaderField("apns-id", "5E0B0F6C-0000-4000-8000-000000000001")]),
            durationMs: ms)
    }

    static func rejected(_ hex: String, reason: String) throws -> PushResult {
        PushResult(
            target: .device(try DeviceToken(parsing: hex)),
            response: HTTPResponse(status: 400, body: Array(#"{"reason":"\#(reason)"}"#.utf8)), durationMs: 3)
    }

    static func summary(accepted: Int, rejected: [(String, Int)]) -> SendSummary {
        var s = SendSummary()
        s.accepted = accepted
        s.rejected = rejected.reduce(0) { $0 + $1.1 }
        s.reasons = rejected.map { (reason: $0.0, count: $0.1) }
        s.connections = 1
        return s
    }

    // MARK: send's results

    @Test func sendResultsRenderAsTextLinesAndASummaryOnTheWorldsStandardOutput() throws {
        let t = TestWorld()
        let output = SendOutput(
            format: .text, environment: .sandbox, endpoint: PushEndpoint(environment: .sandbox), total: 2,
            color: .auto, in: t.world)
        output.result(try Self.accepted(Self.good))
        output.result(try Self.rejected(Self.bad, reason: "BadDeviceToken"))
        // Buffered: nothing is written before the end (a full disk is found at the flush).
        #expect(t.stdout.writeCount == 0)
        output.finish(Self.summary(accepted: 1, rejected: [("BadDeviceToken", 1)]))
        let lines = t.stdout.lines
        #expect(lines.count == 3, "\(t.stdout.text)")
        #expect(lines[0] == "accepted  200  3f2a…3f2a  apns-id=5E0B0F6C-0000-4000-8000-000000000001  sandbox  24 ms")
        #expect(lines[1].hasPrefix("rejected  400  BadDeviceToken  \(Self.bad)  The token is not valid"), "\(lines[1])")
        #expect(lines[2] == "sent 2: 1 accepted, 1 rejected (BadDeviceToken 1)")
        // A pipe on both streams: no colour, no progress line.
        #expect(!t.stdout.text.contains("\u{1B}"))
        #expect(t.stderr.text.isEmpty)
    }

    @Test func sendResultsRenderAsJSONLinesWithoutASummary() throws {
        let t = TestWorld(stdout: .terminal, stderr: .terminal)
        let output = SendOutput(
            format: .json, environment: .production, endpoint: PushEndpoint(environment: .production), total: 2,
            color: .always, in: t.world)
        output.result(try Self.accepted(Self.good))
        output.result(try Self.rejected(Self.bad, reason: "Unregistered"))
        output.finish(Self.summary(accepted: 1, rejected: [("Unregistered", 1)]))
        let lines = t.stdout.lines
        #expect(lines.count == 2, "JSON Lines have no summary: \(t.stdout.text)")
        let first = try jsonObject(lines[0])
        #expect(first["device"] as? String == Self.good)
        #expect(first["status"] as? Int == 200)
        #expect(first["environment"] as? String == "production")
        #expect((first["endpoint"] as? String)?.hasPrefix("https://api.push.apple.com") == true, "\(lines[0])")
        let second = try jsonObject(lines[1])
        #expect(second["reason"] as? String == "Unregistered")
        #expect((second["meaning"] as? String)?.isEmpty == false && (second["hint"] as? String)?.isEmpty == false)
        // --color always colours text only; JSON never carries escapes.
        #expect(!t.stdout.text.contains("\u{1B}"))
    }

    /// The progress line (CLI.md): only with stderr a terminal and stdout a file, redrawn at most 10 times a
    /// second by the world's monotonic clock, and replaced at the end by the summary, which stays.
    @Test func theProgressLineFollowsTheWorldsStreamsAndClock() throws {
        let t = TestWorld(stdout: .file, stderr: .terminal)
        let output = SendOutput(
            format: .text, environment: .sandbox, endpoint: PushEndpoint(environment: .sandbox), total: 3, in: t.world)
        output.result(try Self.accepted(Self.good))
        #expect(t.stderr.text.isEmpty, "no redraw before 100 ms have passed")
        t.monotonic.withLock { $0 += 500_000_000 }
        output.result(try Self.accepted(Self.good))
        #expect(t.stderr.text == "\rsent 2 of 3: 2 accepted, 0 rejected, 4/s\u{1B}[K")
        output.result(try Self.accepted(Self.good))
        output.finish(Self.summary(accepted: 3, rejected: []))
        #expect(t.stderr.text == "\rsent 2 of 3: 2 accepted, 0 rejected, 4/s\u{1B}[K\r\u{1B}[Ksent 3: 3 accepted\n")
        #expect(t.stdout.lines.last == "sent 3: 3 accepted")

        for (out, err) in [(TestWorld.Stream.terminal, TestWorld.Stream.terminal), (.pipe, .terminal), (.file, .pipe)] {
            let quiet = TestWorld(stdout: out, stderr: err)
            let o = SendOutput(
                format: .text, environment: .sandbox, endpoint: PushEndpoint(environment: .sandbox), total: 3,
                in: quiet.world)
            quiet.monotonic.withLock { $0 += 500_000_000 }
            o.result(try Self.accepted(Self.good))
            o.result(try Self.accepted(Self.good))
            o.finish(Self.summary(accepted: 2, rejected: []))
            #expect(quiet.stderr.text.isEmpty, "stdout \(out), stderr \(err): \(quiet.stderr.text)")
        }
    }

    /// `--color auto` colours only a terminal, with NO_COLOR unset or empty and TERM not dumb; always and never
    /// decide alone. Decided from the world's streams and variables, not this process's.
    @Test func colourFollowsTheWorldsTerminalNoColorAndTerm() throws {
        let cases: [(TestWorld.Stream, [String: String], ColorChoice, Bool)] = [
            (.terminal, [:], .auto, true),
            (.terminal, ["NO_COLOR": "1"], .auto, false),
            (.terminal, ["NO_COLOR": ""], .auto, true),
            (.terminal, ["TERM": "dumb"], .auto, false),
            (.terminal, ["TERM": "xterm-256color"], .auto, true),
            (.pipe, [:], .auto, false),
            (.file, [:], .auto, false),
            (.pipe, ["NO_COLOR": "1"], .always, true),
            (.terminal, [:], .never, false),
        ]
        for (stdout, variables, mode, coloured) in cases {
            let t = TestWorld(variables: variables, stdout: stdout)
            #expect(mode.enabled(fd: 1, in: t.world) == coloured, "\(stdout) \(variables) \(mode)")
            let output = SendOutput(
                format: .text, environment: .sandbox, endpoint: PushEndpoint(environment: .sandbox), total: 1,
                color: mode, in: t.world)
            output.result(try Self.accepted(Self.good))
            output.finish(Self.summary(accepted: 1, rejected: []))
            #expect(
                t.stdout.text.hasPrefix("\u{1B}[32maccepted\u{1B}[0m  200") == coloured,
                "\(stdout) \(variables) \(mode): \(t.stdout.text)")
        }
    }

    // MARK: Messages and exit codes

    @Test func errorMessagesAndExitCodesAreTheBinarysInProcess() throws {
        let dir = try TemporaryDirectory(prefix: "in-process-errors")
        let cases: [(arguments: [String], status: Int32, stderr: String)] = [
            (
                ["sned"], 64,
                "error: Unknown command 'sned'. Did you mean 'send'?\nerror: usage: apnsctl <subcommand>\nerror: See 'apnsctl --help' for more information.\n"
            ),
            (
                ["help", "sned"], 64,
                #"error: help: unknown command "sned"; did you mean "send"? the commands are send, validate, inspect, convert, jwt, mock, channel, doctor, config, history (apnsctl --help lists them)"#
                    + "\n"
            ),
            (["send", "--alert", "hi", "-d", Self.good], 64, "error: no credential; pass --cert FILE"),
            (["send", "--priority", "7", "-d", Self.good], 64, "error: "),
            (["validate", dir.file("missing.json")], 66, "error: \(dir.file("missing.json")): "),
            (
                ["config", "show", "--for", "mock"], 64,
                #"error: --for "mock": not a command with settings; use send, channel, doctor or jwt"# + "\n"
            ),
            (["jwt", "--auth-key", dir.file("AuthKey_ABCDE12345.p8"), "--team-id", "TEAMID1234"], 66, "error: "),
        ]
        for c in cases {
            let t = TestWorld(home: dir.path)
            let status = t.run(c.arguments)
            #expect(status == c.status, "\(c.arguments): \(status) \(t.stderr.text)")
            #expect(t.stderr.text.hasPrefix(c.stderr), "\(c.arguments): \(t.stderr.text)")
            #expect(t.stderr.lines.allSatisfy { $0.hasPrefix("error: ") }, "\(c.arguments): \(t.stderr.text)")
            #expect(t.stdout.text.isEmpty, "\(c.arguments): \(t.stdout.text)")
        }
        // A bad flag value is the parser's one error line naming the flag, exit 64.
        let t = TestWorld(home: dir.path)
        #expect(t.run(["send", "--priority", "7", "-d", Self.good]) == 64)
        #expect(t.stderr.text.contains("--priority"), "\(t.stderr.text)")
        // Help and --version go to standard output with 0.
        let version = TestWorld()
        #expect(version.run(["--version"]) == 0)
        #expect(version.stdout.text.hasPrefix("apnsctl \(APNSCtlVersion.current) (OpenSSL"), "\(version.stdout.text)")
        #expect(version.stderr.text.isEmpty)
    }

    /// `send --dry-run` plans in-process: its warnings reach the world's standard error, the request its
    /// standard output, and nothing connects.
    @Test func sendDryRunPlansInTheWorld() throws {
        let dir = try TemporaryDirectory(prefix: "in-process-dry-run")
        let cert = try dir.pem("push.pem", CredentialFixtures.development)
        let t = TestWorld(home: dir.path)
        let short = String(Self.good.prefix(40))
        let status = t.run(["send", "--dry-run", "--cert", cert, "--alert", "hi", "-d", short, "-d", Self.good])
        #expect(status == 0, "\(t.stderr.text)")
        #expect(
            t.stderr.lines == [
                "warning: --device 3f2a…3f2a: only 40 hex digits (tokens are usually 64); was the copy cut short?"
            ],
            "\(t.stderr.text)")
        let post = t.stdout.lines.first ?? ""
        #expect(
            post.hasPrefix("POST https://api.sandbox.push.apple.com") && post.hasSuffix("/3/device/\(short)"),
            "\(t.stdout.text)")
        #expect(t.stdout.lines.contains("apns-topic: com.example.dev"), "\(t.stdout.text)")
        #expect(t.stdout.text.contains("# sandbox, "), "\(t.stdout.text)")
    }

    /// `-` reads the world's standard input: a payload for validate, the device list and the payload for send.
    @Test func dashReadsTheWorldsStandardInput() throws {
        func input(_ text: String) throws -> Pipe {
            let pipe = Pipe()
            pipe.fileHandleForWriting.write(Data(text.utf8))
            try pipe.fileHandleForWriting.close()
            return pipe
        }
        let payload = try input(#"{"aps":{"badge":"5"}}"#)
        let validate = TestWorld(standardInput: payload.fileHandleForReading.fileDescriptor)
        #expect(validate.run(["validate", "-"]) == 65)
        #expect(validate.stdout.text.hasPrefix("-:1:17: error: aps.badge: "), "\(validate.stdout.text)")

        let dir = try TemporaryDirectory(prefix: "in-process-stdin")
        let cert = try dir.pem("push.pem", CredentialFixtures.development)
        let devices = try input("# two devices\n\(Self.good)\n\(Self.bad)\n")
        let send = TestWorld(home: dir.path, standardInput: devices.fileHandleForReading.fileDescriptor)
        #expect(
            send.run(["send", "--dry-run", "--cert", cert, "--alert", "hi", "--devices", "-"]) == 0,
            "\(send.stderr.text)")
        #expect(send.stdout.lines.first?.hasSuffix("/3/device/\(Self.good)") == true, "\(send.stdout.text)")
        #expect(
            send.stdout.text.contains(
                "# the same request goes to every further device of --devices - (not read in a dry run)"))

        // No standard input in the world: nothing is read from this process's (the test runner's), and `-` is
        // empty, as a closed standard input is for the binary.
        let none = TestWorld()
        #expect(none.run(["validate", "-"]) == 65)
        #expect(none.stdout.text.hasPrefix("-:1:1: error: (root): "), "\(none.stdout.text)")
    }

    // MARK: validate and config

    @Test func validatePrintsCompilerStyleLinesAndJSONLines() throws {
        let dir = try TemporaryDirectory(prefix: "in-process-validate")
        let good = try dir.write("good.json", #"{"aps":{"alert":"hi"}}"#)
        let bad = try dir.write("bad.json", "{\"aps\":{\n\"badge\":\"5\"}}")
        let t = TestWorld()
        #expect(t.run(["validate", good, bad]) == 65)
        #expect(t.stdout.lines.count == 2, "\(t.stdout.text)")
        #expect(t.stdout.lines[0] == "\(good): ok (22 bytes of 4096, alert)")
        #expect(t.stdout.lines[1].hasPrefix("\(bad):2:9: error: aps.badge: "), "\(t.stdout.lines[1])")
        #expect(t.stderr.text.isEmpty, "the problems are the result: \(t.stderr.text)")

        let json = TestWorld()
        #expect(json.run(["validate", "-o", "json", good, dir.file("none.json")]) == 66)
        #expect(json.stdout.lines.count == 2)
        let object = try jsonObject(json.stdout.lines[0])
        #expect(object["file"] as? String == good && object["valid"] as? Bool == true && object["size"] as? Int == 22)
        // The unread file has its object too (CLI.md: one object per file).
        let unread = try jsonObject(json.stdout.lines[1])
        #expect(unread["file"] as? String == dir.file("none.json") && unread["valid"] as? Bool == false)
        #expect(json.stderr.lines.count == 2, "\(json.stderr.text)")
        #expect(
            json.stderr.lines[0].hasPrefix("error: \(dir.file("none.json")): ")
                && json.stderr.lines[0].hasSuffix("; check the path"))
        #expect(json.stderr.lines[1] == "error: 1 of 2 payload files could not be read; the others were checked")
    }

    /// `config show` resolves with the world's variables and its XDG_CONFIG_HOME's file, naming each origin.
    @Test func configShowNamesEveryOriginFromTheWorld() throws {
        let dir = try TemporaryDirectory(prefix: "in-process-config")
        try FileManager.default.createDirectory(atPath: dir.file("xdg/apnsctl"), withIntermediateDirectories: true)
        let file = try dir.write(
            "xdg/apnsctl/config.toml",
            """
            default-profile = "dev"

            [profiles.dev]
            auth-key = "~/AuthKey_ABCDE12345.p8"
            team-id = "TEAMID1234"
            topic = "com.example.app"

            """, mode: 0o600)
        let variables = ["XDG_CONFIG_HOME": dir.file("xdg"), "APNSCTL_PRIORITY": "5"]
        let t = TestWorld(variables: variables, home: dir.file("home"))
        #expect(t.run(["config", "show"]) == 0, "\(t.stderr.text)")
        let lines = t.stdout.lines
        let topic = lines.first { $0.hasPrefix("topic") } ?? ""
        #expect(
            topic.contains("com.example.app") && topic.contains("profile dev") && topic.contains("\(file):6"),
            "\(t.stdout.text)")
        let key = lines.first { $0.hasPrefix("auth-key") } ?? ""
        #expect(key.contains(dir.file("home/AuthKey_ABCDE12345.p8")), "~/ is the world's home: \(key)")
        let priority = lines.first { $0.hasPrefix("priority") } ?? ""
        #expect(priority.contains("5") && priority.contains("APNSCTL_PRIORITY"), "\(priority)")
        #expect(t.stderr.text.isEmpty)

        let json = TestWorld(variables: variables, home: dir.file("home"))
        #expect(json.run(["config", "show", "-o", "json"]) == 0)
        let objects = try json.stdout.lines.map(jsonObject)
        let topicObject = try #require(objects.first { $0["setting"] as? String == "topic" })
        #expect(topicObject["value"] as? String == "com.example.app")
        #expect(
            topicObject["origin"] as? String == "profile" && topicObject["line"] as? Int == 6
                && topicObject["file"] as? String == file)

        let path = TestWorld(variables: variables, home: dir.file("home"))
        #expect(path.run(["config", "path"]) == 0)
        #expect(path.stdout.text == "\(file) (the default; exists)\n")
    }

    /// inspect and convert read `APNSCTL_PASSPHRASE` (and convert `APNSCTL_OUT_PASSPHRASE`) from the world, after
    /// the flags; convert's `-o -` goes to the world's standard output.
    @Test func inspectAndConvertTakeTheirPassphrasesFromTheWorld() throws {
        let dir = try TemporaryDirectory(prefix: "in-process-passphrase")
        let pem = try dir.pem("push.pem", CredentialFixtures.development, passphrase: "secret-1")
        let inspect = TestWorld(variables: ["APNSCTL_PASSPHRASE": "secret-1"], home: dir.path)
        #expect(inspect.run(["inspect", pem, "-o", "json"]) == 0, "\(inspect.stderr.text)")
        #expect(try jsonObject(inspect.stdout.text)["bundle_id"] as? String == "com.example.dev")

        // --passphrase-file comes before the variable: its wrong passphrase fails at once (77), nothing prompts.
        let wrong = try dir.write("wrong.txt", "nope\n")
        let fileFirst = TestWorld(variables: ["APNSCTL_PASSPHRASE": "secret-1"], home: dir.path)
        #expect(fileFirst.run(["inspect", pem, "--passphrase-file", wrong]) == 77, "\(fileFirst.stderr.text)")
        #expect(fileFirst.stdout.text.isEmpty)

        let convert = TestWorld(
            variables: ["APNSCTL_PASSPHRASE": "secret-1", "APNSCTL_OUT_PASSPHRASE": "out-2"], home: dir.path)
        #expect(convert.run(["convert", pem, "-o", "-"]) == 0, "\(convert.stderr.text)")
        #expect(convert.stderr.text.hasPrefix("wrote standard output: certificate"), "\(convert.stderr.text)")
        #expect(convert.stderr.text.hasSuffix("; PKCS#12 with AES-256 encryption\n"), "\(convert.stderr.text)")
        let p12 = try dir.write("out.p12", convert.stdout.bytes)
        let identity = try CredentialLoader.loadIdentity(
            certificate: .file(p12), key: nil, passphrase: .literal("out-2"), now: nil)
        #expect(identity.info.bundleID == "com.example.dev")
    }

    // MARK: Standard output that fails

    /// A standard output that stops taking bytes (a full disk, a reader gone) is exit 74 with CLI.md's
    /// message, in-process as with /dev/full: the world's sink keeps every check of the process's.
    @Test func aFailedStandardOutputIsExit74() throws {
        let dir = try TemporaryDirectory(prefix: "in-process-74")
        let good = try dir.write("good.json", #"{"aps":{"alert":"hi"}}"#)
        let full = TestWorld(output: MemoryOutput(failingAfter: 0, with: ENOSPC))
        #expect(full.run(["validate", good]) == 74)
        #expect(full.stderr.text == "error: writing standard output: No space left on device\n")

        let version = TestWorld(output: MemoryOutput(failingAfter: 10, with: EPIPE))
        #expect(version.run(["--version"]) == 74)
        #expect(version.stdout.text == "apnsctl 0.")
        #expect(version.stderr.text == "error: writing standard output: Broken pipe\n")

        // config writes at once and says what was not printed, once.
        let config = TestWorld(
            variables: ["XDG_CONFIG_HOME": dir.file("none")], home: dir.path, output: MemoryOutput(failingAfter: 0))
        #expect(config.run(["config", "show"]) == 74)
        #expect(
            config.stderr.text
                == "error: writing standard output: No space left on device; the settings were not printed\n")
        // An edit saved before its line failed says it was saved: a script must not run it again.
        let edit = TestWorld(
            variables: ["XDG_CONFIG_HOME": dir.file("cfg")], home: dir.path, output: MemoryOutput(failingAfter: 0))
        #expect(edit.run(["config", "set", "-p", "dev", "topic", "com.a.c"]) == 74)
        let file = dir.file("cfg") + "/apnsctl/config.toml"
        #expect(
            edit.stderr.text
                == "error: writing standard output: No space left on device; \(file) was written, and what changed was not printed\n"
        )
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("topic = \"com.a.c\""))

        // send's results: the sink's failure is what send's message counts.
        let sending = TestWorld(output: MemoryOutput(failingAfter: 0, with: EPIPE))
        let output = SendOutput(
            format: .text, environment: .sandbox, endpoint: PushEndpoint(environment: .sandbox), total: 2,
            lineBuffered: true, in: sending.world)
        output.result(try Self.accepted(Self.good))
        let failure = try #require(sending.world.standardOutput.failure)
        #expect(failure.readerGone && failure.linesWritten == 0)
        #expect(
            SendOutput.lostOutputMessage(failure, notSent: 1, noun: "device")
                == "standard output was closed after 0 results; 1 device was not sent")
    }

    // MARK: Clock and roots

    @Test func jwtSignsAtTheWorldsClock() throws {
        let dir = try TemporaryDirectory(prefix: "in-process-jwt")
        let p8 = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM)
        let t = TestWorld(home: dir.path, now: 1_700_000_123)
        #expect(t.run(["jwt", "--auth-key", p8, "--team-id", "TEAMID1234"]) == 0, "\(t.stderr.text)")
        let token = t.stdout.text.trimmingCharacters(in: .newlines)
        let parts = try #require(ProviderToken.Parts(token))
        #expect(parts.issuedAt == 1_700_000_123)
        #expect(t.stderr.text.isEmpty)
    }

    /// Signed tokens are cached under the world's `$XDG_CACHE_HOME/apnsctl`, else its home's `.cache/apnsctl`;
    /// with no home at all nothing is cached and the world's standard error says so.
    @Test func theTokenCacheLivesUnderTheWorldsCacheRoot() throws {
        let dir = try TemporaryDirectory(prefix: "in-process-cache")
        let p8 = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM)
        let arguments = [
            "--auth-key", p8, "--team-id", "TEAMID1234", "--topic", "com.example.app", "--alert", "hi", "-d", Self.good,
        ]
        let file = "apnsctl/token-TEAMID1234-ABCDE12345.jwt"

        let xdg = TestWorld(variables: ["XDG_CACHE_HOME": dir.file("xdg-cache")], home: dir.file("home"))
        #expect(xdg.world.tokenCacheDirectory == dir.file("xdg-cache/apnsctl"))
        let settings = try APNSCtl.Send.parse(arguments).resolveSettings(in: xdg.world)
        #expect(try settings.providerToken(now: 1_800_000_000, in: xdg.world) != nil)
        #expect(FileManager.default.fileExists(atPath: dir.file("xdg-cache/" + file)))
        #expect(!FileManager.default.fileExists(atPath: dir.file("home/.cache/" + file)))

        let home = TestWorld(variables: ["XDG_CACHE_HOME": "relative/ignored"], home: dir.file("home"))
        #expect(home.world.tokenCacheDirectory == dir.file("home/.cache/apnsctl"))
        #expect(
            try APNSCtl.Send.parse(arguments).resolveSettings(in: home.world).providerToken(
                now: 1_800_000_000, in: home.world) != nil)
        #expect(FileManager.default.fileExists(atPath: dir.file("home/.cache/" + file)))

        let homeless = TestWorld(variables: [:], home: nil)
        #expect(homeless.world.tokenCacheDirectory == nil)
        #expect(
            try APNSCtl.Send.parse(arguments).resolveSettings(in: homeless.world).providerToken(
                now: 1_800_000_000, in: homeless.world) != nil)
        #expect(
            homeless.stderr.text.hasPrefix(
                "warning: no home directory ($HOME is unset and the password database gives this user no existing directory, and $XDG_CACHE_HOME is unset or relative)"
            ),
            "\(homeless.stderr.text)")
    }
}
