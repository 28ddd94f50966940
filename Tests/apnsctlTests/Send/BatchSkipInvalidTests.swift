import APNSTestSupport
import Foundation
import Testing

/// CLI.md, `send --skip-invalid`: bad `--devices` lines (file or pipe) are reported (the first 20, then a count)
/// and skipped, every good line is sent, the summary counts them, and the run exits 1. Without it a pipe that stops
/// at a bad line says how many devices were sent and that the rest was not read.
@Suite struct BatchSkipInvalidTests {
    static let good = (1...6).map { DeviceListStreamingTests.token($0) }
    /// Bad lines at the start, in the middle and at the end.
    static let list =
        (["not a token"] + good[0..<3] + ["zz"] + good[3...] + ["#ok", "bad!end"])
        .joined(separator: "\n") + "\n"

    @Test(arguments: ["file", "pipe"])
    func badLinesAreSkippedAndTheRestSent(_ how: String) async throws {
        try await offThePool {
            let mock = try InProcessMock([], keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "skip")
            let path = how == "file" ? try scratch.write("tokens.txt", Self.list) : "-"
            let stdin = how == "pipe" ? Array(Self.list.utf8) : nil
            let args = DeviceListStreamingTests.send(mock, ["--devices", path, "--skip-invalid"])
            let state = ["XDG_STATE_HOME": scratch.file("state")]
            let text = try InProcess.apnsctl(args, stdin: stdin, environment: state)
            #expect(text.status == 1, "\(text.stderr)")
            #expect(text.lines.filter { $0.hasPrefix("accepted") }.count == 6, "\(text.stdout)")
            #expect(text.lines.last == "sent 6: 6 accepted; 3 invalid lines skipped", "\(text.stdout)")
            // The history's outcome says it too: the run exited 1 for them.
            let list = try InProcess.apnsctl(["history", "--limit", "1"], environment: state)
            #expect(list.stdout.hasSuffix("6 devices: 6 accepted; 3 invalid lines skipped\n"), "\(list.stdout)")
            // `history show` ends as the send did, and its JSON counts them.
            let shown = try InProcess.apnsctl(["history", "show", "last"], environment: state)
            #expect(shown.lines.last == "sent 6: 6 accepted; 3 invalid lines skipped", "\(shown.stdout)")
            let shownJSON = try InProcess.apnsctl(["history", "show", "last", "-o", "json"], environment: state)
            #expect(shownJSON.stdout.contains("\"skipped_lines\":3,"), "\(shownJSON.stdout)")
            for line in [1, 5, 10] {
                #expect(text.stderr.contains("error: --devices \(path):\(line): "), "line \(line): \(text.stderr)")
            }
            #expect(
                mock.receiptsPerDevice(expectingAtLeast: 6)
                    == Dictionary(uniqueKeysWithValues: Self.good.map { ($0, 1) }))

            let json = try InProcess.apnsctl(args + ["-o", "json"], stdin: stdin)
            #expect(json.status == 1, "\(json.stderr)")
            #expect(json.lines.count == 6, "JSON Lines only, no summary: \(json.stdout)")
            #expect(json.lines.allSatisfy { $0.hasPrefix("{\"device\":") && $0.contains("\"status\":200") })
            // A dry run reports the skipped lines and exits 1 as the run would (it exited 0).
            let dry = try InProcess.apnsctl(args + ["--dry-run"], stdin: stdin)
            #expect(dry.status == 1, "\(dry.stderr)")
            #expect(dry.stderr.contains("error: --devices \(path):1: "), "\(dry.stderr)")
        }
    }

    /// A token shorter than 64 hex digits is sent, with its "cut short?" warning, from a pipe as from a file (a
    /// stream's is said after the results, once it was read).
    @Test(arguments: ["file", "pipe"])
    func aShortTokenIsWarnedOfFromAPipeAsFromAFile(_ how: String) throws {
        let mock = try InProcessMock([], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "short")
        let list = "\(Self.good[0])\n\(Self.good[1].prefix(62))\n"
        let path = how == "file" ? try scratch.write("tokens.txt", list) : "-"
        let r = try InProcess.apnsctl(
            DeviceListStreamingTests.send(mock, ["--devices", path]), stdin: how == "pipe" ? Array(list.utf8) : nil,
            environment: ["XDG_STATE_HOME": scratch.file("state")])
        #expect(
            r.lines.filter { $0.hasPrefix("accepted") || $0.hasPrefix("rejected") }.count == 2, "\(r.stdout)\(r.stderr)"
        )
        #expect(
            r.errorLines.contains(
                "warning: --devices \(path): 1 token is shorter than 64 hex digits (line 2); were they cut short?"),
            "\(r.stderr)")
    }

    /// One good device among skipped lines: the summary still comes, saying why the exit status is 1.
    @Test func oneDeviceAndSkippedLinesStillGetTheSummary() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "skip")
        let path = try scratch.write("tokens.txt", "\(Self.good[0])\nzz\n")
        let state = ["XDG_STATE_HOME": scratch.file("state")]
        let r = try InProcess.apnsctl(
            DeviceListStreamingTests.send(mock, ["--devices", path, "--skip-invalid"]), environment: state)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.lines.count == 2 && r.lines[0].hasPrefix("accepted"), "\(r.stdout)")
        #expect(r.lines.last == "sent 1: 1 accepted; 1 invalid line skipped", "\(r.stdout)")
        // And so does `history show`, for the one result.
        let shown = try InProcess.apnsctl(["history", "show", "last"], environment: state)
        #expect(shown.lines.last == "sent 1: 1 accepted; 1 invalid line skipped", "\(shown.stdout)")
    }

    /// Without `--skip-invalid`, a file is still refused whole and nothing is sent.
    @Test func withoutItAFileIsRefusedWhole() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "skip")
        let path = try scratch.write("tokens.txt", Self.list)
        let r = try InProcess.apnsctl(DeviceListStreamingTests.send(mock, ["--devices", path]))
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(mock.receiptsPerDevice().isEmpty)
    }

    /// A pipe that stops at a bad line says how many devices were sent and that the rest was not read; so does
    /// its history entry (it read as a whole, clean run).
    @Test func aPipeStoppedAtABadLineSaysTheRestWasNotRead() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let home = try HistoryHome()
        let list = (Self.good[0..<2] + ["zz"] + Self.good[2...]).joined(separator: "\n")
        let r = try InProcess.apnsctl(
            DeviceListStreamingTests.send(mock, ["--devices", "-"]), stdin: Array(list.utf8),
            environment: home.environment)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("error: --devices -:3: \"zz\": "), "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "error: --devices -: 2 devices were sent; the rest of the input after line 3 was not read"),
            "\(r.stderr)")
        #expect(mock.receiptsPerDevice(expectingAtLeast: 2).count == 2)
        #expect(
            try home.show("last")["outcome"] as? String == "2 devices: 2 accepted; the list stopped at its bad line 3")
        // A replay says what it cannot send.
        let replay = try InProcess.apnsctl(
            DeviceListStreamingTests.send(mock, ["--replay", "last", "--dry-run"]), environment: home.environment)
        #expect(
            replay.stderr.contains(
                "warning: entry #1's device list stopped at a bad line: the history holds only the 2 devices before it, which this replay sends again; the rest of that list is not in the history"
            ), "\(replay.stderr)")
    }

    /// A bad last line, its writer gone: no rest is claimed unread.
    @Test func aBadLastLineLeavesNoRest() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let list = (Self.good[0..<2] + ["zz"]).joined(separator: "\n") + "\n"
        let r = try InProcess.apnsctl(
            DeviceListStreamingTests.send(mock, ["--devices", "-"]), stdin: Array(list.utf8))
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "error: --devices -: 2 devices were sent; the input ended at line 3 (--skip-invalid skips bad lines)"),
            "\(r.stderr)")
    }
}
