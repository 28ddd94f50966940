import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands
@testable import APNSHistory

/// `send --replay` sends the request the entry recorded, not a near copy: the payload byte for byte, an
/// `--apns-id` or `--request-id` the original command gave, and the devices by the names they were given.
@Suite struct HistoryReplayFidelityTests {
    static let token = HistoryRoundTripTests.token

    /// The mock log's `answered` objects, in order.
    static func answered(_ mock: InProcessMock) -> [NSDictionary] {
        let text = (try? String(contentsOfFile: mock.logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains(#""event":"answered""#) }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary
        }
    }

    /// Waits until the mock logged `count` answers; returns them.
    static func answered(_ mock: InProcessMock, count: Int) -> [NSDictionary] {
        _ = Wait.until(seconds: 10) { answered(mock).count >= count }
        return answered(mock)
    }

    @Test func aPayloadIsSentAgainByteForByte() throws {
        let mock = try InProcessMock(keepingLog: true)
        let home = try HistoryHome()
        let text = "\n  {\"aps\": {\"alert\": \"spaced\"}}\n"
        let file = try home.root.write("spaced.json", text)
        let sent = try home.send(mock, [file, "-d", Self.token(1)])
        #expect(sent.status == 0, "\(sent.stderr)")
        let replay = try home.send(mock, ["--replay", "last"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let log = Self.answered(mock, count: 2)
        #expect(log.map { $0["payload_size"] as? Int } == [text.utf8.count, text.utf8.count])
        let shown = try home.run(["history", "show", "last"]).stdout
        #expect(shown.contains("payload (\(text.utf8.count) bytes):"), "\(shown)")
    }

    /// The history keeps no credential: a replay given none is told which one its entry was sent with, and
    /// sends once it is given again.
    @Test func aReplayWithoutACredentialNamesTheEntrysOne() throws {
        let mock = try InProcessMock(keepingLog: true)
        let home = try HistoryHome()
        #expect(try home.send(mock, ["--alert", "hi", "-d", Self.token(1)]).status == 0)
        let bare = try home.run(["send", "--replay", "last"])
        #expect(bare.status == 64)
        #expect(
            bare.stderr.hasPrefix(
                "error: no credential: the history keeps none, and this entry was sent with certificate "),
            "\(bare.stderr)")
        #expect(bare.stderr.contains("SHA-256 ") && bare.errorLines.count == 1, "\(bare.stderr)")
        let given = try home.run(["send", "--replay", "last", "--cert", mock.certificate])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(Self.answered(mock, count: 2).count == 2)
    }

    /// With a mock profile, a replay goes to the mock running now (a mock's port changes between runs), with its
    /// CA and the environment it plays, and the mock's environment check holds for it as for any send (the
    /// replay went to the entry's endpoint, and took any --env).
    @Test func aReplayWithTheMockProfileGoesToTheMockRunningNow() throws {
        let home = try HistoryHome()
        let first = try InProcessMock(keepingLog: true)
        let sent = try home.run(
            ["send", "-p", "mock", "--alert", "hi", "-d", Self.token(1)],
            ["APNSCTL_MOCK_STATE_DIR": first.stateDirectory.path])
        #expect(sent.status == 0, "\(sent.stderr)")
        first.stop()
        let now = try InProcessMock(keepingLog: true)
        let mock = ["APNSCTL_MOCK_STATE_DIR": now.stateDirectory.path]
        let replay = try home.run(["send", "--replay", "last", "-p", "mock"], mock)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(Self.answered(now, count: 1).count == 1)
        let production = try home.run(["send", "--replay", "last", "-p", "mock", "--env", "production"], mock)
        #expect(production.status == 64, "\(production.stdout)\(production.stderr)")
        #expect(production.stderr.contains("plays sandbox"), "\(production.stderr)")
    }

    /// A given `--apns-id` is part of the request, so the replay sends it again (APNs reports a notification
    /// by it); one given with `--replay` wins. Without one, APNs assigns a new id each time.
    @Test func aGivenApnsIDIsSentAgain() throws {
        let mock = try InProcessMock(keepingLog: true)
        let home = try HistoryHome()
        let id = "5E1F0C7A-2B3D-4E5F-8A9B-0C1D2E3F4A5B"
        let other = "0C1D2E3F-4A5B-4E5F-8A9B-5E1F0C7A2B3D"
        #expect(try home.send(mock, ["--alert", "x", "-d", Self.token(1), "--apns-id", id]).status == 0)
        #expect(try home.send(mock, ["--replay", "1"]).status == 0)
        #expect(try home.send(mock, ["--replay", "1", "--apns-id", other]).status == 0)
        #expect(try home.send(mock, ["--alert", "y", "-d", Self.token(2)]).status == 0)
        #expect(try home.send(mock, ["--replay", "last"]).status == 0)
        let ids = Self.answered(mock, count: 5).map { $0["apns_id"] as? String ?? "" }
        #expect(Array(ids.prefix(3)) == [id, id, other])
        #expect(ids[3] != ids[4], "no --apns-id: each send gets its own")
        // `history show` names the id given, which a replay sends again; an entry without one names none.
        let shown = try home.run(["history", "show", "1"])
        #expect(shown.lines.contains("apns-id      \(id)"), "\(shown.stdout)")
        #expect(try home.show("1")["apns_id"] as? String == id)
        #expect(!(try home.run(["history", "show", "4"])).stdout.contains("apns-id "))
    }

    /// A broadcast's `--request-id` is sent again with the entry's channel.
    @Test func aGivenRequestIDIsSentAgain() throws {
        let mock = try InProcessMock(keepingLog: true)
        let home = try HistoryHome()
        let auth = mock.broadcastArguments
        let channel = try #require(try home.run(["channel", "create"] + auth).lines.first)
        let update = #"{"aps":{"event":"update","timestamp":1790000000,"content-state":{"score":"1-0"}}}"#
        let requestID = "7d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a"
        let sent = try home.run(["send", update, "--channel", channel, "--request-id", requestID] + auth)
        #expect(sent.status == 0, "\(sent.stderr)")
        let replay = try home.run(
            ["send", "--replay", "last", "--auth-key", mock.authKey, "--team-id", mock.teamID, "-o", "json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let sends = Self.answered(mock, count: 3).filter { $0["channel"] as? String == channel }
        #expect(sends.suffix(2).map { $0["apns_request_id"] as? String } == [requestID, requestID])
        let shown = try home.run(["history", "show", "1"])
        #expect(shown.lines.contains("request id   \(requestID)"), "\(shown.stdout)")
        #expect(try home.show("1")["request_id"] as? String == requestID)
    }

    /// Devices given by name are replayed by name while the settings still name the same token (the results
    /// show the name again); a name that now stands for another token gives way to the token that was sent.
    @Test func devicesKeepTheNamesTheyWereGivenBy() throws {
        let mock = try InProcessMock(keepingLog: true)
        let config = try TemporaryDirectory(prefix: "history-config")
        let write = { (token: String) throws in
            _ = try config.write(
                "apnsctl/config.toml", "[devices]\nmy-phone = \"\(token)\"\n", mode: 0o600)
        }
        try FileManager.default.createDirectory(atPath: config.file("apnsctl"), withIntermediateDirectories: true)
        try write(Self.token(1))
        let home = try HistoryHome(["XDG_CONFIG_HOME": config.path])
        let sent = try home.send(mock, ["--alert", "x", "-d", "my-phone", "-d", Self.token(2), "-o", "json"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let names = { (r: CommandResult) in try HistoryHome.objects(r).map { $0["device_name"] as? String } }
        #expect(try names(sent) == ["my-phone", nil])
        let replay = try home.send(mock, ["--replay", "1", "-o", "json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(try HistoryHome.objects(replay).map { $0["device"] as? String } == [Self.token(1), Self.token(2)])
        #expect(try names(replay) == ["my-phone", nil])
        try write(Self.token(3))
        let renamed = try home.send(mock, ["--replay", "1", "-o", "json"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(try HistoryHome.objects(renamed).map { $0["device"] as? String } == [Self.token(1), Self.token(2)])
        #expect(try names(renamed) == [nil, nil])
        // A replay of named devices without a credential is told the entry's too (the names are looked up
        // before the credentials are checked).
        try write(Self.token(1))
        let bare = try home.run(["send", "--replay", "1"])
        #expect(bare.status == 64)
        #expect(bare.stderr.hasPrefix("error: no credential: the history keeps none"), "\(bare.stderr)")
        // A key alone keeps its own advice.
        let keyOnly = try home.run(["send", "--replay", "1", "--key", mock.certificate])
        #expect(keyOnly.status == 64)
        #expect(keyOnly.stderr.contains("give the certificate with it, --cert FILE"), "\(keyOnly.stderr)")
    }

    /// `history --device NAME` finds the sends made with the token the settings file names so (in `[devices]`
    /// or a profile's own), not only those made under the name; a name no send used and the file does not hold
    /// finds none and says so.
    @Test func aDeviceNameFindsTheSendsMadeWithItsToken() throws {
        let mock = try InProcessMock()
        let config = try TemporaryDirectory(prefix: "history-config")
        try FileManager.default.createDirectory(atPath: config.file("apnsctl"), withIntermediateDirectories: true)
        _ = try config.write(
            "apnsctl/config.toml",
            "[devices]\nmy-phone = \"\(Self.token(1))\"\n[profiles.dev.devices]\nmy-ipad = \"\(Self.token(2))\"\n",
            mode: 0o600)
        let home = try HistoryHome(["XDG_CONFIG_HOME": config.path])
        for device in [Self.token(1), Self.token(2), Self.token(3)] {
            #expect(try home.send(mock, ["--alert", "x", "-d", device, "-q"]).status == 0)
        }
        #expect(try home.send(mock, ["--alert", "x", "-d", "my-phone", "-q"]).status == 0)
        let ids = { (name: String) throws -> [String] in
            try home.run(["history", "--device", name]).lines.map { String($0.prefix { $0 != " " }) }
        }
        #expect(try ids("my-phone") == ["#4", "#1"])
        #expect(try ids("my-ipad") == ["#2"])
        // Blanks around a name are dropped, as send drops them from -d.
        #expect(try ids(" my-phone ") == ["#4", "#1"])
        let none = try home.run(["history", "--device", "my-watch"])
        #expect(none.status == 0 && none.lines.isEmpty)
        #expect(none.stderr.contains("no recorded send matches --device my-watch"), "\(none.stderr)")
        // A settings file no command would read (others may write it) gives no names, and says so.
        #expect(chmod(config.file("apnsctl/config.toml"), 0o666) == 0)
        let refused = try home.run(["history", "--device", "my-phone"])
        #expect(
            refused.status == 0 && refused.lines.map { String($0.prefix { $0 != " " }) } == ["#4"], "\(refused.stdout)")
        #expect(
            refused.stderr.hasPrefix(
                "warning: --device \"my-phone\": the settings file's device names were not looked up: "),
            "\(refused.stderr)")
        // --config names another file, as for send: its names are the ones looked up.
        _ = try config.write("ci.toml", "[devices]\nci-phone = \"\(Self.token(3))\"\n", mode: 0o600)
        let named = try home.run(["history", "--device", "ci-phone", "--config", config.file("ci.toml")])
        #expect(named.lines.map { String($0.prefix { $0 != " " }) } == ["#3"], "\(named.stdout)")
        #expect(named.stderr.isEmpty, "\(named.stderr)")
        for device in [["--device", "ci-phone"], []] {
            let missing = try home.run(["history"] + device + ["--config", config.file("nope.toml")])
            #expect(missing.status == 66 && missing.lines.isEmpty)
            #expect(missing.stderr.contains("nope.toml: no such settings file"), "\(missing.stderr)")
        }
        // A token, even shortened as send prints it, is no name: the file is not read for it, and not warned about.
        let short = try home.run(["history", "--device", "\(Self.token(1).prefix(4))…\(Self.token(1).suffix(4))"])
        #expect(short.lines.map { String($0.prefix { $0 != " " }) } == ["#4", "#1"], "\(short.stdout)")
        #expect(short.stderr.isEmpty, "\(short.stderr)")
    }

    /// A mock, a history, token auth's flags for it and a channel created there.
    static func channelOnAMock() throws -> (InProcessMock, HistoryHome, [String], String) {
        let mock = try InProcessMock(keepingLog: true)
        let home = try HistoryHome()
        let token = BroadcastMockTests.flags(mock, .token)
        let channel = try home.run(["channel", "create"] + token)
        return (mock, home, token, try #require(channel.lines.first, "\(channel.stderr)"))
    }

    /// A device push sent again to a channel takes none of the headers a broadcast has not (push type, collapse
    /// id, apns-id): a Live Activity update sent to a device is broadcast as it is.
    @Test func aDeviceEntryReplayedToAChannelIsBroadcast() throws {
        let (mock, home, token, id) = try Self.channelOnAMock()
        let sent = try home.run(
            [
                "send", BroadcastMockTests.update, "--collapse-id", "score", "--apns-id", UUID().uuidString, "-d",
                Self.token(1),
            ] + BroadcastMockTests.flags(mock, .token, topic: mock.bundleID + ".push-type.liveactivity"))
        #expect(sent.status == 0, "\(sent.stderr)")
        let replay = try home.run(["send", "--replay", "last", "--channel", id] + token)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.hasPrefix("accepted  200  \(id)  apns-request-id="), "\(replay.stdout)")
        // The broadcast is found by its channel id, given to --device.
        let found = try home.run(["history", "--device", id])
        #expect(found.status == 0 && found.lines.count == 1, "\(found.stdout)\(found.stderr)")
        #expect(found.lines.first?.hasPrefix("#2 ") == true, "\(found.stdout)")
    }

    /// A refused replay says which values it took from the entry, since the user never typed them: a push typed
    /// `alert` sent again with a PAYLOAD of no `aps` is refused for the push type the entry had. A push type the
    /// entry's own payload gave (no one typed it) is not carried into a PAYLOAD given: that payload's own is sent.
    @Test func aRefusalNamesTheValuesTakenFromTheEntry() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let sent = try home.send(
            mock, ["--push-type", "alert", #"{"aps":{"content-available":1}}"#, "-d", Self.token(1)])
        #expect(sent.status == 0, "\(sent.stderr)")
        let replay = try home.send(mock, ["--replay", "last", #"{"data":1}"#])
        #expect(replay.status == 65)
        #expect(
            replay.errorLines.last?.hasSuffix(
                "nothing was sent (this replay of history entry #1 took --topic com.example.demo, --push-type alert, --priority 10 from it; a flag on the command line replaces any of them)"
            ) == true, "\(replay.stderr)")
        // Typed, the entry's type is kept for another payload of the same kind.
        let typed = try home.send(mock, ["--replay", "1", #"{"aps":{"content-available":1},"n":2}"#, "-v"])
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(typed.stderr.contains("> apns-push-type: alert"), "\(typed.stderr)")
        // Given, a type is kept even where the entry's own payload gave the same one: refused for the badge a
        // background push cannot carry, naming the type taken.
        #expect(
            try home.send(
                mock, ["--push-type", "background", #"{"aps":{"content-available":1}}"#, "-d", Self.token(1)]
            ).status == 0)
        let given = try home.send(mock, ["--replay", "last", #"{"aps":{"content-available":1,"badge":3}}"#])
        #expect(given.status == 65, "\(given.stderr)")
        #expect(given.errorLines.last?.contains("--push-type background") == true, "\(given.stderr)")
        // Inferred from its payload, a background entry's type is not carried into an alert PAYLOAD (refused before),
        // nor its priority, which was background's default.
        #expect(try home.send(mock, [#"{"aps":{"content-available":1}}"#, "-d", Self.token(1)]).status == 0)
        let alertPayload = #"{"aps":{"alert":"hey"}}"#
        let inferred = try home.send(mock, ["--replay", "last", alertPayload, "-v"])
        #expect(inferred.status == 0, "\(inferred.stderr)")
        #expect(inferred.stderr.contains("> apns-push-type: alert"), "\(inferred.stderr)")
        #expect(inferred.stderr.contains("> apns-priority: 10"), "\(inferred.stderr)")
        // A replay of a replay of an inferred type: the first replay took the type from its entry, which no one gave,
        // and its own entry says so (taken as a --push-type value, it read as given).
        #expect(try home.send(mock, [#"{"aps":{"alert":"hi"}}"#, "-d", Self.token(2)]).status == 0)
        #expect(try home.send(mock, ["--replay", "last"]).status == 0)
        let second = try home.send(mock, ["--replay", "last", #"{"aps":{"content-available":1}}"#, "-v"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("> apns-push-type: background"), "\(second.stderr)")
        // Given on the command line, the push type is the user's: the replay sends, with that type's default priority.
        let alert = try home.send(mock, ["--replay", "1", alertPayload, "--push-type", "alert", "-v"])
        #expect(alert.status == 0, "\(alert.stderr)")
        #expect(alert.stderr.contains("> apns-priority: 10"), "\(alert.stderr)")
        // The quick flags build a payload of their own type: --alert makes an alert push.
        let quick = try home.send(mock, ["--replay", "1", "--alert", "hey", "-v"])
        #expect(quick.status == 0, "\(quick.stderr)")
        #expect(quick.stderr.contains("> apns-push-type: alert"), "\(quick.stderr)")
        #expect(quick.stderr.contains("> apns-priority: 10"), "\(quick.stderr)")
    }

    /// A replay whose CA file, taken from its entry, is gone, or whose server, taken from it, is not reached, says
    /// those values were the entry's: the user typed neither, and "check the path" alone pointed at nothing typed.
    @Test func aServerOrCAFileTakenFromTheEntryIsNamedWhenItFails() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let ca = try home.root.write("old-ca.pem", try String(contentsOfFile: mock.caFile, encoding: .utf8))
        let flags = ["--endpoint", mock.endpoint, "--ca-file", ca, "--cert", mock.certificate]
        #expect(try home.run(["send", "--alert", "hi", "-d", Self.token(1)] + flags).status == 0)
        try FileManager.default.removeItem(atPath: ca)
        let moved = try home.run(["send", "--replay", "last", "--cert", mock.certificate])
        #expect(moved.status == 66, "\(moved.stderr)")
        #expect(
            moved.errorLines.last?.hasSuffix(
                " (--ca-file \(ca) came from history entry #1, not the command line; give the flag to change it)")
                == true, "\(moved.stderr)")
        // A server that is down now (nothing listens on port 1): the entry's address is named, the user's --cert not.
        let down = ["--endpoint", "https://127.0.0.1:1", "--ca-file", mock.caFile, "--cert", mock.certificate]
        #expect(try home.run(["send", "--alert", "hi", "-d", Self.token(1)] + down).status == 69)
        let refused = try home.run(["send", "--replay", "last", "--cert", mock.certificate])
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(
            refused.errorLines.last?.hasSuffix(
                " (--env sandbox, --endpoint https://127.0.0.1:1, --ca-file \(mock.caFile) came from history entry #2, "
                    + "not the command line; give the flag to change it)") == true, "\(refused.stderr)")
        // Given on the command line, a value is the user's own, and not named.
        let typed = try home.run(
            ["send", "--replay", "2", "--cert", mock.certificate, "--endpoint", "https://127.0.0.1:1"])
        #expect(typed.status == 69, "\(typed.stderr)")
        #expect(
            typed.errorLines.last?.hasSuffix(
                " (--env sandbox, --ca-file \(mock.caFile) came from history entry #2, not the command line; give the "
                    + "flag to change it)") == true, "\(typed.stderr)")
    }

    /// A broadcast entry sent again to devices gets the Live Activity topic a device push needs (the broadcast's is
    /// the bare bundle id): refused before for a suffix no one had left out.
    @Test func aBroadcastEntryReplayedToADeviceGetsTheDevicesTopic() throws {
        let (mock, home, token, id) = try Self.channelOnAMock()
        let broadcast = try home.run(["send", BroadcastMockTests.update, "--channel", id] + token)
        #expect(broadcast.status == 0, "\(broadcast.stderr)")
        // The same credentials without a --topic, which would be the user's own, and bare.
        let credentials = [
            "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--auth-key", mock.authKey, "--team-id", mock.teamID,
        ]
        let replay = try home.run(["send", "--replay", "1", "-d", Self.token(1), "-v"] + credentials)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.contains("> apns-topic: \(mock.bundleID).push-type.liveactivity"), "\(replay.stderr)")
        // Sent again to its channel (no target given), the topic is the broadcast's own.
        let again = try home.run(["send", "--replay", "1", "-v"] + credentials)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("push-type.liveactivity"), "\(again.stderr)")
    }

    /// A priority given to the original is the user's and is replayed; one that was the push type's default is not
    /// carried into another type (10 into a background push was refused, advising to leave out what no one gave).
    @Test func aDefaultPriorityIsNotCarriedIntoAnotherPushType() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        #expect(try home.send(mock, ["--alert", "x", "-d", Self.token(1)]).status == 0)
        let background = try home.send(
            mock, ["--replay", "1", "--push-type", "background", #"{"aps":{"content-available":1}}"#, "-v"])
        #expect(background.status == 0, "\(background.stderr)")
        #expect(background.stderr.contains("> apns-priority: 5"), "\(background.stderr)")
        #expect(try home.send(mock, ["--alert", "x", "--priority", "5", "-d", Self.token(1)]).status == 0)
        let given = try home.send(mock, ["--replay", "3", "-v"])
        #expect(given.stderr.contains("> apns-priority: 5"), "\(given.stderr)")
        // Without another push type the entry's priority is the replay's, default or not: a variable does not
        // change what is sent again.
        let same = try home.send(mock, ["--replay", "1", "-v"], ["APNSCTL_PRIORITY": "5"])
        #expect(same.stderr.contains("> apns-priority: 10"), "\(same.stderr)")
    }

    /// Every quick payload flag builds the replay's payload anew, as --alert does: --subtitle, --category and the
    /// rest were refused as "PAYLOAD (history) given too", which no one typed.
    @Test func everyQuickPayloadFlagBuildsTheReplaysPayload() throws {
        let mock = try InProcessMock(keepingLog: true)
        let home = try HistoryHome()
        #expect(try home.send(mock, ["--alert", "base", "-d", Self.token(1)]).status == 0)
        for flags in [
            ["--subtitle", "S"], ["--category", "C"], ["--thread-id", "T"], ["--mutable-content", "--alert", "a"],
            ["--relevance-score", "0.5", "--alert", "a"], ["--badge", "3"],
        ] {
            let r = try home.send(mock, ["--replay", "1", "--dry-run"] + flags)
            #expect(r.status == 0, "\(flags): \(r.stderr)")
            #expect(!r.stdout.contains("base"), "\(flags): \(r.stdout)")
        }
        // --content-available alone builds a background push (priority 5), as without a replay.
        let background = try home.send(mock, ["--replay", "1", "--content-available", "-v"])
        #expect(background.status == 0 && !background.stderr.contains("warning"), "\(background.stderr)")
        #expect(background.stderr.contains("> apns-push-type: background"), "\(background.stderr)")
        #expect(background.stderr.contains("> apns-priority: 5"), "\(background.stderr)")
    }

    /// An entry whose recorded value this version refuses (a history written by another version, or edited)
    /// is a usage error naming the flag and the value once, never the parser's error value printed whole.
    @Test func aRecordedValueRefusedNowIsNamedOnce() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let sent = try home.send(mock, ["--alert", "hi", "--expiration", "1h", "-d", Self.token(1)])
        #expect(sent.status == 0, "\(sent.stderr)")
        try SQLiteConnection.open(home.database, readOnly: false, busyMilliseconds: 1000)
            .execute("UPDATE entries SET expiration = 'soon'")
        let replay = try home.send(mock, ["--replay", "last"])
        #expect(replay.status == 64)
        #expect(
            replay.stderr.hasPrefix(
                "error: the history entry's --expiration soon: not a time; give 0 (deliver once, never store), "),
            "\(replay.stderr)")
        #expect(
            replay.stderr.hasSuffix(
                "or a duration such as 30m, 1h, 2d; give --expiration on the command line\n"),
            "\(replay.stderr)")
    }

    /// An interrupted entry holds only the devices its run sent: a replay says so, and where the others are.
    @Test func aReplayOfAnInterruptedEntrySaysWhatTheHistoryLacks() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let sent = try home.send(mock, ["--alert", "hi", "-d", Self.token(1), "-d", Self.token(2)])
        #expect(sent.status == 0, "\(sent.stderr)")
        // As an entry recorded before the history counted the devices never sent.
        try SQLiteConnection.open(home.database, readOnly: false, busyMilliseconds: 1000)
            .execute("UPDATE entries SET interrupted = 1")
        let replay = try home.send(mock, ["--replay", "last"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(
            replay.stderr.contains(
                "warning: entry #1 was interrupted: the history holds only the 2 devices it has a result for, which this replay sends again; the devices it never sent are not in the history: send them from its --unsent file or the list it read\n"
            ), "\(replay.stderr)")
        // One that counted them says how many.
        try SQLiteConnection.open(home.database, readOnly: false, busyMilliseconds: 1000)
            .execute("UPDATE entries SET interrupted = 1, never_sent = 9, without_result = 7 WHERE id = 1")
        let counted = try home.send(mock, ["--replay", "1"])
        #expect(
            counted.stderr.contains(
                "; the 7 devices it never sent are not in the history: send them from its --unsent file or the list it read\n"
            ), "\(counted.stderr)")
    }

    /// Apple's host in an entry is where its environment sends, not an `--endpoint`: a replay with another `--env`
    /// goes to that environment's host (it went to the entry's, so a sandbox replay reached production), on the
    /// entry's port unless `--port` is given. Another server (a mock, a staging host) is carried.
    @Test func aReplayWithAnotherEnvGoesToThatEnvironmentsAppleHost() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        #expect(try home.send(mock, ["--alert", "hi", "-d", Self.token(1)]).status == 0)
        func replayed(
            _ stored: String, environment: String, _ extra: [String], variables: [String: String] = [:],
            warning: String = ""
        ) throws -> String {
            try SQLiteConnection.open(home.database, readOnly: false, busyMilliseconds: 1000)
                .execute("UPDATE entries SET endpoints = '\(stored)', environment = '\(environment)', ca_file = NULL")
            let r = try home.run(["send", "--replay", "1", "--cert", mock.certificate, "--dry-run"] + extra, variables)
            #expect(
                r.status == 0 && r.stderr.hasPrefix(warning) && r.errorLines.count == (warning.isEmpty ? 0 : 1),
                "\(r.stderr)")
            return String(r.stdout.prefix { $0 != "\n" })
        }
        let device = "/3/device/\(Self.token(1))"
        let production = "https://api.push.apple.com:443"
        #expect(try replayed(production, environment: "production", []) == "POST \(production)\(device)")
        #expect(
            try replayed(production, environment: "production", ["--env", "sandbox"])
                == "POST https://api.sandbox.push.apple.com:443\(device)")
        #expect(
            try replayed("https://api.sandbox.push.apple.com:2197", environment: "sandbox", ["--env", "production"])
                == "POST https://api.push.apple.com:2197\(device)", "the entry's port is kept")
        #expect(
            try replayed(production, environment: "production", ["--port", "2197"])
                == "POST https://api.push.apple.com:2197\(device)", "--port is not ignored")
        #expect(
            try replayed(
                production, environment: "production", ["--port", "2197"],
                variables: ["APNSCTL_ENDPOINT": "https://127.0.0.1:9"])
                == "POST https://api.push.apple.com:2197\(device)",
            "with --port too, the entry's Apple host beats a variable's endpoint")
        #expect(
            try replayed(mock.endpoint, environment: "production", ["--env", "sandbox"])
                == "POST \(mock.endpoint)\(device)", "another server is the entry's endpoint")
        // The entry's Apple host still beats a variable's endpoint, as every value the entry gives does.
        #expect(
            try replayed(
                production, environment: "production", [], variables: ["APNSCTL_ENDPOINT": "https://127.0.0.1:9"])
                == "POST \(production)\(device)")
        // --env auto's two hosts on 2197 stay on 2197 for either environment.
        let auto = "sandbox=https://api.sandbox.push.apple.com:2197\nproduction=https://api.push.apple.com:2197"
        #expect(
            try replayed(auto, environment: "auto", ["--env", "production"])
                == "POST https://api.push.apple.com:2197\(device)")
        // Apple's host on a port it does not listen on, or given as the other environment's --endpoint, was an
        // --endpoint: carried as it was.
        #expect(
            try replayed("https://api.sandbox.push.apple.com:8443", environment: "sandbox", [])
                == "POST https://api.sandbox.push.apple.com:8443\(device)")
        // The entry's own crossing is said again, as it was when it was sent.
        #expect(
            try replayed(
                production, environment: "sandbox", [],
                warning:
                    "warning: --endpoint https://api.push.apple.com:443 is Apple's production host, so these sandbox requests reach production"
            ) == "POST \(production)\(device)")
    }
}
