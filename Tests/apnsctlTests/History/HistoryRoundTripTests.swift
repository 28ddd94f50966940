import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// What `send` printed is what `history` shows, and `send --replay` sends the same request again: against the
/// mock, for a single device, a batch with rejections, a Live Activity and a broadcast.
@Suite struct HistoryRoundTripTests {
    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "cd" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    /// `history show last -o json`'s results are the objects `send -o json` printed, and `history list -o json`
    /// names the entry with the same counts.
    func expectRecorded(_ sent: CommandResult, in home: HistoryHome, targets: Int) throws -> NSDictionary {
        let printed = try HistoryHome.objects(sent)
        let shown = try home.show("last")
        #expect(shown["results"] as? [NSDictionary] == printed)
        let listed = try HistoryHome.objects(try home.run(["history", "list", "-o", "json"]))
        #expect(listed.first?["id"] as? Int == shown["id"] as? Int)
        #expect(listed.first?["targets"] as? Int == targets)
        return shown
    }

    /// Replays the last entry and checks the mock was sent the same requests (headers, devices, payload size)
    /// and the history holds the same payload bytes (but for a Live Activity's timestamp and the dates after it).
    func expectReplayed(
        _ mock: InProcessMock, _ home: HistoryHome, since: Int, credentials: [String], liveActivity: Bool = false
    ) throws {
        let first = Array(mock.answeredRequests(from: since))
        let end = since + first.count
        let original = try home.show("last")
        let replay = try home.run(["send", "--replay", "last", "-o", "json"] + credentials)
        #expect([0, 1].contains(replay.status), "\(replay.stderr)")
        #expect(replay.stderr.isEmpty, "\(replay.stderr)")
        let again = try home.show("last")
        #expect(again["replay_of"] as? Int == original["id"] as? Int)
        #expect(Wait.until(seconds: 10) { mock.answeredRequests(from: end).count == first.count })
        #expect(mock.answeredRequests(from: end).sorted() == first.sorted())
        // Sorted keys: two equal dictionaries may serialize their keys in different orders.
        let payload = try JSONSerialization.data(withJSONObject: original["payload"] as Any, options: .sortedKeys)
        let replayed = try JSONSerialization.data(withJSONObject: again["payload"] as Any, options: .sortedKeys)
        if liveActivity {
            let (a, b) = (String(decoding: payload, as: UTF8.self), String(decoding: replayed, as: UTF8.self))
            let stamp = try NSRegularExpression(pattern: #""(timestamp|stale-date|dismissal-date)":[0-9]+"#)
            func blank(_ s: String) -> String {
                stamp.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: "T")
            }
            #expect(blank(a) == blank(b))
        } else {
            #expect(payload == replayed)
        }
        #expect(again["topic"] as? String == original["topic"] as? String)
        #expect(again["environment"] as? String == original["environment"] as? String)
        #expect(again["endpoint"] as? [String] == original["endpoint"] as? [String])
        let devices = { (o: NSDictionary) in
            (o["results"] as? [NSDictionary] ?? []).map { $0["device"] ?? $0["channel"] }
        }
        #expect("\(devices(again))" == "\(devices(original))")
    }

