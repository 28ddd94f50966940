import APNSCore
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// `apnsctl channel` and `send --channel`, the built binary, against `apnsctl mock` (APNS.md §11).
@Suite struct BroadcastMockTests {
    static let update = #"{"aps":{"event":"update","timestamp":1790000000,"content-state":{"score":"2-1"}}}"#
    static let end =
        #"{"aps":{"event":"end","timestamp":1790000100,"content-state":{"score":"3-1"},"dismissal-date":1790003600}}"#
    static let start =
        #"{"aps":{"event":"start","timestamp":1790000000,"content-state":{},"alert":{"title":"Kick-off"},"attributes-type":"Match","attributes":{}}}"#

    enum Auth: String, CaseIterable, Sendable { case certificate, token }

    /// Credential and connection flags for `mock` with `auth`.
    static func flags(_ mock: InProcessMock, _ auth: Auth, topic: String? = nil) -> [String] {
        var f = ["--endpoint", mock.endpoint, "--ca-file", mock.caFile]
        switch auth {
        case .certificate: f += ["--cert", mock.certificate]
        case .token: f += ["--auth-key", mock.authKey, "--team-id", mock.teamID, "--topic", topic ?? mock.bundleID]
        }
        if let topic, auth == .certificate { f += ["--topic", topic] }
        return f
    }

    private func run(_ args: [String], _ scratch: TemporaryDirectory) throws -> CommandResult {
        try InProcess.apnsctl(args, environment: ["XDG_CACHE_HOME": scratch.path])
    }

    private func requestID(in text: String) -> String? {
        guard let r = text.range(of: "apns-request-id: ") ?? text.range(of: "apns-request-id=") else { return nil }
        return String(text[r.upperBound...].prefix(36))
    }

