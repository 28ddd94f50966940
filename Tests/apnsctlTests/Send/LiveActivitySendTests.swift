import APNSCore
import APNSCrypto
import APNSHTTP2
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `send --live-activity`, `--content-changed` and the Live Activity rules, the built binary against the mock,
/// checking what the mock received (CLI.md, "Live Activities and widgets").
@Suite struct LiveActivitySendTests {
    static let bundle = "com.example.demo"
    static let laTopic = bundle + ".push-type.liveactivity"

    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "ab" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    /// One request as the mock's checks saw it.
    struct Received: Sendable {
        let headers: [String: String]
        let body: String
        let event: String?
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:] }
        var aps: [String: Any] { json["aps"] as? [String: Any] ?? [:] }
    }

    /// A mock recording every request, trusting `credentials`' CA for client certificates when given.
    final class RecordingMock: Sendable {
        let mock: ObservedMock
        let received = LockedValue<[Received]>([])
        let scratch: TemporaryDirectory

        init(
            trusting credentials: TestCredentials? = nil,
            configure: @escaping (inout MockConfiguration) -> Void = { _ in }
        ) throws {
            let received = self.received
            mock = try ObservedMock { configuration in
                if let credentials { configuration.identity.clientCA = credentials.ca.certificate }
                configuration.rules.onRequest = { request, decision in
                    var headers: [String: String] = [:]
                    for h in request.headers { headers[h.name] = h.value }
                    let r = Received(
                        headers: headers, body: String(decoding: request.body, as: UTF8.self),
                        event: decision.liveActivityEvent)
                    received.withLock { $0.append(r) }
                }
                configure(&configuration)
            }
            scratch = try TemporaryDirectory(prefix: "la-send")
        }

        var requests: [Received] { received.withLock { $0 } }

        /// `send` with token auth (topic: the bare bundle id unless `extra` gives one).
        func tokenSend(_ extra: [String], topic: String? = LiveActivitySendTests.bundle, stdin: [UInt8]? = nil) throws
            -> CommandResult
        {
            try InProcess.apnsctl(
                [
                    "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--auth-key", mock.authKeyFile,
                    "--key-id", mock.keyID, "--team-id", mock.teamID,
                ] + (topic.map { ["--topic", $0] } ?? []) + extra,
                stdin: stdin, environment: ["XDG_CACHE_HOME": scratch.path])
        }

        /// `send` with the certificate `cert`.
        func certSend(_ cert: String, _ extra: [String]) throws -> CommandResult {
            try InProcess.apnsctl(
                ["send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", cert] + extra,
                environment: ["XDG_CACHE_HOME": scratch.path])
        }
    }

    static let startFlags = [
        "--live-activity", "start", "--attributes-type", "DeliveryAttributes", "--attributes", #"{"orderID":"A17"}"#,
        "--content-state", #"{"eta":12}"#, "--title", "Order A17", "--alert", "Your courier is on the way",
    ]
    static let updateFlags = ["--live-activity", "update", "--content-state", #"{"eta":5}"#, "--stale-date", "15m"]
    static let endFlags = ["--live-activity", "end", "--content-state", #"{"eta":0}"#, "--dismissal-date", "1h"]

    /// start, update, end: what the mock received, with `send` run by `run`.
    func checkSession(_ mock: RecordingMock, _ run: ([String]) throws -> CommandResult) throws {
        for (i, flags) in [Self.startFlags, Self.updateFlags, Self.endFlags].enumerated() {
            let before = Int(Date().timeIntervalSince1970)
            let r = try run(flags + ["-d", Self.token(1)])
            let after = Int(Date().timeIntervalSince1970)
            #expect(r.status == 0, "\(flags): \(r.stderr)")
            #expect(r.stderr.isEmpty, "\(r.stderr)")
            let got = try #require(
                mock.requests.count == i + 1 ? mock.requests.last : nil, "\(mock.requests.count) requests")
            #expect(got.headers["apns-topic"] == Self.laTopic)
            #expect(got.headers["apns-push-type"] == "liveactivity")
            #expect(got.headers["apns-priority"] == "10")
            #expect(got.headers["apns-expiration"] == nil)
            let timestamp = try #require(got.aps["timestamp"] as? Int)
            // time(2) reads a coarse clock that may still show the last second a few milliseconds after Date()
            // shows the next: one second of slack below, none above.
            #expect(timestamp >= before - 1 && timestamp <= after, "\(timestamp) not in \(before)...\(after)")
            #expect(got.event == flags[1])
            switch i {
            case 0:
                #expect(
                    got.body
                        == #"{"aps":{"event":"start","timestamp":\#(timestamp),"content-state":{"eta":12},"attributes-type":"DeliveryAttributes","attributes":{"orderID":"A17"},"alert":{"title":"Order A17","body":"Your courier is on the way"}}}"#
                )
            case 1:
                let prefix =
                    #"{"aps":{"event":"update","timestamp":\#(timestamp),"content-state":{"eta":5},"stale-date":"#
                #expect(got.body.hasPrefix(prefix), "\(got.body)")
                #expect(got.aps["stale-date"] as? Int == timestamp + 900)
            default:
                let prefix =
                    #"{"aps":{"event":"end","timestamp":\#(timestamp),"content-state":{"eta":0},"dismissal-date":"#
                #expect(got.body.hasPrefix(prefix), "\(got.body)")
                let dismissal = try #require(got.aps["dismissal-date"] as? Int)
                // time(2)'s coarse clock may lag Date() by a tick at a second's edge.
                #expect(dismissal >= before - 1 + 3600 && dismissal <= after + 3600)
            }
        }
    }

    @Test func startUpdateEndWithTokenAuth() throws {
        let mock = try RecordingMock()
        try checkSession(mock) { try mock.tokenSend($0) }
    }

    /// The built-in `mock-token` profile: the mock's endpoint, CA, key, key id, team id and topic from its
    /// mock.json, with nothing else on the command line.
    @Test func startUpdateEndWithTheMockTokenProfile() throws {
        let mock = try RecordingMock()
        try MockReadyFile.write(state: mock.mock.state, endpoint: mock.mock.endpoint, environment: .sandbox)
        let environment = [
            "APNSCTL_MOCK_STATE_DIR": mock.mock.state.directory, "XDG_CACHE_HOME": mock.scratch.path,
            "XDG_CONFIG_HOME": mock.scratch.file("config"),
        ]
        try checkSession(mock) { try InProcess.apnsctl(["send", "-p", "mock-token"] + $0, environment: environment) }
        let jwt = try InProcess.apnsctl(["jwt", "-p", "mock-token"], environment: environment)
        #expect(jwt.status == 0, "\(jwt.stderr)")
        #expect(jwt.stdout.split(separator: ".").count == 3)
        // An .apns file's bundle comes before the profile's default topic, and -v says which topic went out and why
        // (its settings line names only the profile's).
        let apns = try mock.scratch.write(
            "other.apns", #"{"Simulator Target Bundle":"com.other.app","aps":{"alert":"x"}}"#)
        let other = try InProcess.apnsctl(
            ["send", apns, "-p", "mock-token", "-d", Self.token(1), "-v", "--dry-run"], environment: environment)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(
            other.stderr.contains("\n* topic com.other.app (the payload's \"Simulator Target Bundle\", before "),
            "\(other.stderr)")
        #expect(other.stdout.contains("apns-topic: com.other.app"), "\(other.stdout)")
    }

    @Test func startUpdateEndWithACertificateListingTheTopic() throws {
        let credentials = try TestCredentials(kind: .universal(topics: [Self.bundle, Self.laTopic]))
        let mock = try RecordingMock(trusting: credentials)
        try checkSession(mock) { try mock.certSend(credentials.pushFile, $0) }
    }

    @Test func certificateWhoseTopicsLackTheLiveActivityTopicIs77BeforeConnecting() throws {
        let mock = try RecordingMock()
        let r = try mock.certSend(mock.mock.certificateFile, Self.updateFlags + ["-d", Self.token(1)])
        #expect(r.status == 77)
        #expect(r.errorLines.count == 1, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "its topics (com.example.demo, com.example.demo.voip, com.example.demo.complication) lack com.example.demo.push-type.liveactivity"
            ))
        #expect(r.stderr.contains("--auth-key"))
        // A saved Live Activity file with the certificate's bare bundle id: the same advice, not a topic it cannot use.
        let file = try mock.certSend(
            mock.mock.certificateFile, [Repository.path("Payloads/liveactivity-update.json"), "-d", Self.token(1)])
        #expect(file.status == 77, "\(file.stderr)")
        #expect(
            file.stderr.contains("lack com.example.demo.push-type.liveactivity, so APNs would answer TopicDisallowed"))
        #expect(mock.requests.isEmpty)
    }

    /// `-p mock` gives the mock's certificate, which (like Apple's) lacks the Live Activity topic: the 77 names
    /// where the certificate came from (the user typed no --cert) and the profile with the mock's key, and
    /// following that advice is accepted.
    @Test func theMockProfilesCertificateNamesItsOriginAndTheMocksKey() throws {
        let mock = try InProcessMock()
        let environment = [
            "APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path, "XDG_CACHE_HOME": mock.stateDirectory.path + "/cache",
            "XDG_CONFIG_HOME": mock.stateDirectory.path + "/config",
        ]
        let refused = try InProcess.apnsctl(
            ["send", "-p", "mock"] + Self.updateFlags + ["-d", Self.token(1)], environment: environment)
        #expect(refused.status == 77)
        let readyFile = mock.stateDirectory.file("mock.json")
        #expect(
            refused.stderr.hasPrefix("error: cert of the mock profile (\(readyFile)) \(mock.certificate): its topics"),
            "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix("; or with the mock's key: -p mock-token instead of -p mock\n"))
        let followed = try InProcess.apnsctl(
            ["send", "-p", "mock-token"] + Self.updateFlags + ["-d", Self.token(1)], environment: environment)
        #expect(followed.status == 0, "\(followed.stdout)\(followed.stderr)")
        #expect(followed.stdout.hasPrefix("accepted  200"))
    }

    @Test func certificateWithoutATopicListIsAWarningAndIsSent() throws {
        let credentials = try TestCredentials(kind: .development)
        let mock = try RecordingMock(trusting: credentials)
        let r = try mock.certSend(credentials.pushFile, Self.updateFlags + ["-d", Self.token(1)])
        #expect(r.stderr.hasPrefix("warning: --cert "), "\(r.stderr)")
        #expect(r.stderr.contains("Live Activities may need token auth"))
        #expect(mock.requests.count == 1)
        #expect(r.stdout.contains("TopicDisallowed"), "the mock answers as APNs does: \(r.stdout)")
    }

    @Test func timestampNowOnAFileKeepsEverythingElse() throws {
        let mock = try RecordingMock()
        let file = """
            {
              "aps": {
                "timestamp": 1762167000,
                "event": "update",
                "content-state": {"health": 42, "note": "caf\\u00e9"}
              },
              "trace": 1.50
            }
            """
        let path = try mock.scratch.write("update.json", file)
        let before = Int(Date().timeIntervalSince1970)
        let r = try mock.tokenSend([path, "--timestamp", "now", "-d", Self.token(1)], topic: Self.laTopic)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let got = try #require(mock.requests.first)
        let timestamp = try #require(got.aps["timestamp"] as? Int)
        #expect(timestamp >= before - 1)  // time(2) reads a coarse clock: it may lag Date() by a tick
        #expect(got.body == file.replacingOccurrences(of: "1762167000", with: String(timestamp)))
        // Without the flag the file goes byte for byte, and the old timestamp is a warning.
        let again = try mock.tokenSend([path, "-d", Self.token(1)], topic: Self.laTopic)
        #expect(again.status == 0)
        #expect(
            again.stderr.contains(
                "warning: \(path):3:18: aps.timestamp: timestamp 1762167000 (2025-11-03T10:50:00Z) is "),
            "\(again.stderr)")
        #expect(again.stderr.contains("send it with --timestamp now"))
        #expect(mock.requests.last?.body == file)
    }

    /// A problem at a key the flags wrote into a PAYLOAD names the flag: its line and column were the edited
    /// payload's, pointing at a `}` or another key of the file. The file's own keys keep FILE:LINE:COLUMN.
    @Test func aProblemAtAKeyAFlagWroteIntoAFileNamesTheFlag() throws {
        let mock = try RecordingMock()
        let path = try mock.scratch.write(
            "update.json",
            "{\n  \"aps\": {\n    \"event\": \"update\",\n    \"timestamp\": 1,\n    \"content-state\": {},\n    \"sound\": \"x\"\n  }\n}\n"
        )
        let r = try mock.tokenSend(
            [path, "--timestamp", "now", "--input-push-token", "--dismissal-date", "now", "-d", Self.token(1)],
            topic: Self.laTopic)
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").map(String.init)
        #expect(warnings.contains { $0.hasPrefix("warning: --input-push-token: ") }, "\(r.stderr)")
        #expect(warnings.contains { $0.hasPrefix("warning: --dismissal-date: ") }, "\(r.stderr)")
        #expect(!warnings.contains { $0.contains("aps.input-push-token") || $0.contains("aps.dismissal-date") })
        // The file's own key (a sound outside a Live Activity alert) is still named by its place in the file.
        #expect(warnings.contains { $0.hasPrefix("warning: \(path):6:") }, "\(r.stderr)")
    }

    @Test func widgetsGoOutAsApplesSampleSendsThem() throws {
        let mock = try RecordingMock()
        for type in ["widgets", "controls"] {
            let r = try mock.tokenSend(["--content-changed", "--push-type", type, "-d", Self.token(1)])
            #expect(r.status == 0, "\(r.stderr)")
            let got = try #require(mock.requests.last)
            #expect(got.body == #"{"aps":{"content-changed":true}}"#)
            #expect(got.headers["apns-topic"] == "\(Self.bundle).push-type.\(type)")
            #expect(got.headers["apns-push-type"] == type)
            #expect(got.headers["apns-priority"] == nil)
            #expect(got.headers["apns-expiration"] == nil)
        }
        let given = try mock.tokenSend([
            "--content-changed", "--push-type", "widgets", "--priority", "5", "--expiration", "1h", "-d", Self.token(1),
        ])
        #expect(given.status == 0)
        #expect(
            given.stderr.hasPrefix("warning: --expiration: widgets pushes are sent without apns-expiration by default"),
            "\(given.stderr)")
        #expect(mock.requests.last?.headers["apns-priority"] == "5")
        #expect(mock.requests.last?.headers["apns-expiration"] != nil)
    }

    /// Bad input: exit 64, one `error:` line naming the flag, nothing sent.
    static let usageErrors: [([String], String, [UInt8]?)] = [
        (
            ["--live-activity", "update", "--content-state", "[1]"], "error: --content-state: must be a JSON object",
            nil
        ),
        (
            ["--live-activity", "update", "--content-state", "{\"eta\":}"],
            "error: --content-state: line 1, column 8: not valid JSON", nil
        ),
        (["--live-activity", "end", "--dismissal-date", "soon"], "error: --dismissal-date soon: not a time", nil),
        (
            ["--live-activity", "update", "--relevance-score", "abc"], "error: --relevance-score \"abc\": not a number",
            nil
        ),
        (["--alert", "hi", "--stale-date", "1h"], "error: --stale-date: only Live Activity pushes carry it", nil),
        (
            ["--live-activity", "start", "--content-state", "@-", "--attributes", "@-"],
            "error: --content-state @- and --attributes @- both read standard input", Array("{}".utf8)
        ),
        (
            ["--content-changed"],
            "error: --content-changed: aps holds only content-changed, which both widgets and controls pushes carry; give --push-type widgets or controls",
            nil
        ),
        // A PAYLOAD's topic is sent as given: the advice says to give it with its suffix (the flag adds it).
        (
            [#"{"aps":{"content-changed":true}}"#],
            "error: (inline): aps holds only content-changed, which both widgets and controls pushes carry; give --push-type widgets or controls (and --topic ",
            nil
        ),
        (
            ["--live-activity", "update", "--push-type", "alert"],
            "error: --push-type alert: --live-activity builds a liveactivity push", nil
        ),
        (["--live-activity", "later"], "error: --live-activity \"later\": must be start, update or end", nil),
        (["--live-activity", "update", "--timestamp", "yesterday"], "error: --timestamp \"yesterday\": give now", nil),
    ]

    @Test(arguments: usageErrors.indices)
    func badInputIsAUsageErrorAndSendsNothing(index: Int) throws {
        let (args, message, stdin) = Self.usageErrors[index]
        let mock = try RecordingMock()
        let r = try mock.tokenSend(args + ["-d", Self.token(1)], stdin: stdin)
        #expect(r.status == 64, "\(args): \(r.stderr)")
        #expect(r.errorLines.count == 1 && r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        #expect(mock.requests.isEmpty)
    }

    @Test func missingFileIs66() throws {
        let mock = try RecordingMock()
        let r = try mock.tokenSend([
            "--live-activity", "update", "--content-state", "@" + mock.scratch.file("nope.json"), "-d", Self.token(1),
        ])
        #expect(r.status == 66)
        #expect(r.stderr.hasPrefix("error: --content-state @\(mock.scratch.file("nope.json")): "), "\(r.stderr)")
        #expect(mock.requests.isEmpty)
    }

    /// Shell completion offers a file's name after --content-state and --attributes: the name without @ is told
    /// apart from JSON, with the @FILE spelling to write.
    @Test func aFileNameWithoutTheAtSignIsToldSo() throws {
        let mock = try RecordingMock()
        let state = try mock.scratch.write("state.json", #"{"eta":1}"#)
        for flag in ["--content-state", "--attributes"] {
            let other = flag == "--attributes" ? "--content-state" : "--attributes"
            let r = try mock.tokenSend([
                "--live-activity", "start", "--attributes-type", "A", other, "{}", flag, state, "-d", Self.token(1),
            ])
            #expect(r.status == 64)
            #expect(
                r.errorLines == [
                    "error: \(flag) \(state): a file's name, not JSON; write \(flag) @\(state) to read the file"
                ],
                "\(r.stderr)")
        }
        #expect(mock.requests.isEmpty)
    }

    /// `--alert @msg.txt`, written as the JSON flags take a file: the text flags take none, so the text goes out as
    /// written, with a warning saying how to send the file's text.
    @Test func aTextFlagGivenAnAtFileIsSentAsWrittenAndSaidSo() throws {
        let mock = try RecordingMock()
        let message = try mock.scratch.write("msg.txt", "Hello\n")
        let r = try mock.tokenSend(["--alert", "@" + message, "-d", Self.token(1)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr
                == "warning: --alert @\(message): sent as that text; --alert reads no @FILE (the JSON flags do), so to send the text in \(message), write --alert \"$(cat \(message))\"\n"
        )
        #expect(mock.requests.count == 1)
        // A payload file is send's argument, never an alert's text: `"$(cat alert.json)"` would put JSON on screen.
        let payload = try mock.scratch.write("alert.json", #"{"aps":{"alert":"hi"}}"#)
        let json = try mock.tokenSend(["--alert", "@" + payload, "-d", Self.token(1)])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(
            json.stderr
                == "warning: --alert @\(payload): sent as that text; --alert reads no @FILE (the JSON flags do), so to send the payload in \(payload), give it as send's argument without --alert (apnsctl send \(payload) -d TOKEN)\n",
            "\(json.stderr)")
        // The attributes' JSON given to --attributes-type goes in --attributes, never as the payload.
        var start = Self.startFlags
        start[start.firstIndex(of: "DeliveryAttributes") ?? 0] = "@" + payload
        let attributes = try mock.tokenSend(start + ["-d", Self.token(1), "--dry-run"])
        #expect(
            attributes.stderr.contains(
                "so to send the attributes in \(payload), give them as --attributes @\(payload) (and the type's name"),
            "\(attributes.stderr)")
        // `@-`, as the JSON flags read standard input: nothing is read, and that is said with how to send a pipe's text.
        for value in ["@-", "@/dev/stdin"] {
            let piped = try mock.tokenSend(["--title", value, "-d", Self.token(1)])
            #expect(piped.status == 0, "\(piped.stderr)")
            #expect(
                piped.stderr
                    == "warning: --title \(value): sent as that text; --title reads nothing from standard input (the JSON flags' @- does), so to send the text a pipe gives, write --title \"$(cat)\"\n"
            )
        }
        #expect(mock.requests.count == 4)
        // A duplicate key in a flag's JSON is named without a position in the payload the flags built.
        let duplicate = try mock.tokenSend([
            "--live-activity", "update", "--content-state", #"{"eta":5,"eta":6}"#, "-d", Self.token(1),
        ])
        #expect(
            duplicate.stderr.contains(
                #"warning: --content-state: eta: duplicate key "eta"; JSON parsers disagree on which copy wins: keep one"#
            ), "\(duplicate.stderr)")
        // No file of that name, no warning: `@everyone` is a message.
        let plain = try mock.tokenSend(["--alert", "@everyone", "-d", Self.token(1)])
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
        // A dictionary typed where text goes is sent as text too, and said (a critical sound cannot be a flag's).
        let sound = try mock.tokenSend(
            ["--alert", "x", "--sound", #"{"critical":1,"name":"default","volume":1}"#, "-d", Self.token(1)])
        #expect(sound.status == 0, "\(sound.stderr)")
        #expect(
            sound.stderr
                == "warning: --sound '{…}': sent as text, not JSON (--sound takes text); for a critical alert's sound dictionary, write the payload as a file or inline JSON: apnsctl send '{\"aps\":{…}}'\n"
        )
        let alert = try mock.tokenSend(["--alert", #"{"title":"T","body":"B"}"#, "-d", Self.token(1)])
        #expect(alert.stderr.hasPrefix("warning: --alert '{…}': sent as text, not JSON"), "\(alert.stderr)")
    }

    @Test func broadcastUpdateAndEndAreBuiltTheSameWay() throws {
        let mock = try InProcessMock(keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "la-broadcast")
        let auth = [
            "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--auth-key", mock.authKey, "--team-id", mock.teamID,
            "--topic", mock.bundleID,
        ]
        let env = ["XDG_CACHE_HOME": scratch.path]
        let id = try #require(try InProcess.apnsctl(["channel", "create"] + auth, environment: env).lines.first)
        for event in ["update", "end"] {
            let dry = try InProcess.apnsctl(
                [
                    "send", "--channel", id, "--live-activity", event, "--content-state", #"{"eta":1}"#,
                    "--timestamp", "now", "--dry-run",
                ] + auth, environment: env)
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.contains(#"{"aps":{"event":"\#(event)","timestamp":"#), "\(dry.stdout)")
            let r = try InProcess.apnsctl(
                ["send", "--channel", id, "--live-activity", event, "--content-state", #"{"eta":1}"#] + auth,
                environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix("accepted  200  \(id)"), "\(r.stdout)")
        }
    }

    @Test func broadcastStartIsAUsageError() throws {
        let mock = try RecordingMock()
        let r = try mock.tokenSend(["--channel", "dHN0LXNyYw==", "--live-activity", "start"], topic: Self.bundle)
        #expect(r.status == 64)
        #expect(
            r.stderr.hasPrefix("error: --live-activity start: a broadcast cannot start a Live Activity"), "\(r.stderr)")
    }

    /// Warnings never block a send: each is printed with the flag that set the key (and the path inside its
    /// JSON), and the push goes out.
    static let warnings: [([String], String)] = [
        (
            ["--live-activity", "update", "--content-state", #"{"eta":1764151200}"#],
            "warning: --content-state: eta: 1764151200 looks like a UNIX time; ActivityKit decodes a Swift Date as seconds since 2001-01-01, so a Date field would show 2056-11-26T10:00:00Z: if eta is a Date, send 785844000"
        ),
        (
            ["--live-activity", "update", "--content-state", #"{"at":[1764151200000]}"#],
            "warning: --content-state: at[0]: 1764151200000 looks like a UNIX time in milliseconds"
        ),
        (
            ["--live-activity", "update", "--content-state", "{}", "--dismissal-date", "1h"],
            "warning: --dismissal-date: dismissal-date is used only when event is end"
        ),
        (
            ["--live-activity", "update", "--content-state", "{}", "--input-push-token"],
            "warning: --input-push-token: input-push-token is used only when event is start"
        ),
        (
            ["--live-activity", "end", "--content-state", "{}", "--timestamp", "1700000000"],
            "warning: --timestamp: timestamp 1700000000 (2023-11-14T22:13:20Z) is "
        ),
    ]

    @Test(arguments: warnings.indices)
    func warningsNameTheFlagAndStillSend(index: Int) throws {
        let (args, message) = Self.warnings[index]
        let mock = try RecordingMock()
        let r = try mock.tokenSend(args + ["-d", Self.token(1)])
        #expect(r.status == 0, "\(args): \(r.stderr)")
        #expect(r.stderr.hasPrefix(message), "\(r.stderr)")
        #expect(mock.requests.count == 1)
    }

    /// A timestamp in milliseconds would be the highest iOS has seen, and every later update would be dropped:
    /// `send` refuses it (65) and sends nothing.
    @Test func aTimestampInMillisecondsIsRefused() throws {
        let mock = try RecordingMock()
        let r = try mock.tokenSend(
            ["--live-activity", "end", "--content-state", "{}", "--timestamp", "1764151200000", "-d", Self.token(1)])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(
            r.stderr.hasPrefix("error: --timestamp: timestamp 1764151200000 looks like milliseconds"), "\(r.stderr)")
        #expect(mock.requests.isEmpty)
    }

    @Test func tokenReasonsOfALiveActivityPushExplainTheThreeTokens() throws {
        let mock = try RecordingMock {
            $0.rules.unregistered = [Self.token(2)]
            $0.rules.rejections = [Self.token(3): .badDeviceToken, Self.token(4): .deviceTokenNotForTopic]
        }
        let r = try mock.tokenSend(Self.endFlags + ["-d", Self.token(2), "-d", Self.token(3), "-d", Self.token(4)])
        #expect(r.status == 1)
        let gone = try #require(r.lines.first { $0.hasPrefix("rejected  410  Unregistered") })
        #expect(gone.contains("an activity update token stops working when its activity ends"))
        #expect(gone.contains("Live Activities use three different tokens"))
        #expect(gone.contains("iOS issues a new push-to-start token after one is used"))
        let bad = try #require(r.lines.first { $0.hasPrefix("rejected  400  BadDeviceToken") })
        #expect(bad.contains("three different tokens") && bad.contains("--env sandbox"))
        #expect(
            r.lines.contains {
                $0.hasPrefix("rejected  400  DeviceTokenNotForTopic")
                    && $0.contains("a device token is not a Live Activity token")
            })
        let json = try mock.tokenSend(Self.endFlags + ["-d", Self.token(2), "-o", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["meaning"] as? String)?.contains("stops working when its activity ends") == true)
        #expect((object["hint"] as? String)?.contains("three different tokens") == true)
        // An ordinary push keeps the ordinary advice.
        let plain = try mock.tokenSend(["--alert", "x", "-d", Self.token(2)])
        #expect(plain.stdout.contains("Stop sending to this token unless the app registers it again."))
        // VoIP and push-to-talk name their own token first: the app's device token pasted instead is the usual slip.
        for (type, suffix, words) in [
            ("voip", ".voip", "A VoIP push goes to the app's PushKit token"),
            ("pushtotalk", ".voip-ptt", "A push-to-talk push goes to the channel's push token"),
        ] {
            let pushKit = try mock.tokenSend(
                ["--push-type", type, "-d", Self.token(3), "-d", Self.token(4), #"{"aps":{},"call":1}"#],
                topic: LiveActivitySendTests.bundle + suffix)
            #expect(pushKit.status == 1, "\(pushKit.stderr)")
            #expect(
                pushKit.lines.filter { $0.hasPrefix("rejected") }.count == 2
                    && pushKit.lines.filter { $0.hasPrefix("rejected") }.allSatisfy { $0.contains(words) },
                "\(type): \(pushKit.stdout)")
        }
    }

    /// The same against `apnsctl mock` as a process, told with its own flags.
    @Test func apnsctlMockUnregisteredAndRejectGiveTheLiveActivityHints() throws {
        let mock = try InProcessMock(["--unregistered", Self.token(2), "--reject", "\(Self.token(3))=BadDeviceToken"])
        let scratch = try TemporaryDirectory(prefix: "la-hints")
        let r = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--auth-key", mock.authKey,
                "--team-id", mock.teamID, "--topic", mock.bundleID,
            ] + Self.updateFlags
                + ["-d", Self.token(2), "-d", Self.token(3), "-o", "json"],
            environment: ["XDG_CACHE_HOME": scratch.path])
        #expect(r.status == 1, "\(r.stderr)")
        let objects = r.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 2)
        for object in objects {
            #expect(
                (object["hint"] as? String)?.hasPrefix("Live Activities use three different tokens") == true,
                "\(object)")
        }
        #expect(
            objects.contains {
                $0["reason"] as? String == "Unregistered"
                    && ($0["meaning"] as? String)?.contains("stops working when its activity ends") == true
            })
        #expect(
            objects.contains {
                $0["reason"] as? String == "BadDeviceToken"
                    && ($0["meaning"] as? String)?.contains("not a Live Activity token") == true
            })
    }

    /// A payload holding characters a terminal acts on or reorders (a bidirectional override, a C1 CSI, DEL; all
    /// valid inside JSON strings) is printed escaped by the dry run, text and curl block alike, and the block,
    /// pasted into sh, still sends its exact bytes (with %, \\ and ' in it) and leaves no file behind.
    @Test func dryRunOfHiddenCharactersPrintsThemEscapedAndSendsThemExactly() throws {
        let credentials = try TestCredentials()
        let mock = try RecordingMock(trusting: credentials)
        let payload = "{\"aps\":{\"alert\":\"abc\u{202E}def 100% \\\\ it's\"},\"x\":\"\u{9B}31m\u{7F}\"}"
        let file = try mock.scratch.write("hidden.json", payload)
        let dry = try mock.certSend(credentials.pushFile, [file, "-d", Self.token(1), "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        for hidden in ["\u{202E}", "\u{9B}", "\u{7F}"] { #expect(!dry.stdout.contains(hidden)) }
        #expect(dry.stdout.contains(#"abc\u{202E}def"#), "\(dry.stdout)")
        let json = try mock.certSend(credentials.pushFile, [file, "-d", Self.token(1), "--dry-run", "-o", "json"])
        for hidden in ["\u{202E}", "\u{9B}", "\u{7F}"] { #expect(!json.stdout.contains(hidden)) }
        #expect(json.stdout.contains(#""alert":"abc\u202edef 100% \\ it's""#), "\(json.stdout)")
        let tmp = try TemporaryDirectory(prefix: "hidden-tmp")
        let run = try CommandRunner.run(
            "/bin/sh", [], stdin: Array((DryRunCurlTests.curlPart(dry.stdout) ?? "").utf8),
            environment: ["TMPDIR": tmp.path])
        #expect(run.stdout.hasPrefix("HTTP/2 200"), "\(dry.stdout)\n\(run.stderr)")
        #expect(mock.requests.first?.body == payload)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
    }

    @Test func dryRunPayloadIsWhatTheCurlBlockSends() throws {
        let mock = try RecordingMock()
        let dry = try mock.tokenSend(Self.startFlags + ["-d", Self.token(1), "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let lines = dry.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let body = try #require(lines.first { $0.hasPrefix(#"{"aps":{"event":"start""#) })
        let script = try #require(DryRunCurlTests.curlPart(dry.stdout))
        let apnsctl = try ApnsctlByName(in: mock.scratch)
        let run = try CommandRunner.run(
            "/bin/sh", [], stdin: Array(script.utf8),
            environment: ["PATH": apnsctl.searchPath(), "XDG_CACHE_HOME": mock.scratch.path])
        apnsctl.stop()
        #expect(apnsctl.calls.map { $0.first } == ["jwt"], "\(apnsctl.calls)")
        #expect(run.stdout.hasPrefix("HTTP/2 200"), "\(run.stdout) \(run.stderr)")
        let got = try #require(mock.requests.first)
        #expect(got.body == body)
        #expect(got.headers["apns-topic"] == Self.laTopic)
    }
}
