import APNSClient
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// Sends the history records beyond a plain send to a server: a push to a simulator (CLI.md: "`--simulator`
/// included"), and a batch cut short by Ctrl-C, whose entry holds what was answered before it.
@Suite struct HistoryRecordingCasesTests {
    /// A run that could not connect still says so in its entry's outcome: the part of the summary after
    /// `sent N`, whichever way the summary goes on.
    @Test func anEntryOutcomeIsTheSummaryWithoutItsCount() throws {
        func summary(
            accepted: Int = 0, rejected: Int = 0, failedUnsent: Int = 0, interrupted: Bool = false, notSent: Int = 0
        ) -> SendSummary {
            var s = SendSummary()
            s.accepted = accepted
            s.rejected = rejected
            if rejected > 0 { s.reasons = [("Unregistered", rejected)] }
            s.failed = failedUnsent
            s.failedUnsent = failedUnsent
            s.interruptedBy = interrupted ? ProcessSignals.interrupt : nil
            s.notSent = notSent
            return s
        }
        let cases: [(SendSummary, String, String)] = [
            (
                summary(accepted: 2, rejected: 1), "sent 3: 2 accepted, 1 rejected (Unregistered 1)",
                "2 accepted, 1 rejected (Unregistered 1)"
            ),
            (summary(failedUnsent: 2), "sent 0; 2 never sent", "2 never sent"),
            (summary(interrupted: true), "sent 0 (interrupted)", "interrupted"),
            (summary(accepted: 2, interrupted: true), "sent 2: 2 accepted (interrupted)", "2 accepted (interrupted)"),
            (
                summary(failedUnsent: 2, interrupted: true, notSent: 3),
                "sent 0; 2 never sent; 3 never sent (interrupted)", "2 never sent; 3 never sent (interrupted)"
            ),
            (
                summary(accepted: 5, interrupted: true, notSent: 3), "sent 5: 5 accepted; 3 never sent (interrupted)",
                "5 accepted; 3 never sent (interrupted)"
            ),
        ]
        for (s, line, outcome) in cases {
            #expect(SendOutput.summaryLine(s) == line)
            #expect(SendOutput.outcome(s) == outcome, "\(line)")
        }
        // Devices `--resend-unknown` sent again, which may have been notified twice: said, as each line says it.
        var resent = summary(accepted: 20)
        resent.sentMoreThanOnce = 4
        #expect(SendOutput.summaryLine(resent) == "sent 20: 20 accepted; 4 sent more than once")
        #expect(SendOutput.outcome(resent) == "20 accepted; 4 sent more than once")
        // A piped list stopped before its end: its never-sent count is not the whole, and both say so.
        let unread: [(SendSummary, String, String)] = [
            (
                summary(accepted: 5, interrupted: true, notSent: 3),
                "sent 5: 5 accepted; 3 never sent and the rest of the list not read (interrupted)",
                "5 accepted; 3 never sent and the rest of the list not read (interrupted)"
            ),
            (
                summary(accepted: 1, interrupted: true),
                "sent 1: 1 accepted; the rest of the list not read (interrupted)",
                "1 accepted; the rest of the list not read (interrupted)"
            ),
        ]
        for (s, line, outcome) in unread {
            #expect(SendOutput.summaryLine(s, restUnread: true) == line)
            #expect(SendOutput.outcome(s, restUnread: true) == outcome, "\(line)")
        }
        // The unread rest is not in an --unsent file: it is not said to be written there.
        #expect(
            SendOutput.summaryLine(summary(accepted: 1, interrupted: true), unsentFile: "u.txt", restUnread: true)
                == "sent 1: 1 accepted; the rest of the list not read (interrupted); unsent devices written to u.txt")
        let mock = try InProcessMock()
        let home = try HistoryHome()
        // A port bound and closed again: nothing listens there.
        let closed = try ProxyProcess.freePort()
        let unreachable = try home.run([
            "send", "--endpoint", "https://127.0.0.1:\(closed)", "--ca-file", mock.caFile, "--cert", mock.certificate,
            "--alert", "x", "-d", String(repeating: "ab", count: 32), "-d", String(repeating: "cd", count: 32),
        ])
        #expect(unreachable.status == 69, "\(unreachable.stderr)")
        let shown = try home.show("last")
        #expect(shown["outcome"] as? String == "2 devices: 2 never sent")
        // The field counts what the outcome says: both devices (each with a result) were never sent.
        #expect(shown["never_sent"] as? Int == 2 && shown["targets"] as? Int == 2 && shown["total"] as? Int == 2)
        let text = try home.run(["history", "show", "last"]).lines
        #expect(text.last { $0.hasPrefix("sent ") } == "sent 0; 2 never sent", "\(text)")
    }

    /// A piped list given up on (nothing answers): the devices read but never taken are counted with the one that
    /// failed, once, by the summary, the history (text and JSON alike) and the replay's warning. The summary was
    /// missing (one result), the history said `1 device: 1 never sent; 7 never sent` and its JSON `total 1`, and a
    /// replay sent the one device without a word about the other seven.
    @Test func aPipeGivenUpOnCountsEveryDeviceItRead() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let closed = try ProxyProcess.freePort()
        let tokens = (1...8).map { String(format: "%064x", $0) }
        let unsent = home.root.file("unsent.txt")
        let r = try InProcess.apnsctl(
            [
                "send", "--endpoint", "https://127.0.0.1:\(closed)", "--ca-file", mock.caFile, "--cert",
                mock.certificate,
                "--alert", "x", "--devices", "-", "--unsent", unsent,
            ], stdin: Array((tokens.joined(separator: "\n") + "\n").utf8), environment: home.environment)
        #expect(r.status == 69, "\(r.stderr)")
        // The pipe's end was read: no rest is claimed.
        let summary = "sent 0; 8 never sent: written to \(unsent)"
        #expect(r.lines.last == summary, "\(r.stdout)")
        // Its end was read with what it held: no rest is claimed in the error line either.
        #expect(!r.stderr.contains("the rest of the list was not read"), "\(r.stderr)")
        let listed = try String(contentsOfFile: unsent, encoding: .utf8).split(separator: "\n").filter {
            !$0.hasPrefix("#")
        }
        #expect(listed.map(String.init) == tokens)
        let shown = try home.show("last")
        #expect(shown["outcome"] as? String == "8 devices: 8 never sent", "\(shown)")
        #expect(shown["never_sent"] as? Int == 8 && shown["total"] as? Int == 8, "\(shown)")
        let text = try home.run(["history", "show", "last"]).lines
        #expect(text.last { $0.hasPrefix("sent ") } == "sent 0; 8 never sent", "\(text)")
        let replay = try home.run(["send", "--replay", "last", "--dry-run", "--cert", mock.certificate])
        #expect(
            replay.stderr.contains(
                "entry #1 gave up: the history holds only the device it has a result for, which this replay sends again; the 7 devices it read without sending are not in the history: send them"
            ), "\(replay.stderr)")
    }

    /// Devices a `--timeout` left never sent: `history show` prints them as `send` did (`never sent: …`, the same
    /// summary line), and its JSON results are the objects `send -o json` printed.
    @Test func neverSentDevicesAreShownAsSendShowedThem() throws {
        let mock = try InProcessMock(["--fault-never-answer", "--max-streams", "2"])
        let home = try HistoryHome()
        let devices = (1...4).flatMap { ["-d", String(format: "cd%062d", $0)] }
        let text = try home.send(mock, ["--alert", "x", "--timeout", "1"] + devices)
        #expect(text.status == 69, "\(text.stderr)")
        #expect(text.lines.filter { $0.contains("  never sent: no answer from the server within 1 s") }.count == 2)
        let shown = try home.run(["history", "show", "last"])
        let results = shown.lines.filter { $0.hasPrefix("failed ") || $0.hasPrefix("sent ") }
        #expect(results == text.lines, "\(shown.stdout)")
        let json = try home.send(mock, ["--alert", "x", "--timeout", "1", "-o", "json"] + devices)
        let sent = try HistoryHome.objects(json)
        let recorded = try home.show("last")["results"] as? [NSDictionary]
        #expect(recorded == sent, "\(json.stdout)")
        // The two sent and never answered may be on the phones: a replay says it sends them again.
        let replay = try home.run(["send", "--replay", "1", "--dry-run", "--cert", mock.certificate])
        #expect(
            replay.stderr.contains(
                "warning: entry #1 has 2 devices of unknown outcome, which may have been delivered already: this replay sends them again"
            ), "\(replay.stderr)")
    }

    /// A batch stopped because its output was closed (`| head -1`) is recorded as stopped for that, not as
    /// interrupted by a signal that never came.
    @Test func aRunStoppedByLostOutputSaysSo() throws {
        let mock = try InProcessMock(["--max-streams", "1"])
        let home = try HistoryHome()
        let scratch = try TemporaryDirectory(prefix: "lost-output")
        let file = try SendDeliveryTests.deviceFile(2_000, in: scratch)
        let head = try HeadPipe()
        let r = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "--alert",
                "x",
                "--devices", file, "-o", "json",
            ], environment: home.environment, timeout: 120, stdout: .descriptor(head.writeEnd))
        _ = head.finish()
        #expect(r.status == 74, "\(r.stderr)")
        let outcome = try home.show("last")["outcome"] as? String ?? ""
        #expect(outcome.hasSuffix(" never sent (output lost)"), "\(outcome)")
        let shown = try home.run(["history", "show", "last"])
        #expect(
            shown.lines.contains { $0.hasPrefix("sent ") && $0.hasSuffix(" (output lost)") }, "\(shown.lines.suffix(2))"
        )
        #expect(!shown.stdout.contains("interrupted"), "\(shown.stdout.suffix(300))")
    }

    /// A run interrupted before any request left (the server takes the connection and never answers the TLS
    /// handshake) reached no server: nothing is recorded (an entry of no result showed "0 devices" and could not
    /// be sent again), and the interrupt's line points at no results above.
    @Test func aRunInterruptedBeforeItSentIsNotRecorded() async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let home = try HistoryHome()
            let silent = try Socket.listen(host: "127.0.0.1", port: 0)
            let send = try InProcess.Run(
                [
                    "send", "--endpoint", "https://127.0.0.1:\(silent.localPort)", "--ca-file", mock.caFile,
                    "--cert", mock.certificate, "--alert", "x", "-d", String(repeating: "ab", count: 32), "-v",
                ], environment: home.environment)
            #expect(Wait.until { send.stderr.contains("* connecting to") }, "\(send.stderr)")
            send.interrupts.deliver(SIGINT)
            let (status, _) = send.finish(within: 15)
            #expect(status == 130, "\(send.stderr)")
            #expect(send.stderr.contains("error: interrupted by SIGINT: 1 never sent\n"), "\(send.stderr)")
            let list = try home.run(["history", "-o", "json"])
            #expect(list.status == 0 && list.stdout.isEmpty, "\(list.stdout)\(list.stderr)")
            withExtendedLifetime(silent) {}
        }
    }

    /// `send --simulator` is one entry (kind simulator, the bundle as its topic) whose result is the line or object
    /// the send printed; `--replay` pushes the same bytes to the same simulator.
    @Test func aSimulatorPushIsRecordedAndReplayed() throws {
        let phone = SendSimulatorTests.phone
        let xcrun = try FakeXcrun(devices: [phone, SendSimulatorTests.pad])
        let home = try HistoryHome(xcrun.environment)
        let run = { (arguments: [String]) throws -> CommandResult in
            try InProcess.apnsctl(arguments, environment: home.environment, host: SendSimulatorTests.macOS)
        }
        let payload = #"{"aps": {"alert": "to the simulator"}}"#
        let sent = try run(
            ["send", payload, "--simulator", phone.udid, "--topic", "com.example.app", "-o", "json"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let shown = try home.show("last")
        #expect(shown["kind"] as? String == "simulator")
        #expect(shown["topic"] as? String == "com.example.app")
        #expect(shown["results"] as? [NSDictionary] == (try HistoryHome.objects(sent)))
        let text = try run(["history", "show", "last"]).stdout
        #expect(text.contains("\ndelivered  simulator  iPhone 16 (\(phone.udid))  com.example.app\n"), "\(text)")
        #expect(try run(["history"]).stdout.contains("  simulator  com.example.app  alert  1 simulator: 1 accepted"))
        let first = xcrun.payload
        #expect(first == Array(payload.utf8))
        let replay = try run(["send", "--replay", "last"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout == "delivered  simulator  iPhone 16 (\(phone.udid))  com.example.app\n")
        #expect(xcrun.payload == first)
        #expect(Array(xcrun.calls.last?.prefix(4) ?? []) == ["simctl", "push", phone.udid, "com.example.app"])
        #expect(try home.show("last")["replay_of"] as? Int == shown["id"] as? Int)
    }

    /// Ctrl-C in the middle of a batch: one entry, marked interrupted, whose results are exactly the ones printed
    /// before the interrupt.
    @Test func anInterruptedBatchRecordsWhatWasAnswered() throws {
        let mock = try InProcessMock(["--max-streams", "1"])
        let home = try HistoryHome()
        let scratch = try TemporaryDirectory(prefix: "history-interrupt")
        let count = 20_000
        let file = try SendDeliveryTests.deviceFile(count, in: scratch)
        // One bad line, skipped: its clause comes after the interruption's in the outcome.
        let devices = try String(contentsOfFile: file, encoding: .utf8)
        try ("zz\n" + devices).write(toFile: file, atomically: false, encoding: .utf8)
        let run = try InProcess.Run(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "--devices",
                file, "-o", "json", "--skip-invalid",
            ], environment: home.environment)
        #expect(Wait.until(seconds: 30) { run.stdout.split(separator: "\n").count > 200 })
        run.interrupts.deliver(SIGINT)
        let (status, _) = run.finish(within: 20)
        #expect(status == 130, "\(run.stderr.suffix(400))")
        let printed = try run.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! NSDictionary
        }
        #expect(printed.count > 200 && printed.count < count)
        let listed = try HistoryHome.objects(try home.run(["history", "list", "-o", "json"]))
        #expect(listed.count == 1)
        let shown = try home.show("last")
        #expect(shown["interrupted"] as? Bool == true)
        #expect(shown["targets"] as? Int == printed.count)
        #expect(shown["results"] as? [NSDictionary] == printed)
        // The devices the interrupt left are counted, though no result stands for them.
        let neverSent = shown["never_sent"] as? Int ?? 0
        // (Every result printed here is of a device sent: the interrupt left the others without one.)
        #expect(neverSent > 0 && neverSent + printed.count == count, "\(neverSent) + \(printed.count)")
        #expect(shown["total"] as? Int == count)
        // The outcome says it was interrupted, once, in the text `history show` prints, and the last line ends as
        // the send's summary would have (with the devices never sent).
        let lines = try home.run(["history", "show", "last"]).lines
        let text = lines.first { $0.hasPrefix("outcome") } ?? ""
        #expect(text.components(separatedBy: "interrupted").count == 2, "\(text)")
        #expect(text.hasSuffix("(interrupted); 1 invalid line skipped"), "\(text)")
        // It counts every device of the run, as `total` does and as a run that failed midway counts them.
        #expect(text.contains(" \(count) devices: "), "\(text)")
        let accepted = printed.filter { $0["status"] as? Int == 200 }.count
        let summary = lines.last { $0.hasPrefix("sent ") } ?? ""
        #expect(summary.hasSuffix("; \(neverSent) never sent (interrupted); 1 invalid line skipped"), "\(summary)")
        #expect(summary.hasPrefix("sent \(printed.count): \(accepted) accepted"), "\(summary)")
    }
}