    /// A standard output that fails (a full disk) after APNs made or removed the channel: exit 74, and stderr says
    /// what was done, the new id included (the lost line was its only record).
    @Test func aFailedOutputSaysTheChannelWasCreatedOrDeleted() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "broadcast-74")
        let f = Self.flags(mock, .certificate)
        for format in ["text", "json"] {
            let create = TestWorld(
                variables: ["XDG_CACHE_HOME": scratch.path], home: scratch.path,
                output: MemoryOutput(failingAfter: 0, with: ENOSPC))
            #expect(create.run(["channel", "create", "-o", format] + f) == 74, "\(create.stderr.text)")
            let prefix =
                "error: writing standard output: No space left on device; the channel was created, and its id "
                + "was not printed: "
            let line = try #require(create.stderr.lines.first { $0.hasPrefix(prefix) }, "\(create.stderr.text)")
            let id = String(line.dropFirst(prefix.count))
            #expect(Broadcast.isChannelIDSyntax(id), "\(line)")
            #expect(try run(["channel", "get", id] + f, scratch).status == 0)

            let delete = TestWorld(
                variables: ["XDG_CACHE_HOME": scratch.path], home: scratch.path,
                output: MemoryOutput(failingAfter: 0, with: ENOSPC))
            #expect(delete.run(["channel", "delete", id, "--yes", "-o", format] + f) == 74, "\(delete.stderr.text)")
            #expect(
                delete.stderr.lines.contains(
                    "error: writing standard output: No space left on device; the channel \(id) was deleted"),
                "\(delete.stderr.text)")
            #expect(try run(["channel", "get", id] + f, scratch).status == 1)
        }
    }

    /// `--port` picks a device push port; channel management listens on its own, so the flag is said to be unused
    /// (it was silently ignored). Through a proxy that is not there, nothing reaches Apple.
    @Test func aPortGivenToChannelIsSaidToBeUnused() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "broadcast-port")
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let r = try run(
            [
                "channel", "list", "--auth-key", mock.authKey, "--team-id", mock.teamID, "--topic", mock.bundleID,
                "--port", "2197", "--proxy", "http://127.0.0.1:\(refusing.port)",
            ], scratch)
        #expect(r.status == 69, "\(r.stderr)")
        #expect(
            r.errorLines.first
                == "warning: --port 2197 is not used by channel: Apple's channel management host listens on 2195 (sandbox) and 2196 (production)",
            "\(r.stderr)")
        let withEndpoint = try run(["channel", "list", "--port", "2197"] + Self.flags(mock, .token), scratch)
        #expect(!withEndpoint.stderr.contains("is not used by channel"), "\(withEndpoint.stderr)")
    }

    @Test(arguments: Auth.allCases)
    func channelLifecycle(auth: Auth) throws {
        let mock = try InProcessMock(keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "broadcast")
        let f = Self.flags(mock, auth)

        let created = try run(["channel", "create", "--storage", "most-recent"] + f, scratch)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.lines.count == 1)
        let id = try #require(created.lines.first)
        #expect(Broadcast.isChannelIDSyntax(id), "\(id)")
        #expect(UUIDString.isCanonical(requestID(in: created.stderr) ?? ""), "\(created.stderr)")
        #expect(FileManager.default.fileExists(atPath: mock.stateDirectory.file("channels.json")))

        let updated = try run(["send", Self.update, "--channel", id] + f, scratch)
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(updated.stdout.hasPrefix("accepted  200  \(id)  apns-request-id="), "\(updated.stdout)")
        // The mock's received line names the channel (for a broadcast never answered, the only record of it).
        let received = (try? String(contentsOfFile: mock.logFile, encoding: .utf8)) ?? ""
        #expect(
            received.split(separator: "\n").contains {
                $0.contains(#""event":"received""#) && $0.contains(#""path":"/4/broadcasts/apps/"#)
                    && $0.contains(#""channel":"\#(id)""#)
            }, "\(received)")
        // A channel given twice is broadcast once, with a warning, as a device given twice is sent once.
        let twice = try run(["send", Self.update, "--channel", id, "--channel", id] + f, scratch)
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(twice.lines.count == 1, "\(twice.stdout)")
        #expect(
            twice.stderr.contains("warning: --channel \(id) was given 2 times; it is broadcast once"), "\(twice.stderr)"
        )
        let ended = try run(["send", Self.end, "--channel", id, "--expiration", "1h", "-o", "json"] + f, scratch)
        #expect(ended.status == 0, "\(ended.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(ended.stdout.utf8)) as? [String: Any])
        #expect(object["channel"] as? String == id)
        #expect(object["status"] as? Int == 200)
        #expect(UUIDString.isCanonical(object["apns_request_id"] as? String ?? ""))
        #expect(object["device"] == nil)

        let got = try run(["channel", "get", id] + f, scratch)
        #expect(got.status == 0, "\(got.stderr)")
        #expect(
            got.lines == [
                "channel:   \(id)", "storage:   most-recent (Most Recent Message Stored)", "push type: LiveActivity",
            ])
        let listed = try run(["channel", "list"] + f, scratch)
        #expect(listed.lines == [id])
        let listedJSON = try run(["channel", "list", "-o", "json"] + f, scratch)
        let row = try #require(try JSONSerialization.jsonObject(with: Data(listedJSON.stdout.utf8)) as? [String: Any])
        #expect(row["channel"] as? String == id)
        #expect(row["storage"] as? String == "most-recent")
        #expect(UUIDString.isCanonical(row["apns_request_id"] as? String ?? ""))

        let deleted = try run(["channel", "delete", id, "--yes"] + f, scratch)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.lines == ["deleted \(id)"])
        #expect(try run(["channel", "list"] + f, scratch).stdout.isEmpty)

        let again = try run(["send", Self.update, "--channel", id] + f, scratch)
        #expect(again.status == 1)
        #expect(again.stdout.hasPrefix("rejected  400  ChannelNotRegistered  \(id)  "), "\(again.stdout)")
        #expect(again.stdout.contains(APNSReason.channelNotRegistered.hint(broadcast: true)))
        #expect(again.stdout.contains("apns-request-id="))

        // The mock logged each broadcast with "channel", never "device".
        // The log is written by a thread of its own: wait for the fourth broadcast's line (the channel given twice
        // was broadcast once).
        var log = ""
        var broadcasts: [Substring] = []
        Wait.until(interval: 0.05) {
            log = (try? String(contentsOfFile: mock.logFile, encoding: .utf8)) ?? ""
            broadcasts = log.split(separator: "\n").filter { $0.contains("\"operation\":\"broadcast\"") }
            return broadcasts.count >= 4
        }
        #expect(broadcasts.count == 4, "\(log)")
        #expect(broadcasts.allSatisfy { $0.contains("\"channel\":\"\(id)\"") && !$0.contains("\"device\"") })
        // Logged like a notification (mock.md): with the apns-expiration a broadcast must carry.
        #expect(broadcasts.allSatisfy { $0.contains("\"expiration\":\"") }, "\(log)")
        #expect(log.contains("\"auth\":\"\(auth.rawValue)\""))
    }

    /// A channel request the server never answers: exit 69, and the line says what the request may have done
    /// (a create may have made the channel, a delete removed it; a read changed nothing) instead of "APNs may have
    /// delivered it"; with `-o json` the request gets its object (status null, the error, its request id), as a
    /// device does in `send`, so `jq .channel` has something to read.
    @Test func anUnansweredChannelRequestSaysWhatItMayHaveDone() throws {
        let mock = try InProcessMock(["--fault-never-answer"])
        let scratch = try TemporaryDirectory(prefix: "channel-unanswered")
        let id = "AAAAAAAAAAAAAAAAAAAAAA=="
        let runs: [([String], String)] = [
            (
                ["create"],
                "unknown: no answer within 1 s; the channel may have been created: apnsctl channel list, with this command's flags except --storage, shows whether it was"
            ),
            (
                ["delete", id, "--yes"],
                "unknown: no answer within 1 s; the channel may have been deleted: apnsctl channel get \(id), with this command's flags except --yes, shows whether it was"
            ),
            (
                ["get", id],
                "no answer within 1 s; nothing changed (it only reads): run it again with a larger --timeout"
            ),
            (["list"], "no answer within 1 s; nothing changed (it only reads): run it again with a larger --timeout"),
        ]
        for (words, said) in runs {
            for json in [false, true] {
                let r = try run(
                    ["channel"] + words + Self.flags(mock, .certificate) + ["--timeout", "1"]
                        + (json ? ["-o", "json"] : []), scratch)
                #expect(r.status == 69, "\(words): \(r.stderr)")
                let line = try #require(r.errorLines.first, "\(words)")
                #expect(line.hasPrefix("error: \(said) (apns-request-id "), "\(line)")
                guard json else {
                    #expect(r.stdout.isEmpty, "\(r.stdout)")
                    continue
                }
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
                #expect(object["status"] is NSNull && object["channel"] as? String == words.dropFirst().first)
                let error = object["error"] as? String ?? ""
                let id = object["apns_request_id"] as? String ?? ""
                #expect(line == "error: \(error) (apns-request-id \(id))", "\(r.stdout)")
                // Only a create or a delete may have changed something.
                let changes = ["create", "delete"].contains(words[0])
                #expect((object["delivery"] as? String == "unknown") == changes, "\(r.stdout)")
                // The keys an answer's object has, null: `deleted` too, as the channel may have been deleted (false
                // told a script it certainly was not). A list's object carries its own request id as list_request_id.
                let keys = [
                    "create": ["storage"], "delete": ["deleted"], "get": ["storage", "push_type"],
                    "list": ["storage", "list_request_id"],
                ]
                for key in keys[words[0]] ?? [] { #expect(object.keys.contains(key), "\(key): \(r.stdout)") }
                #expect(words[0] != "delete" || object["deleted"] is NSNull, "\(r.stdout)")
                #expect(words[0] != "list" || object["list_request_id"] as? String == id, "\(r.stdout)")
            }
        }
    }

    /// `channel list -o json` whose read of one channel gets no answer: every channel still gets its object (the
    /// unanswered one with `"status":null`, its `list_request_id` and the error), then exit 69, so a script does
    /// not take a one-channel list for the whole.
    @Test func aListWithAnUnansweredReadPrintsEveryChannel() throws {
        // One request answered per connection: the creates, the list, and the first read; the second read is not.
        let mock = try InProcessMock(["--fault-drop-unanswered-after", "1"])
        let scratch = try TemporaryDirectory(prefix: "channel-unanswered-read")
        let f = Self.flags(mock, .certificate)
        let ids = try (0..<2).map { _ in try #require(try run(["channel", "create"] + f, scratch).lines.first) }
        let listed = try run(["channel", "list", "-o", "json"] + f, scratch)
        #expect(listed.status == 69, "\(listed.stderr)")
        let rows = try listed.lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(Set(rows.compactMap { $0["channel"] as? String }) == Set(ids), "\(listed.stdout)")
        let failed = rows.filter { $0["status"] is NSNull }
        #expect(failed.count == 1 && failed.first?["storage"] is NSNull, "\(listed.stdout)")
        #expect(Set(rows.map { Set($0.keys.filter { $0 != "error" }) }).count == 1, "same keys: \(listed.stdout)")
        #expect(rows.allSatisfy { $0["list_request_id"] is String }, "\(listed.stdout)")
        #expect((failed.first?["error"] as? String)?.contains("nothing changed (it only reads)") == true)
    }

    @Test func requestIDIsSentAsGivenAndPrinted() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "broadcast")
        let f = Self.flags(mock, .certificate)
        let given = "8A6C1F8E-0000-4000-8000-0000000000AB"
        let created = try run(["channel", "create", "--request-id", given, "-o", "json"] + f, scratch)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("\"apns_request_id\":\"\(given.lowercased())\""), "\(created.stdout)")
        #expect(created.stdout.contains("\"storage\":\"none\""))
    }

    /// `channel list -o json` keeps the list request's own id: `list_request_id` on every object, and on stderr
    /// when there is no object to carry it; rejected objects explain their reason as the text output does.
    @Test func listJSONCarriesTheListRequestIDAndRejectionsExplainThemselves() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "broadcast")
        let f = Self.flags(mock, .certificate)
        let given = "8a6c1f8e-0000-4000-8000-0000000000cd"

        let empty = try run(["channel", "list", "-o", "json", "--request-id", given] + f, scratch)
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.isEmpty)
        #expect(empty.errorLines == ["apns-request-id: \(given)"], "\(empty.stderr)")

        let ids = try (0..<2).map { _ in try #require(try run(["channel", "create"] + f, scratch).lines.first) }
        let listed = try run(["channel", "list", "-o", "json", "--request-id", given] + f, scratch)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stderr.isEmpty, "\(listed.stderr)")
        #expect(listed.lines.count == 2)
        for line in listed.lines {
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(ids.contains(row["channel"] as? String ?? ""))
            #expect(row["list_request_id"] as? String == given, "\(line)")
            let readID = row["apns_request_id"] as? String ?? ""
            #expect(UUIDString.isCanonical(readID) && readID != given, "\(line)")
            #expect(row["meaning"] is NSNull && row["hint"] is NSNull, "\(line)")
        }
        // Text output is unchanged: ids on stdout, the list request's id on stderr.
        let text = try run(["channel", "list", "--request-id", given] + f, scratch)
        #expect(Set(text.lines) == Set(ids))
        #expect(text.errorLines == ["apns-request-id: \(given)"])

        let rejected = try run(["channel", "get", "YWJjZA==", "-o", "json"] + f, scratch)
        #expect(rejected.status == 1)
        let row = try #require(try JSONSerialization.jsonObject(with: Data(rejected.stdout.utf8)) as? [String: Any])
        #expect(row["reason"] as? String == "ChannelNotRegistered")
        #expect(row["meaning"] as? String == APNSReason.channelNotRegistered.meaning)
        #expect(row["hint"] as? String == APNSReason.channelNotRegistered.hint(broadcast: true))
        // A rejected object has the keys of the command's accepted one (null, or false for `deleted`), so
        // `jq 'has("deleted")'` or `.storage` reads the same on both.
        let accepted = try run(["channel", "get", ids[0], "-o", "json"] + f, scratch)
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(accepted.stdout.utf8)) as? [String: Any])
        #expect(Set(row.keys) == Set(keys.keys), "\(rejected.stdout) against \(accepted.stdout)")
        #expect(row["storage"] is NSNull && row["push_type"] is NSNull)
        let deleted = try run(["channel", "delete", ids[0], "--yes", "-o", "json"] + f, scratch)
        let again = try run(["channel", "delete", ids[0], "--yes", "-o", "json"] + f, scratch)
        #expect(deleted.status == 0 && again.status == 1, "\(again.stderr)")
        let first = try #require(try JSONSerialization.jsonObject(with: Data(deleted.stdout.utf8)) as? [String: Any])
        let second = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(Set(first.keys) == Set(second.keys) && second["deleted"] as? Bool == false, "\(again.stdout)")
        // A rejected list too: the keys of a channel's object, its own request id as list_request_id.
        let wrongApp = try run(["channel", "list", "-o", "json", "--topic", "com.example.other"] + f, scratch)
        #expect(wrongApp.status == 1, "\(wrongApp.stdout)\(wrongApp.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(wrongApp.stdout.utf8)) as? [String: Any])
        #expect(
            Set(list.keys) == Set(keys.keys.filter { $0 != "push_type" } + ["list_request_id"]), "\(wrongApp.stdout)")
        #expect(list["list_request_id"] as? String == list["apns_request_id"] as? String, "\(wrongApp.stdout)")
    }

    /// Each broadcast reason a request apnsctl sends can meet, provoked once and explained with its hint.
    @Test func broadcastReasonsAreExplained() throws {
        let mock = try InProcessMock(["--max-channels", "1"])
        let scratch = try TemporaryDirectory(prefix: "broadcast")
        let f = Self.flags(mock, .certificate)
        let id = try #require(try run(["channel", "create"] + f, scratch).lines.first)

        func expectRejected(_ r: CommandResult, _ reason: APNSReason, _ what: String) {
            #expect(r.status == 1, "\(what): \(r.stdout) \(r.stderr)")
            let text = r.stdout + r.stderr
            #expect(text.contains("\(reason.status)") && text.contains(reason.rawValue), "\(what): \(text)")
            #expect(text.contains(reason.meaning), "\(what): \(text)")
            #expect(text.contains(reason.hint(broadcast: true)), "\(what): \(text)")
        }
        expectRejected(
            try run(["send", Self.update, "--channel", "YWJjZA=="] + f, scratch), .channelNotRegistered,
            "unknown channel")
        // A malformed id never reaches the server: it is refused before connecting (BadChannelId's cause).
        let malformed = try run(["send", Self.update, "--channel", "not*base64"] + f, scratch)
        #expect(malformed.status == 64 && malformed.stderr.contains("not a channel id"), "\(malformed.stderr)")
        expectRejected(
            try run(["send", Self.update, "--channel", id, "--expiration", "1h"] + f, scratch), .badExpirationDate,
            "nonzero expiration on a No Message Stored channel")
        let big =
            #"{"aps":{"event":"update","timestamp":1790000000,"content-state":{"s":""#
            + String(repeating: "x", count: 5200) + #""}}}"#
        expectRejected(
            try run(["send", big, "--channel", id, "--size-limit", "6000"] + f, scratch), .payloadTooLarge,
            "over 5120 bytes")
        expectRejected(
            try run(["send", Self.update, "--channel", id, "--topic", "com.example.other"] + f, scratch),
            .topicMismatch,
            "another app's bundle id")
        expectRejected(try run(["channel", "create"] + f, scratch), .cannotCreateChannelConfig, "channel limit")
        expectRejected(
            try run(["channel", "get", "YWJjZA=="] + f, scratch), .channelNotRegistered, "get of an unknown channel")
        let wrongTeam = [
            "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--auth-key", mock.authKey,
            "--team-id", "ZZZZZ99999", "--topic", mock.bundleID,
        ]
        expectRejected(try run(["channel", "list"] + wrongTeam, scratch), .invalidProviderToken, "wrong team")
        // With -o json a rejected management request is an object with the reason.
        let json = try run(["channel", "get", "YWJjZA==", "-o", "json"] + f, scratch)
        #expect(json.status == 1)
        #expect(
            json.stdout.contains("\"reason\":\"ChannelNotRegistered\"")
                && json.stdout.contains("\"apns_request_id\":\""))
    }

    @Test func usageAndPayloadErrorsSendNothing() throws {
        let scratch = try TemporaryDirectory(prefix: "broadcast")
        let answers = LockedValue<[MockAnswer]>([])
        let mock = try InProcessMock(keepingLog: true) {
            $0.onAnswer = { answer in answers.withLock { $0.append(answer) } }
        }
        let f = Self.flags(mock, .certificate)
        let mixed = try run(
            ["send", Self.update, "--channel", "YWJj", "--device", String(repeating: "ab", count: 32)] + f, scratch)
        #expect(mixed.status == 64)
        #expect(mixed.stderr.hasPrefix("error: --channel and --device/--devices both given"))
        // --request-id to a device, without --channel: said as such, not as a --channel that was never given.
        let requestOnly = try run(
            ["send", Self.update, "--request-id", UUIDString.random(), "-d", String(repeating: "ab", count: 32)] + f,
            scratch)
        #expect(requestOnly.status == 64)
        #expect(
            requestOnly.stderr
                == "error: --request-id names broadcast requests; pass --channel ID (device pushes take --apns-id)\n",
            "\(requestOnly.stderr)")
        let started = try run(["send", Self.start, "--channel", "YWJj"] + f, scratch)
        #expect(started.status == 65)
        #expect(started.stderr.contains("aps.event: a broadcast cannot start a Live Activity"))
        #expect(started.stderr.contains("input-push-channel"))
        let twoIDs = try run(
            ["send", Self.update, "--channel", "YWJj", "--channel", "YWJk", "--request-id", UUIDString.random()] + f,
            scratch)
        #expect(twoIDs.status == 64)
        let noYes = try run(["channel", "delete", "YWJj"] + f, scratch)
        #expect(noYes.status == 64)
        #expect(noYes.stderr.contains("pass --yes"))
        let noTopic = try run(
            ["channel", "list", "--endpoint", mock.endpoint, "--auth-key", mock.authKey, "--team-id", mock.teamID],
            scratch)
        #expect(noTopic.status == 64)
        #expect(noTopic.stderr.contains("--topic is required with --auth-key"))
        #expect(try run(["channel", "create", "--storage", "forever"] + f, scratch).status == 64)
        // A channel id that is not base64 is refused here, not sent for a BadChannelId.
        for (args, flag) in [
            (["channel", "get", ""], "channel get"), (["channel", "delete", "not-base64!", "--yes"], "channel delete"),
            (["send", Self.update, "--channel", "YWJj*"], "--channel"),
        ] {
            let r = try run(args + f, scratch)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: \(flag) ") && r.stderr.contains(": not a channel id;"), "\(r.stderr)")
        }
        // A huge value pasted whole is named by its start and length, not printed back as one line of that size.
        let huge = try run(["channel", "get", String(repeating: "A", count: 100_000)] + f, scratch)
        #expect(huge.status == 64, "\(huge.stderr)")
        #expect(
            huge.stderr
                == "error: channel get \"\(String(repeating: "A", count: 60))\"… (100000 characters): not a channel id; pass it exactly as apnsctl channel create or list printed it (base64)\n"
        )
        // One cut short at its + (a double-click stops there) is said to be, not sent for a ChannelNotRegistered.
        let cut = try run(["send", Self.update, "--channel", "FJ3RaJZYhGWGI7L"] + f, scratch)
        #expect(cut.status == 64, "\(cut.stderr)")
        #expect(
            cut.stderr.contains(
                "not a channel id (its 15 characters are no whole number of base64's 4-character groups: was the copy cut short"
            ), "\(cut.stderr)")
        // Nothing connected, so nothing can be logged later either: no wait needed before reading the log.
        #expect(((try? String(contentsOfFile: mock.logFile, encoding: .utf8)) ?? "").isEmpty)
        // The first connection the mock accepts is the next command's: none of those above connected.
        let listed = try run(["channel", "list"] + f, scratch)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(answers.current.map(\.connection) == [1])
    }

    @Test func dryRunPrintsTheBroadcastAndCurl() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "broadcast")
        let r = try run(["send", Self.update, "--channel", "YWJj", "--dry-run"] + Self.flags(mock, .token), scratch)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.first == "POST \(mock.endpoint)/4/broadcasts/apps/com.example.demo")
        for line in [
            "apns-channel-id: YWJj", "apns-push-type: liveactivity", "apns-expiration: 0", "apns-priority: 10",
            "authorization: bearer $APNS_JWT",
        ] {
            #expect(r.lines.contains(line), "\(line)\n\(r.stdout)")
        }
        #expect(!r.stdout.contains("apns-topic"))
        #expect(r.stdout.contains("curl --http2"))
        #expect(r.stdout.contains("-H 'apns-channel-id: YWJj'"))
        #expect(r.stdout.contains("--config -"))
        #expect(r.lines.contains("header = \"authorization: bearer $APNS_JWT\""), "\(r.stdout)")
    }
}
