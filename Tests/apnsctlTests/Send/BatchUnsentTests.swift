import APNSCore
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// CLI.md, `send --unsent FILE`: the devices a run leaves without a final answer — never sent, or sent with an
/// unknown outcome (commented out) — written in input order, mode 0600, so that `--devices FILE` resumes the run
/// without pushing anything twice. Judged by the mock's receipt log over both runs.
@Suite struct BatchUnsentTests {
    static func arguments(_ mock: InProcessMock, _ extra: [String]) -> [String] {
        DeviceListStreamingTests.send(mock, extra)
    }

    /// A mock taking one stream at a time (so a batch is far from done when it stops), a file of `count` devices in
    /// a scratch directory, and the path for their unsent file there.
    final class Batch {
        let mock: InProcessMock
        let scratch: TemporaryDirectory
        let file: String
        let unsent: String

        init(_ count: Int) throws {
            mock = try InProcessMock(["--max-streams", "1"], keepingLog: true)
            scratch = try TemporaryDirectory(prefix: "unsent")
            file = try SendDeliveryTests.deviceFile(count, in: scratch)
            unsent = scratch.file("unsent.txt")
        }
    }

    /// The lines of `path` that are devices (not comments).
    static func devices(in path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") }
    }

    /// Ctrl-C mid-batch (one stream at a time, so the batch is far from done), then a resume with the written file:
    /// every device reached the mock exactly once over both runs.
    @Test func anInterruptedBatchResumesWithNothingTwiceAndNothingMissing() throws {
        let count = 20_000
        let batch = try Batch(count)
        let (mock, file, unsent) = (batch.mock, batch.file, batch.unsent)
        let run = try InProcess.Run(Self.arguments(mock, ["--devices", file, "--unsent", unsent]))
        #expect(Wait.until(seconds: 30) { run.stdout.split(separator: "\n").count > 200 })
        run.interrupts.deliver(SIGINT)
        let (status, _) = run.finish(within: 20)
        #expect(status == 130, "\(run.stderr.suffix(400))")
        let summary = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.hasSuffix("never sent (interrupted): written to \(unsent)"), "\(summary)")
        var st = stat()
        #expect(stat(unsent, &st) == 0 && st.st_mode & 0o777 == 0o600, "mode 0600")
        let rest = try Self.devices(in: unsent)
        let answered = SendDeliveryTests.devices(in: []).count + run.stdout.split(separator: "\n").count - 1
        #expect(rest.count + answered == count, "\(rest.count) unsent + \(answered) answered")
        let all = (1...count).map { SendDeliveryTests.token($0) }
        #expect(rest == Array(all.suffix(rest.count)), "in input order, the tail of the list")