    /// A `--ca-file` typed relative to the working folder is recorded whole, so a replay from another folder
    /// finds it.
    @Test func aRelativeCAFileIsRecordedWhole() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let here = FileManager.default.currentDirectoryPath
        let depth = here.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + mock.caFile.drop { $0 == "/" }
        let sent = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", relative, "--cert", mock.certificate, "-d",
                Self.token(1), "--alert", "hi",
            ], environment: home.environment, directory: here)
        #expect(sent.status == 0, "\(sent.stderr)")
        let shown = try home.show("last")
        let recorded = try #require(shown["ca_file"] as? String)
        #expect(recorded.hasPrefix("/") && recorded.hasSuffix(relative), "\(recorded)")
    }

    /// The history keeps no credential, so a replay signs with the one this command resolves: when that is not
    /// the entry's (another profile's certificate, a token instead), a warning names both before anything is sent.
    @Test func aReplayWithAnotherCredentialSaysSo() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        #expect(try home.send(mock, ["-d", Self.token(1), "--alert", "hi"]).status == 0)
        let entry = try home.show("last")
        let certificate = try #require(entry["credential"] as? String)
        let replay = try home.run(
            ["send", "--replay", "last", "--auth-key", mock.authKey, "--team-id", mock.teamID, "--dry-run"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(
            replay.errorLines == [
                "warning: history entry #1 was sent with \(certificate), and this replay uses token key \(mock.keyID), team \(mock.teamID): the history keeps no credential, so it comes from this command's flags, variables or profile"
            ],
            "\(replay.stderr)")
    }

    /// Only accepted lines show a unique-id: a send whose one result was rejected gets no note about looking its
    /// unique-id up, though the sandbox mock sends one with every answer.
    @Test func aRejectedSendGetsNoUniqueIdNote() throws {
        let mock = try InProcessMock(["--reject", "\(Self.token(3))=TopicDisallowed"])
        let home = try HistoryHome()
        #expect(try home.send(mock, ["-d", Self.token(3), "--alert", "bad"]).status == 1)
        let shown = try home.run(["history", "show", "last"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("TopicDisallowed"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("unique-id"), "\(shown.stdout)")
    }

    @Test func aSingleSendAndABatchWithRejectionsAreRecordedAsPrintedAndReplayed() throws {
        let mock = try InProcessMock(
            ["--unregistered", Self.token(2), "--reject", "\(Self.token(3))=BadDeviceToken"], keepingLog: true)
        let home = try HistoryHome()
        let single = try home.send(mock, ["-d", Self.token(1), "--alert", "one", "-o", "json"])
        #expect(single.status == 0, "\(single.stderr)")
        _ = try expectRecorded(single, in: home, targets: 1)

        let before = mock.answeredRequests().count
        let batch = try home.send(
            mock,
            [
                "-d", Self.token(1), "-d", Self.token(2), "-d", Self.token(3), "--priority", "5", "--collapse-id", "c1",
                "--expiration", "0", "-o", "json", #"{"aps":{"alert":"batch","badge":2}}"#,
            ])
        #expect(batch.status == 1)
        let shown = try expectRecorded(batch, in: home, targets: 3)
        #expect(shown["outcome"] as? String == "3 devices: 1 accepted, 2 rejected (Unregistered 1, BadDeviceToken 1)")
        #expect(shown["collapse_id"] as? String == "c1")
        try expectReplayed(mock, home, since: before, credentials: ["--cert", mock.certificate])

        // The text forms: one line per entry, and show's results as send printed them with the delivery-log hint.
        let list = try home.run(["history"])
        #expect(list.lines.count == 3, "\(list.stdout)")
        #expect(list.lines[0].hasPrefix("#3  "))
        #expect(
            list.lines[0].hasSuffix(
                "  sandbox  com.example.demo  alert  3 devices: 1 accepted, 2 rejected (Unregistered 1, BadDeviceToken 1)"
            ))
        let text = try home.run(["history", "show", "2"])
        let sentText = try home.send(mock, ["--replay", "2", "--no-history"])
        #expect(sentText.status == 1)
        let resultLines = text.lines.filter {
            $0.hasPrefix("accepted") || $0.hasPrefix("rejected") || $0.hasPrefix("sent ")
        }
        #expect(resultLines.count == 4)
        #expect(text.stdout.contains("unique-id="))
        // The mock's ids are in no delivery log: the note is for Apple's sandbox (HistoryOutputTests).
        #expect(!text.stdout.contains("Push Notifications Console"), "\(text.stdout)")
        #expect(text.stdout.contains("\n{\n  \"aps\": {\n    \"alert\": \"batch\",\n    \"badge\": 2\n  }\n}\n"))
        #expect(try home.run(["history", "list", "--reason", "unregistered", "-o", "json"]).lines.count == 2)
        #expect(try home.run(["history", "list", "--device", Self.token(3).uppercased()]).lines.count == 2)
        // Device and reason in one result: token(1) was accepted where token(2) was Unregistered.
        #expect(
            try home.run(["history", "list", "--device", Self.token(2), "--reason", "unregistered"]).lines.count == 2)
        let other = try home.run(["history", "list", "--device", Self.token(1), "--reason", "Unregistered"])
        #expect(other.stdout.isEmpty, "\(other.stdout)")
        // The device has sends: no hint that it was mistyped.
        #expect(
            other.stderr
                == "no recorded send matches --device \(Self.token(1)) --reason Unregistered (the device has recorded sends, none that match the other filters)\n",
            "\(other.stderr)")
        #expect(
            try home.run(["history", "list", "--device", Self.token(3), "--reason", "BadDeviceToken"]).lines.count == 2)
        // The token as send's lines shorten it, copied from them (or typed with three dots), finds it too.
        let short = String(Self.token(3).prefix(4)) + "…" + String(Self.token(3).suffix(4))
        #expect(try home.run(["history", "list", "--device", short]).lines.count == 2)
        let typed = String(Self.token(3).prefix(4)) + "..." + String(Self.token(3).suffix(4))
        #expect(try home.run(["history", "list", "--device", typed]).lines.count == 2)
        // Nothing found says why, on stderr; JSON stays empty.
        let none = try home.run(["history", "list", "--device", "my-iphon"])
        #expect(none.status == 0 && none.stdout.isEmpty)
        #expect(none.stderr.hasPrefix("no recorded send matches --device my-iphon ("), "\(none.stderr)")
        // A word that is no APNs reason (an outcome such as unknown): --reason is said to match APNs' reasons only.
        for word in ["Nope", "unknown"] {
            #expect(
                try home.run(["history", "list", "--reason", word]).stderr
                    == "no recorded send matches --reason \(word); --reason matches the reasons APNs gave (BadDeviceToken, Unregistered, …), and a device with no answer has none: apnsctl history lists each send's outcome, unknown ones included\n"
            )
        }
        // An empty value (an unset variable in `--reason "$REASON"`) is a slip, not a filter that matched nothing.
        let emptyReason = try home.run(["history", "list", "--reason", ""])
        #expect(emptyReason.status == 64, "\(emptyReason.stderr)")
        #expect(
            emptyReason.stderr
                == "error: --reason: empty value; give an APNs reason, such as Unregistered, or leave --reason out\n")
        let emptyDevice = try home.run(["history", "--device", ""])
        #expect(emptyDevice.status == 64, "\(emptyDevice.stderr)")
        #expect(
            emptyDevice.stderr == "error: --device: empty value; give a device token or name, or leave --device out\n")
        // A --since later than now can match nothing: said so, with now.
        let future = try home.run(["history", "--since", "2999-01-01"])
        #expect(future.status == 0 && future.stdout.isEmpty, "\(future.stderr)")
        #expect(
            future.stderr.hasPrefix("no recorded send matches --since 2999-01-01; --since is later than now (20"),
            "\(future.stderr)")
        // A near miss of an APNs reason (in any case) or of a settings file's device name is named.
        #expect(
            try home.run(["history", "list", "--reason", "baddevicetokn"]).stderr
                == "no recorded send matches --reason baddevicetokn; did you mean the reason BadDeviceToken?\n")
        let settings = ["XDG_CONFIG_HOME": home.root.file("config")]
        #expect(try home.run(["config", "add-device", "my-iphone", Self.token(9)], settings).status == 0)
        #expect(
            try home.run(["history", "list", "--device", "my-iphon", "--reason", "Unregisterd"], settings).stderr
                == "no recorded send matches --device my-iphon --reason Unregisterd; did you mean the device \"my-iphone\" and the reason Unregistered?\n"
        )
        // With -o json the note is on stderr too (the stream stays empty): a script's empty answer may be a typo.
        let noneJSON = try home.run(["history", "list", "--device", "my-iphon", "-o", "json"], settings)
        #expect(noneJSON.status == 0 && noneJSON.stdout.isEmpty)
        #expect(
            noneJSON.stderr.hasPrefix(
                "no recorded send matches --device my-iphon; did you mean the device \"my-iphone\"?"),
            "\(noneJSON.stderr)")
        #expect(try home.run(["history", "list", "--limit", "1"]).lines.count == 1)
    }

    @Test func aLiveActivityIsReplayedWithTimestampNow() throws {
        let mock = try InProcessMock(keepingLog: true)
        let home = try HistoryHome()
        let auth = [
            "--auth-key", mock.authKey, "--team-id", mock.teamID, "--topic", mock.bundleID + ".push-type.liveactivity",
        ]
        let before = mock.answeredRequests().count
        let sent = try home.run(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "-d", Self.token(7), "-o", "json",
                "--live-activity", "update", "--content-state", #"{"eta":5}"#, "--timestamp", "1790000000",
                "--stale-date", "1790005400",
            ] + auth)
        #expect(sent.status == 0, "\(sent.stderr)")
        let shown = try expectRecorded(sent, in: home, targets: 1)
        #expect(shown["push_type"] as? String == "liveactivity")
        try expectReplayed(
            mock, home, since: before, credentials: ["--auth-key", mock.authKey, "--team-id", mock.teamID],
            liveActivity: true)
        let replayed = try home.show("last")
        let aps = try #require((replayed["payload"] as? NSDictionary)?["aps"] as? NSDictionary)
        #expect((aps["timestamp"] as? Int ?? 0) > 1_790_000_000, "the replay's timestamp is now")
        // The stale date keeps its distance from the timestamp: kept as stored, a replay was stale on arrival.
        #expect((aps["stale-date"] as? Int).map { $0 - (aps["timestamp"] as? Int ?? 0) } == 5400, "\(aps)")
        // `--timestamp now` spelt out is the same replay.
        let spelt = try home.run(
            ["send", "--replay", "1", "--timestamp", "now", "--auth-key", mock.authKey, "--team-id", mock.teamID])
        #expect(spelt.status == 0, "\(spelt.stderr)")
        let again = try #require((try home.show("last")["payload"] as? NSDictionary)?["aps"] as? NSDictionary)
        #expect((again["stale-date"] as? Int).map { $0 - (again["timestamp"] as? Int ?? 0) } == 5400, "\(again)")
    }

    /// A replayed Live Activity's dates are given as the span a user would write, so a refusal names them so.
    @Test func aSpanIsWrittenInItsLargestWholeUnit() {
        #expect(
            [45, 60, 5400, 3600, 86_400, 1_209_600, 90_061].map(APNSCtl.Send.duration(seconds:)) == [
                "45s", "1m", "90m", "1h", "1d", "2w", "90061s",
            ])
    }

    @Test func aBroadcastIsRecordedAndReplayedToItsChannel() throws {
        let mock = try InProcessMock(keepingLog: true)
        let home = try HistoryHome()
        let auth = mock.broadcastArguments
        let id = try #require(try home.run(["channel", "create"] + auth).lines.first)
        let update = #"{"aps":{"event":"update","timestamp":1790000000,"content-state":{"score":"2-1"}}}"#
        let before = mock.answeredRequests().count
        let sent = try home.run(["send", update, "--channel", id, "-o", "json"] + auth)
        #expect(sent.status == 0, "\(sent.stderr)")
        let shown = try expectRecorded(sent, in: home, targets: 1)
        #expect(shown["kind"] as? String == "broadcast")
        try expectReplayed(
            mock, home, since: before, credentials: ["--auth-key", mock.authKey, "--team-id", mock.teamID],
            liveActivity: true)
    }

    /// The database and `history show` hold no key, passphrase, provider token or PEM of the credentials used.
    @Test func noSecretReachesTheHistory() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let dir = home.root
        let passphrase = "history-secret-Tr0ub4dor"
        _ = try dir.write("pass.txt", passphrase + "\n", mode: 0o600)
        try CommandRunner.run("openssl", ["x509", "-in", mock.certificate, "-out", dir.file("cert.pem")])
        try CommandRunner.run(
            "openssl",
            ["pkey", "-in", mock.certificate, "-aes256", "-passout", "pass:" + passphrase, "-out", dir.file("key.pem")])
        let cert = try home.run(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", dir.file("cert.pem"), "--key",
                dir.file("key.pem"), "--passphrase-file", dir.file("pass.txt"), "-d", Self.token(1),
            ])
        #expect(cert.status == 0, "\(cert.stderr)")
        let token = try home.run(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--auth-key", mock.authKey, "--team-id",
                mock.teamID, "--topic", mock.bundleID, "-d", Self.token(2),
            ])
        #expect(token.status == 0, "\(token.stderr)")
        let jwt = try home.run(["jwt", "--auth-key", mock.authKey, "--team-id", mock.teamID]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(jwt.hasPrefix("eyJ"))
        var secrets = [passphrase, jwt, "BEGIN", "PRIVATE KEY"]
        for file in [mock.certificate, dir.file("key.pem"), mock.authKey] {
            // Every base64 line of every PEM block (keys and certificates alike).
            let text = try String(contentsOfFile: file, encoding: .utf8)
            secrets += text.split(separator: "\n").map(String.init).filter { $0.count >= 40 && !$0.hasPrefix("-----") }
        }
        var stored = try Data(contentsOf: URL(fileURLWithPath: home.database))
        for extra in ["-wal", "-shm"] {
            stored += (try? Data(contentsOf: URL(fileURLWithPath: home.database + extra))) ?? Data()
        }
        let shown =
            try home.run(["history", "show", "1"]).stdout + home.run(["history", "show", "2", "-o", "json"]).stdout
        #expect(shown.contains("credential"))
        for secret in secrets {
            #expect(stored.range(of: Data(secret.utf8)) == nil, "the database holds \(secret.prefix(12))…")
            #expect(!shown.contains(secret), "history show prints \(secret.prefix(12))…")
        }
    }
}
