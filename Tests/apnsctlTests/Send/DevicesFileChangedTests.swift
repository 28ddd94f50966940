import APNSTestSupport
import Foundation
import Testing

/// A `--devices FILE` that something else writes while it is sent (a job still appending to it, an editor saving
/// it): after the results, a warning says how it changed and what was not sent. The run never said it.
@Suite struct DevicesFileChangedTests {
    @Test func aListThatGrewWhileSentIsSaidToHaveGrown() throws {
        // The mock holds its first answer until the list has grown: the run is still going when it does.
        let held = try HeldAnswerMock()
        let dir = try TemporaryDirectory(prefix: "list-grew")
        let tokens = (1...3).map { String(format: "%064x", $0) }
        let list = try dir.write("list.txt", tokens.joined(separator: "\n") + "\n")
        let checked = tokens.joined(separator: "\n").utf8.count + 1
        let run = try InProcess.Run(held.send(["--alert", "x", "--devices", list]))
        #expect(held.waitForTheFirstAnswer())
        let added = "not-a-token\n" + String(repeating: "ef", count: 32) + "\n"
        let handle = try #require(FileHandle(forWritingAtPath: list))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(added.utf8))
        try handle.close()
        held.release()
        let r = run.result(within: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "warning: --devices \(list) grew while it was sent (\(checked) bytes when checked, \(checked + added.utf8.count) now): only the lines it held when checked were sent; send the lines added since in another run"
            ), "\(r.stderr)")
        #expect(r.lines.filter { $0.hasPrefix("accepted") }.count == 3, "\(r.stdout)")
        #expect(!r.stdout.contains(String(repeating: "ef", count: 32)), "\(r.stdout)")
    }

    /// A list cut short while it is sent, before it was read whole: the devices it lost are counted by an error
    /// after the results (exit 66) and named in `--unsent`. A warning named the wrong line, and the run exited 0.
    @Test func aListCutWhileSentIsAnErrorNamingWhatWasLost() throws {
        let held = try HeldAnswerMock()
        let dir = try TemporaryDirectory(prefix: "list-cut")
        // Longer than the reader's buffer: the first request leaves most of the list unread.
        let tokens = (1...3000).map { String(format: "%064x", $0) }
        let list = try dir.write("list.txt", tokens.joined(separator: "\n") + "\n")
        let unsent = dir.file("unsent.txt")
        let run = try InProcess.Run(held.send(["--alert", "x", "--devices", list, "-q", "--unsent", unsent]))
        #expect(held.waitForTheFirstAnswer())
        let handle = try #require(FileHandle(forWritingAtPath: list))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data((tokens[0] + "\n").utf8))
        try handle.close()
        held.release()
        let r = run.result(within: 60)
        #expect(r.status == 66, "\(r.stderr)")
        let lostText = try #require(r.stderr.firstMatch(of: /now\): (\d+) devices after line/)?.1, "\(r.stderr)")
        let sent = tokens.count - (Int(lostText) ?? tokens.count)
        #expect(
            r.stderr.contains(
                "error: --devices \(list) was cut while it was sent (\(tokens.count * 65) bytes when checked, 65 now): "
            ),
            "\(r.stderr)")
        #expect(
            r.stderr.contains("devices after line \(sent) were never sent; send them from a copy of the list"),
            "\(r.stderr)")
        #expect(sent > 0 && sent < tokens.count, "\(r.stderr)")
        let comment = try String(contentsOfFile: unsent, encoding: .utf8)
        #expect(
            comment.contains("# the rest of --devices \(list) after line \(sent) was cut off while it was sent"),
            "\(comment)")
    }

    /// The devices a cut list lost are never sent, and counted as such: in the summary line, in the history's
    /// total and never-sent counts, and in the warning of a replay, as a stopped run's are. Only the error line
    /// and `--unsent` counted them: the summary and the history showed a smaller run that went well.
    @Test func theDevicesACutListLostAreCountedInTheSummaryAndTheHistory() throws {
        let held = try HeldAnswerMock()
        let home = try HistoryHome()
        let dir = try TemporaryDirectory(prefix: "list-cut-counted")
        let tokens = (1...3000).map { String(format: "%064x", $0) }
        let list = try dir.write("list.txt", tokens.joined(separator: "\n") + "\n")
        let run = try InProcess.Run(
            held.send(["--alert", "x", "--devices", list, "-q"]), environment: home.environment)
        #expect(held.waitForTheFirstAnswer())
        let handle = try #require(FileHandle(forWritingAtPath: list))
        try handle.truncate(atOffset: 0)
        try handle.close()
        held.release()
        let r = run.result(within: 60)
        #expect(r.status == 66, "\(r.stderr)")
        let lostText = try #require(r.stderr.firstMatch(of: /now\): (\d+) devices after line/)?.1, "\(r.stderr)")
        let lost = Int(lostText) ?? 0
        let sent = tokens.count - lost
        #expect(lost > 0 && sent > 0, "\(r.stderr)")
        #expect(r.lines.last == "sent \(sent): \(sent) accepted; \(lost) never sent", "\(r.stdout)")
        let shown = try home.show("last")
        #expect(shown["total"] as? Int == tokens.count, "\(shown)")
        #expect(shown["never_sent"] as? Int == lost, "\(shown)")
        #expect(
            shown["outcome"] as? String
                == "\(tokens.count) devices: \(sent) accepted; \(lost) never sent; the list file was cut after line \(sent)",
            "\(shown)")
        let text = try home.run(["history", "show", "last"]).lines
        #expect(text.last { $0.hasPrefix("sent ") } == "sent \(sent): \(sent) accepted; \(lost) never sent", "\(text)")
        let replay = try home.run(["send", "--replay", "last", "--dry-run", "--cert", held.mock.certificateFile])
        #expect(
            replay.stderr.contains(
                "entry #1 lost part of its list (the file was cut): the history holds only the \(sent) devices it has a result for, which this replay sends again; the \(lost) devices it never read are not in the history: send them from its --unsent file or a copy of the list as it was"
            ), "\(replay.stderr)")
    }
}