        let resume = try InProcess.apnsctl(Self.arguments(mock, ["--devices", unsent, "--unsent", unsent]))
        #expect(resume.status == 0, "\(resume.stderr.suffix(400))")
        #expect(!FileManager.default.fileExists(atPath: unsent), "every device answered: the old file is removed")
        let receipts = mock.receiptsPerDevice(expectingAtLeast: count)
        #expect(receipts.count == count, "none missing")
        #expect(receipts.values.allSatisfy { $0 == 1 }, "none twice")
    }

    /// A server that drops requests it received without answering: those are unknown, commented out after a comment
    /// that explains them, and a resume sends none of them.
    @Test func unknownOutcomesAreCommentedOut() throws {
        let mock = try InProcessMock(
            ["--fault-drop-unanswered-after", "5", "--fault-connections", "1", "--max-streams", "10"], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "unsent")
        let file = try SendDeliveryTests.deviceFile(40, in: scratch)
        // A path with a space: the header's resume advice quotes it, so it pastes as one word.
        let unsent = scratch.file("un sent.txt")
        let r = try InProcess.apnsctl(Self.arguments(mock, ["--devices", file, "--unsent", unsent, "-o", "json"]))
        #expect(r.status == 69, "\(r.stderr.suffix(400))")
        let header = try String(contentsOfFile: unsent, encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.hasSuffix("; resume with --devices '\(unsent)'"), "\(header)")
        // JSON output has no summary line to name the file: stderr does.
        #expect(r.errorLines.contains("unsent devices written to \(unsent)"), "\(r.stderr.suffix(400))")
        let unknown = SendDeliveryTests.devices(in: r.lines.filter { $0.contains("\"delivery\":\"unknown\"") })
        #expect(!unknown.isEmpty, "\(r.stdout)")
        let text = try String(contentsOfFile: unsent, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(try Self.devices(in: unsent).isEmpty, "nothing to send again without the user's say: \(text)")
        for device in unknown {
            guard let i = lines.firstIndex(of: "# " + device) else {
                Issue.record("\(device) missing from \(text)")
                continue
            }
            #expect(lines[i - 1].hasPrefix("# unknown (may have been delivered; remove the '# ' to send again): "))
            // The reason follows without saying "unknown" a second time.
            #expect(!lines[i - 1].contains("again): unknown:"), "\(lines[i - 1])")
        }
        // Every device the mock received and left unanswered is among them, none was received twice, and the
        // resume finds nothing to send.
        let receipts = mock.receiptsPerDevice(expectingAtLeast: 5)
        let answers = mock.answersPerDevice()
        let receivedUnanswered = Set(receipts.keys.filter { answers[$0] == nil })
        #expect(!receivedUnanswered.isEmpty && receivedUnanswered.isSubset(of: Set(unknown)), "\(receipts.count)")
        #expect(receipts.values.allSatisfy { $0 == 1 })
        let resume = try InProcess.apnsctl(Self.arguments(mock, ["--devices", unsent]))
        // It says why: every device left is one that may have been delivered, commented out until the user decides.
        let many =
            unknown.count == 1
            ? "1 device may have been delivered and is" : "\(unknown.count) devices may have been delivered and are"
        #expect(
            resume.status == 64
                && resume.stderr.contains(
                    "no device to send: every line of this --unsent list is a comment: \(many) commented out; to send"),
            "\(resume.stderr)")
        // Every '# ' removed (sed 's/^# //'), the list's own comments too: those are named as such (one was "a
        // Firebase token"), and nothing is sent.
        let uncommented = try scratch.write(
            "uncommented.txt", lines.map { $0.hasPrefix("# ") ? String($0.dropFirst(2)) : $0 }.joined(separator: "\n"))
        let all = try InProcess.apnsctl(Self.arguments(mock, ["--devices", uncommented]))
        #expect(all.status == 64, "\(all.stderr)")
        #expect(
            all.stderr.contains(
                ": a comment of an --unsent list, its '# ' removed: put the '# ' back (remove it only before the tokens to send again)"
            ), "\(all.stderr)")
        #expect(!all.stderr.contains("Firebase"), "\(all.stderr)")
    }

    /// Resuming with one file as both `--devices` and `--unsent` keeps the devices of unknown outcome it holds
    /// (commented out, so not sent): the run replaced the file, or removed it when the rest was answered, and the
    /// only record of the devices that may have been delivered was gone. One the user uncommented is sent.
    @Test func aResumeIntoItsOwnFileKeepsTheDevicesOfUnknownOutcome() throws {
        let mock = try InProcessMock(keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "unsent")
        let unsent = scratch.file("unsent.txt")
        let kept = String(repeating: "ab", count: 32)
        let uncommented = String(repeating: "cd", count: 32)
        let sent = String(repeating: "ef", count: 32)
        let why = UnsentDevices.unknownComment + "no answer within 1 s; APNs may have delivered it"
        let list =
            UnsentDevices.headerStart + ", in input order; resume with --devices \(unsent)\n\(why)\n# \(kept)\n"
            + "\(why)\n\(uncommented)\n\(sent)\n"
        try list.write(toFile: unsent, atomically: false, encoding: .utf8)
        let r = try InProcess.apnsctl(Self.arguments(mock, ["--devices", unsent, "--unsent", unsent]))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.last == "sent 2: 2 accepted; 1 device of unknown outcome kept in \(unsent)", "\(r.stdout)")
        #expect(Set(mock.answersPerDevice().keys) == [uncommented, sent])
        let text = try String(contentsOfFile: unsent, encoding: .utf8)
        #expect(text.hasPrefix(UnsentDevices.headerStart), "\(text)")
        #expect(text.hasSuffix("\n\(why)\n# \(kept)\n"), "\(text)")
        #expect(!text.contains(uncommented) && !text.contains("\n\(sent)"), "\(text)")
        // The same list fed on standard input (`--devices - < unsent.txt`) is the same file.
        let piped = try scratch.write("piped.txt", list)
        let fd = open(piped, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        let fromInput = try InProcess.Run(
            Self.arguments(mock, ["--devices", "-", "--unsent", piped]), standardInput: fd)
        #expect(fromInput.finish(within: 60).status == 0, "\(fromInput.stderr)")
        #expect(try String(contentsOfFile: piped, encoding: .utf8).hasSuffix("\n\(why)\n# \(kept)\n"))
        // Another --unsent path leaves the list as it was, so nothing is carried into the new one.
        let original = try scratch.write("original.txt", list)
        let other = scratch.file("other.txt")
        let again = try InProcess.apnsctl(Self.arguments(mock, ["--devices", original, "--unsent", other]))
        #expect(again.status == 0 && !FileManager.default.fileExists(atPath: other), "\(again.stderr)")
        #expect(try String(contentsOfFile: original, encoding: .utf8) == list)
    }

    /// The note a second signal's exit at once ends with: an `--unsent` list already at the path is an earlier
    /// run's, which lists devices this run may have sent (resuming from it could send them twice).
    @Test func aSecondSignalsNoteSaysAnOlderListIsStale() throws {
        let batch = try Batch(30)
        let fresh = try InProcess.Run(Self.arguments(batch.mock, ["--devices", batch.file, "--unsent", batch.unsent]))
        _ = fresh.finish(within: 60)
        #expect(fresh.interrupts.exitNotes.first == "; --unsent \(ShellWord.of(batch.unsent)) was not written")
        try (UnsentDevices.headerStart + "\n").write(toFile: batch.unsent, atomically: false, encoding: .utf8)
        let older = try InProcess.Run(Self.arguments(batch.mock, ["--devices", batch.file, "--unsent", batch.unsent]))
        _ = older.finish(within: 60)
        #expect(
            older.interrupts.exitNotes.first
                == "; --unsent \(ShellWord.of(batch.unsent)) was not written (the file there is an earlier run's: it lists devices this run may have sent; resuming from it may send them twice)"
        )
        #expect(older.interrupts.exitNotes.last == "", "cleared once written: \(older.interrupts.exitNotes)")
    }

    /// A reader of standard output that exits (`| head -1`): the devices never sent are written out.
    @Test func aClosedStandardOutputWritesTheRest() throws {
        let count = 5_000
        let batch = try Batch(count)
        let (mock, file, unsent) = (batch.mock, batch.file, batch.unsent)
        let head = try HeadPipe()
        let r = try InProcess.apnsctl(
            Self.arguments(mock, ["--devices", file, "--unsent", unsent, "-o", "json"]), timeout: 120,
            stdout: .descriptor(head.writeEnd))
        #expect(head.finish()?.hasPrefix("{") == true, "head read the first result")
        #expect(r.status == 74, "\(r.stderr)")
        let rest = try Self.devices(in: unsent)
        #expect(!rest.isEmpty && rest.count < count, "\(rest.count)")
        let resume = try InProcess.apnsctl(Self.arguments(mock, ["--devices", unsent]))
        #expect(resume.status == 0, "\(resume.stderr.suffix(400))")
        let receipts = mock.receiptsPerDevice(expectingAtLeast: count)
        #expect(receipts.count == count && receipts.values.allSatisfy { $0 == 1 }, "\(receipts.count)")
    }

    /// With no signal watched (a world with no interrupts, as a process that could not route its signals to a
    /// pipe), lost output still stops the run and the devices never sent are written out.
    @Test func lostOutputStopsTheRunWithNoSignalWatched() throws {
        let count = 5_000
        let batch = try Batch(count)
        let (mock, file, unsent) = (batch.mock, batch.file, batch.unsent)
        let t = TestWorld(
            variables: CommandRunner.commandEnvironment([:]), home: batch.scratch.path,
            output: MemoryOutput(failingAfter: 200, with: EPIPE), clock: .system)
        #expect(t.world.interrupts() == nil)
        let status = t.run(Self.arguments(mock, ["--devices", file, "--unsent", unsent, "-o", "json"]))
        #expect(status == 74, "\(t.stderr.text)")
        let rest = try Self.devices(in: unsent)
        #expect(!rest.isEmpty && rest.count < count, "\(rest.count)")
        #expect(!t.stderr.text.contains("; 0 devices were not sent"), "\(t.stderr.text)")
        #expect(mock.answersPerDevice().count < count)
    }

    /// `-q` prints only the rejected and failed: each line is written at once, so output lost at the first (a
    /// reader that exited) stops the run there; buffered, the whole batch went out before the loss was seen.
    @Test func quietOutputLostAtItsFirstLineStopsTheRun() throws {
        let count = 5_000
        let scratch = try TemporaryDirectory(prefix: "unsent")
        let file = try SendDeliveryTests.deviceFile(count, in: scratch)
        let first = try #require(try Self.devices(in: file).first)
        let mock = try InProcessMock(["--max-streams", "1", "--reject", "\(first)=BadDeviceToken"], keepingLog: true)
        let t = TestWorld(
            variables: CommandRunner.commandEnvironment([:]), home: scratch.path,
            output: MemoryOutput(failingAfter: 0, with: EPIPE), clock: .system)
        let status = t.run(Self.arguments(mock, ["--devices", file, "-q"]))
        #expect(status == 74, "\(t.stderr.text)")
        #expect(mock.answersPerDevice().count < count / 2, "the batch went on after the loss")
    }

    /// A pipe that stops at a bad line: the file says where the unread rest begins.
    @Test func aBadPipeLineIsNotedInTheFile() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "unsent")
        let unsent = scratch.file("unsent.txt")
        let list = [DeviceListStreamingTests.token(1), "zz", DeviceListStreamingTests.token(2)].joined(separator: "\n")
        let r = try InProcess.apnsctl(
            Self.arguments(mock, ["--devices", "-", "--unsent", unsent]), stdin: Array(list.utf8))
        #expect(r.status == 64, "\(r.stderr)")
        let text = try String(contentsOfFile: unsent, encoding: .utf8)
        #expect(text.contains("# the rest of --devices - after line 2 was not read"), "\(text)")
        // A bad last line leaves no rest: the file does not claim one (the summary says the input ended there).
        let last = scratch.file("last.txt")
        let ended = try InProcess.apnsctl(
            Self.arguments(mock, ["--devices", "-", "--unsent", last]),
            stdin: Array((DeviceListStreamingTests.token(3) + "\nzz\n").utf8))
        #expect(ended.status == 64 && ended.stderr.contains("the input ended at line 2"), "\(ended.stderr)")
        let written = (try? String(contentsOfFile: last, encoding: .utf8)) ?? ""
        #expect(!written.contains("was not read"), "\(written)")
    }

    /// Everything answered: no file (and none is left from before that lists no device; one that does is refused
    /// first, below).
    @Test func everythingAnsweredWritesNoFile() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "unsent")
        let file = try SendDeliveryTests.deviceFile(10, in: scratch)
        let unsent = try scratch.write(
            "unsent.txt",
            UnsentDevices.headerStart
                + ", from before\n# the rest of --devices - after line 3 was not read: send it too\n")
        let r = try InProcess.apnsctl(Self.arguments(mock, ["--devices", file, "--unsent", unsent]))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: unsent))
        #expect(r.lines.last == "sent 10: 10 accepted")
    }

    /// A token listed twice under two names is sent once, by its first line, and keeps that line's name in the
    /// results and in the unsent file (the repeat's name was written there).
    @Test func aRepeatedTokenKeepsItsFirstName() throws {
        let config = try TemporaryDirectory(prefix: "unsent-names")
        let token = DeviceListStreamingTests.token(1)
        try FileManager.default.createDirectory(atPath: config.file("apnsctl"), withIntermediateDirectories: true)
        _ = try config.write(
            "apnsctl/config.toml", "[devices]\nmy-iphone = \"\(token)\"\nmy-phone = \"\(token)\"\n", mode: 0o600)
        let list = try config.write("list.txt", "my-iphone\nmy-phone\n")
        let unsent = config.file("unsent.txt")
        // Nothing listens on the port: every device is never sent, so each is written.
        let r = try InProcess.apnsctl(
            [
                "send", "--endpoint", "https://127.0.0.1:1", "--cert",
                try config.pem("push.pem", CredentialFixtures.development),
                "--alert", "hi", "--devices", list, "--unsent", unsent, "-o", "json", "--no-history",
            ], environment: ["XDG_CONFIG_HOME": config.path, "XDG_CACHE_HOME": config.file("cache")])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stdout.contains(#""device_name":"my-iphone""#), "\(r.stdout)")
        #expect(try Self.devices(in: unsent) == ["my-iphone"])
    }

    /// A device name a list would not read back (`#x` is a comment there) is written as its token: resuming from
    /// the file sends it (it was skipped as a comment without a word).
    @Test func aNameTheListCannotReadBackIsWrittenAsItsToken() throws {
        let config = try TemporaryDirectory(prefix: "unsent-names")
        let (hash, other) = (DeviceListStreamingTests.token(1), DeviceListStreamingTests.token(2))
        try FileManager.default.createDirectory(atPath: config.file("apnsctl"), withIntermediateDirectories: true)
        _ = try config.write(
            "apnsctl/config.toml", "[devices]\n\"#x\" = \"\(hash)\"\nok = \"\(other)\"\n",
            mode: 0o600)
        let unsent = config.file("unsent.txt")
        let r = try InProcess.apnsctl(
            [
                "send", "--endpoint", "https://127.0.0.1:1", "--cert",
                try config.pem("push.pem", CredentialFixtures.development), "--alert", "hi", "-d", "#x", "-d", "ok",
                "--unsent", unsent, "--no-history",
            ], environment: ["XDG_CONFIG_HOME": config.path, "XDG_CACHE_HOME": config.file("cache")])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(try Self.devices(in: unsent) == [hash, "ok"])
        #expect(UnsentDevices.readsBack("ok") && !UnsentDevices.readsBack(" pad") && !UnsentDevices.readsBack("a\nb"))
    }

    /// A file at the path that no run wrote (a slip: `--unsent payload.json`, `--unsent key.pem`, notes, the
    /// user's own list given as both `--devices` and `--unsent`) is refused before anything is sent and left as
    /// it was; an empty one (`mktemp`) is the run's to replace.
    @Test func anotherFileAtThePathIsNeverReplaced() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "unsent")
        let token = DeviceListStreamingTests.token(1)
        for (name, text) in [
            ("payload.json", #"{"aps":{"alert":"hi"}}"#), ("key.pem", "-----BEGIN PRIVATE KEY-----\n"),
        ] {
            let path = try scratch.write(name, text)
            let r = try InProcess.apnsctl(Self.arguments(mock, ["-d", token, "--unsent", path]))
            #expect(r.status == 73, "\(r.stderr)")
            #expect(
                r.stderr == "error: --unsent \(path): the file exists and is no unsent list apnsctl wrote, so it is "
                    + "left as it is; choose another path (it is replaced or removed at the end of the run), or remove it first\n"
            )
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        }
        #expect(mock.receiptsPerDevice().isEmpty)
        let empty = try scratch.write("empty.txt", "")
        #expect(try InProcess.apnsctl(Self.arguments(mock, ["-d", token, "--unsent", empty])).status == 0)
        #expect(!FileManager.default.fileExists(atPath: empty))
        let list = try scratch.write("list.txt", "# the fleet\n" + token + "\n")
        let own = try InProcess.apnsctl(Self.arguments(mock, ["--devices", list, "--unsent", list]))
        #expect(own.status == 73, "\(own.stderr)")
        #expect(try String(contentsOfFile: list, encoding: .utf8) == "# the fleet\n" + token + "\n")
        let blank = try InProcess.apnsctl(Self.arguments(mock, ["-d", token, "--unsent", ""]))
        #expect(blank.status == 64 && blank.stderr.hasPrefix("error: --unsent: empty; "), "\(blank.stderr)")
    }

    /// An earlier run's list at the path, which this run does not read (the command line recalled with another
    /// `--devices`): refused before anything is sent, never replaced or removed; a resume from it still works.
    @Test func anEarlierRunsUnfinishedListIsNeverReplacedByAnotherRun() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "unsent")
        let (one, two, three) = (
            DeviceListStreamingTests.token(1), DeviceListStreamingTests.token(2), DeviceListStreamingTests.token(3)
        )
        let text =
            "# apnsctl send: the devices left without a final answer, in input order; resume with --devices x\n"
            + "\(one)\n\(UnsentDevices.unknownComment)no answer\n# \(two)\n"
        let path = try scratch.write("unsent.txt", text)
        let r = try InProcess.apnsctl(Self.arguments(mock, ["-d", three, "--unsent", path]))
        #expect(r.status == 73, "\(r.stderr)")
        #expect(
            r.stderr
                == "error: --unsent \(path): lists 2 devices an earlier run left without a final answer, and this run does not read it; resume them with --devices \(path) --unsent \(path) (put any other devices of this run in that file first), or give another --unsent path\n"
        )
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(mock.receiptsPerDevice().isEmpty)
        // A pipe may hold it or not, which cannot be told: refused too; the file itself given as stdin resumes it.
        let piped = try InProcess.apnsctl(
            Self.arguments(mock, ["--devices", "-", "--unsent", path]), stdin: Array("\(three)\n".utf8))
        #expect(piped.status == 73, "\(piped.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        let resumed = try InProcess.apnsctl(Self.arguments(mock, ["--devices", path, "--unsent", path]))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(mock.receiptsPerDevice() == [one: 1], "\(mock.receiptsPerDevice())")
        // A run that sends every device the list holds (`send --replay N --unsent FILE`, the same -d flags again,
        // the commented-out one included) loses nothing by replacing it: not refused.
        _ = try scratch.write("unsent.txt", text)
        let again = try InProcess.apnsctl(Self.arguments(mock, ["-d", one, "-d", two, "-d", three, "--unsent", path]))
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path), "every device answered: the list is removed")
        #expect(mock.receiptsPerDevice() == [one: 2, two: 1, three: 1], "\(mock.receiptsPerDevice())")
        // One device short of the list's: refused as before.
        _ = try scratch.write("unsent.txt", text)
        let short = try InProcess.apnsctl(Self.arguments(mock, ["-d", one, "-d", three, "--unsent", path]))
        #expect(short.status == 73, "\(short.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    /// A path that could never be written is refused before anything is sent; broadcast has no devices to list.
    @Test func unusablePathsAndBroadcastAreRefusedFirst() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "unsent")
        let token = DeviceListStreamingTests.token(1)
        let missing = try InProcess.apnsctl(
            Self.arguments(mock, ["-d", token, "--unsent", scratch.file("no/such/dir/unsent.txt")]))
        #expect(missing.status == 73, "\(missing.stderr)")
        let directory = try InProcess.apnsctl(Self.arguments(mock, ["-d", token, "--unsent", scratch.path]))
        #expect(directory.status == 73, "\(directory.stderr)")
        // Its advice names no flag send lacks (--force, and -o -, which is send's output format here).
        #expect(directory.stderr.hasSuffix("; choose another path\n"), "\(directory.stderr)")
        // Standard output carries the results: - is no file for the unsent devices (one named - was made).
        let dash = try InProcess.apnsctl(
            Self.arguments(mock, ["-d", token, "--unsent", "-"]), directory: scratch.path)
        #expect(dash.status == 64 && dash.stderr.contains("--unsent -: standard output"), "\(dash.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("-")))
        // A dry run shows what the run would do, and refuses what it would refuse.
        for path in ["-", scratch.path] {
            let dry = try InProcess.apnsctl(Self.arguments(mock, ["-d", token, "--dry-run", "--unsent", path]))
            #expect(dry.status == (path == "-" ? 64 : 73) && dry.stdout.isEmpty, "\(dry.stderr)")
        }
        // Two lists: the parser kept the last and the first was never sent, silently. Now neither is.
        let a = try scratch.write("a.txt", token + "\n")
        let b = try scratch.write("b.txt", DeviceListStreamingTests.token(2) + "\n")
        let two = try InProcess.apnsctl(Self.arguments(mock, ["--devices", a, "--devices", b]))
        #expect(two.status == 64 && two.stderr.contains("--devices given 2 times"), "\(two.stderr)")
        #expect(mock.receiptsPerDevice().isEmpty)
        let broadcast = try InProcess.apnsctl(
            Self.arguments(mock, ["--channel", "dHN0LTEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=", "--unsent", scratch.file("u")]))
        #expect(broadcast.status == 64 && broadcast.stderr.contains("--unsent"), "\(broadcast.stderr)")
    }
}
