import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// Interrupts through the world's signal source: `send` and `channel` run in-process against the mock, and the
/// test delivers SIGINT or SIGTERM to that one run, as the binary gets them from the terminal or `kill`.
/// (A second signal's exit at once is the process's own: `SendInterruptTests` keeps it on the binary.)
@Suite struct WorldInterruptTests {
    func sendArguments(_ mock: InProcessMock, devices: String, output: String = "json") -> [String] {
        [
            "send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
            "--cert", mock.certificate, "--devices", devices, "-o", output, "-v",
        ]
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func silentServerInterruptedReportsTheSentDevicesAfterTwoSeconds(_ signal: Int32, _ exitCode: Int32) async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-never-answer"])
            let scratch = try TemporaryDirectory(prefix: "devices")
            let file = try SendDeliveryTests.deviceFile(5000, in: scratch)
            let send = try InProcess.Run(sendArguments(mock, devices: file))
            let sent = Wait.until { send.stderr.components(separatedBy: "* request for").count > 1000 }
            #expect(sent, "1000 requests never went out: \(send.stderr.suffix(300))")
            send.interrupts.deliver(signal)
            let (status, waited) = send.finish(within: 15)
            #expect(status == exitCode, "\(send.stderr.suffix(400))")
            #expect(waited >= 1.5 && waited < 10, "waited \(waited) s for answers in flight")
            let lines = send.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 1000, "one result per device sent (1000 streams), none for the 4000 never sent")
            // Each request was completely written before the signal: APNs may have delivered it (CLI.md).
            #expect(
                lines.allSatisfy {
                    $0.contains("\"status\":null")
                        && $0.contains("\"error\":\"unknown: interrupted after the request was sent")
                        && $0.contains("\"delivery\":\"unknown\"")
                }, "\(lines.first ?? "")")
            #expect(
                send.stderr.contains(
                    "error: interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM"): 1000 sent without an answer, 4000 never sent"
                ),
                "\(send.stderr.suffix(400))")
        }
    }

    @Test func interruptedMidBatchNothingIsLostOrDoubled() async throws {
        try await offThePool {
            // One stream at a time, so 300,000 devices take far longer than the wait for the interrupt.
            let mock = try InProcessMock(["--max-streams", "1"], keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "devices")
            let file = try SendDeliveryTests.deviceFile(300_000, in: scratch)
            let send = try InProcess.Run(sendArguments(mock, devices: file, output: "text").filter { $0 != "-v" })
            #expect(Wait.until(seconds: 30) { send.stdout.split(separator: "\n").count > 500 })
            send.interrupts.deliver(SIGINT)
            let (status, waited) = send.finish(within: 20)
            #expect(status == 130, "\(send.stderr.suffix(400))")
            #expect(waited < 5, "answers in flight get 2 s, not the rest of the batch")
            let lines = send.stdout.split(separator: "\n").map(String.init)
            let results = lines.filter { !$0.hasPrefix("sent ") }
            #expect(results.count > 500 && results.count < 300_000)
            let summary = lines.last ?? ""
            #expect(summary.hasPrefix("sent \(results.count): "), "\(summary)")
            #expect(summary.hasSuffix("; \(300_000 - results.count) never sent (interrupted)"), "\(summary)")
            let answers = mock.answersPerDevice(expectingAtLeast: results.count - 1)
            #expect(answers.values.allSatisfy { $0 == 1 })
            #expect(answers.count <= results.count)
        }
    }

    /// Two runs side by side: an interrupt delivered to one leaves the other to finish.
    @Test func anInterruptReachesOnlyTheRunItWasDeliveredTo() async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-never-answer"])
            let scratch = try TemporaryDirectory(prefix: "devices")
            let file = try SendDeliveryTests.deviceFile(10, in: scratch)
            let interrupted = try InProcess.Run(sendArguments(mock, devices: file))
            let other = try InProcess.Run(sendArguments(mock, devices: file) + ["--timeout", "3"])
            #expect(Wait.until { interrupted.interrupts.wasAsked && other.interrupts.wasAsked })
            interrupted.interrupts.deliver(SIGINT)
            #expect(interrupted.finish(within: 15).status == 130, "\(interrupted.stderr.suffix(400))")
            // The other one ends by its own --timeout: no answer (69), not interrupted.
            let (status, _) = other.finish(within: 30)
            #expect(status == 69, "\(other.stderr.suffix(400))")
            #expect(!other.stderr.contains("interrupted"), "\(other.stderr.suffix(400))")
        }
    }

    /// Ctrl-C (or SIGTERM) while `send` still waits on standard input, before anything was sent: CLI.md's
    /// `interrupted by SIGINT` line naming the input, and 130 (143), not a silent end. The input is a pipe whose
    /// writer stays open, so the read would wait for ever without the interrupt.
    @Test(arguments: [
        (["-", "-d", FlagSuggestionTests.device], "PAYLOAD -", SIGINT),
        (["--alert", "hi", "--devices", "-"], "--devices -", SIGTERM),
        (
            ["--live-activity", "update", "--content-state", "@-", "-d", FlagSuggestionTests.device],
            "--content-state @-", SIGINT
        ),
    ])
    func anInterruptWhileStandardInputIsReadIsSaid(_ given: [String], _ input: String, _ signal: Int32) async throws {
        try await offThePool {
            let mock = try InProcessMock(keepingLog: true)
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            defer { for end in ends { close(end) } }
            let run = try InProcess.Run(
                ["send"] + given + [
                    "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--auth-key", mock.authKey,
                    "--key-id", mock.keyID, "--team-id", mock.teamID, "--topic", mock.bundleID,
                ],
                standardInput: ends[0])
            #expect(Wait.until { run.interrupts.wasAsked }, "the read never watched the interrupts: \(run.stderr)")
            run.interrupts.deliver(signal)
            let (status, _) = run.finish(within: 15)
            #expect(status == 128 + signal, "\(run.stderr)")
            let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
            #expect(
                run.stderr == "error: interrupted by \(name): nothing was sent; \(input) was still being read\n",
                "\(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(mock.receiptsPerDevice().isEmpty)
        }
    }

    /// A FIFO no writer has opened yet (`mkfifo f; apnsctl send f …`, the writer to come): open(2) waited for one
    /// where no interrupt could end the wait, and Ctrl-C killed the process without a word. Now the wait watches
    /// the interrupts, for the payload and the device list alike; a writer that comes is read as before.
    /// Linux only: elsewhere a FIFO is still opened as before (`FileSystem.openForReading`).
    @Test(.enabled(if: FileSystem.opensFIFOsWithoutWaiting), arguments: [(true, SIGINT), (false, SIGTERM)])
    func anInterruptWhileAFIFOAwaitsItsWriterIsSaid(_ payloadIsFIFO: Bool, _ signal: Int32) async throws {
        try await offThePool {
            let mock = try InProcessMock(keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "fifo")
            let fifo = scratch.file("input")
            try #require(mkfifo(fifo, 0o600) == 0)
            let given =
                payloadIsFIFO ? [fifo, "-d", FlagSuggestionTests.device] : ["--alert", "hi", "--devices", fifo]
            let credentials = [
                "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
            ]
            let run = try InProcess.Run(["send"] + given + credentials)
            #expect(Wait.until { run.interrupts.wasAsked }, "the wait never watched the interrupts: \(run.stderr)")
            run.interrupts.deliver(signal)
            let (status, _) = run.finish(within: 15)
            #expect(status == 128 + signal, "\(run.stderr)")
            let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
            let input = payloadIsFIFO ? "PAYLOAD \(fifo)" : "--devices \(fifo)"
            #expect(
                run.stderr == "error: interrupted by \(name): nothing was sent; \(input) was still being read\n",
                "\(run.stderr)")
            #expect(mock.receiptsPerDevice().isEmpty)

            // A writer that comes later is waited for and read, as open(2) made it.
            let late = try InProcess.Run(["send"] + given + credentials)
            #expect(Wait.until { late.interrupts.wasAsked }, "\(late.stderr)")
            let writer = open(fifo, O_WRONLY | O_CLOEXEC)
            try #require(writer >= 0)
            let text = payloadIsFIFO ? #"{"aps":{"alert":"late"}}"# : FlagSuggestionTests.device + "\n"
            #expect(text.utf8.count == Array(text.utf8).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) })
            close(writer)
            let (done, _) = late.finish(within: 30)
            #expect(done == 0, "\(late.stderr)")
            #expect(mock.receiptsPerDevice()[FlagSuggestionTests.device] == 1, "\(mock.receiptsPerDevice())")
        }
    }

    /// Interrupted with standard output gone (its reader closed): the signal's status wins, but stderr says what
    /// was not written and never calls results final that no one saw.
    @Test func anInterruptWithStandardOutputGoneSaysWhatWasNotWritten() async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-never-answer", "--max-streams", "2"], keepingLog: true)
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            close(ends[0])
            defer { close(ends[1]) }
            let devices = (1...5).map { String(format: "cd%062x", $0) }
            let run = try InProcess.Run(
                [
                    "send", "--alert", "hi", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                    "--cert", mock.certificate, "--topic", mock.bundleID, "--timeout", "60",
                ] + devices.flatMap { ["-d", $0] }, stdout: .descriptor(ends[1]))
            #expect(mock.log.receiptsPerDevice(expectingAtLeast: 2).count == 2, "\(run.stderr)")
            run.interrupts.deliver(SIGINT)
            let (status, _) = run.finish(within: 15)
            #expect(status == 130, "\(run.stderr)")
            #expect(
                run.stderr.contains("error: standard output was closed after 0 results; 3 devices were not sent"),
                "\(run.stderr)")
            #expect(
                run.stderr.hasSuffix("error: interrupted by SIGINT: 2 sent without an answer, 3 never sent\n"),
                "\(run.stderr)")
            #expect(!run.stderr.contains("above"), "\(run.stderr)")
        }
    }

    /// Interrupted while a piped list is being sent: the devices the sender had taken, the `-d` tokens not reached
    /// and those already read from the pipe into the list's buffer are counted as never sent and written to
    /// `--unsent` (the buffered ones were lost before); "the rest of the list" is said only while the pipe may
    /// hold more (its writer still open).
    @Test(arguments: [(false, 0), (true, 0), (false, 2)])
    func aPipedListsHeldDevicesAreNeverLostToAnInterrupt(_ writerClosed: Bool, _ flagged: Int) async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-never-answer", "--max-streams", "2"], keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "unsent")
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            defer { close(ends[0]) }
            let flags = (1...max(1, flagged)).prefix(flagged).map { String(format: "aa%062x", $0) }
            let piped = (1...6).map { String(format: "cd%062x", $0) }
            let list = Array(piped.map { $0 + "\n" }.joined().utf8)
            #expect(list.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == list.count)
            if writerClosed { close(ends[1]) }
            defer { if !writerClosed { close(ends[1]) } }
            let unsent = scratch.file("unsent.txt")
            let run = try InProcess.Run(
                [
                    "send", "--alert", "hi", "--devices", "-", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                    "--cert", mock.certificate, "--topic", mock.bundleID, "-q", "--unsent", unsent, "--timeout", "60",
                ] + flags.flatMap { ["-d", $0] }, standardInput: ends[0])
            // Two requests reached the never-answering mock: the rest are taken, held or buffered.
            #expect(mock.log.receiptsPerDevice(expectingAtLeast: 2).count == 2, "\(run.stderr)")
            run.interrupts.deliver(SIGINT)
            let (status, _) = run.finish(within: 15)
            #expect(status == 130, "\(run.stderr)")
            let all = flags + piped
            let never = all.count - 2
            // The summary (and the history) says the pipe's rest was not read: the count is not the whole.
            let unread = writerClosed ? "" : " and the rest of the list not read"
            #expect(
                run.stdout.hasSuffix("; \(never) never sent\(unread) (interrupted): written to \(unsent)\n"),
                "\(run.stdout)")
            let rest = writerClosed ? "; the results above are final" : ", the rest of the list was not read"
            #expect(
                run.stderr.contains(
                    "error: interrupted by SIGINT: 2 sent without an answer, \(never) never sent\(rest)"),
                "\(run.stderr)")
            let written = try String(contentsOfFile: unsent, encoding: .utf8).split(separator: "\n").map(String.init)
            // Every device is there, in input order: the two sent commented out (APNs may have them), the others as
            // they are.
            let listed = written.filter { !$0.hasPrefix("# ") || $0.count == 66 }.map {
                $0.hasPrefix("# ") ? String($0.dropFirst(2)) : $0
            }
            #expect(listed == all, "\(written)")
            #expect(all.filter { written.contains($0) }.count == never, "\(written)")
            #expect(written.contains { $0.hasPrefix("# the rest of --devices -") } == !writerClosed, "\(written)")
        }
    }

    /// `doctor` against a server that never answers its probe: a signal prints the checks that finished (text or
    /// JSON), then CLI.md's interrupted line, and exits 130 or 143; the check cut short is not reported as failed.
    @Test(arguments: [(SIGINT, "json"), (SIGTERM, "text")])
    func anInterruptedDoctorPrintsTheChecksThatFinished(_ signal: Int32, _ format: String) async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-never-answer"], keepingLog: true)
            let run = try InProcess.Run([
                "doctor", "--env", "sandbox", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert",
                mock.certificate, "-o", format, "--timeout", "60",
            ])
            #expect(Wait.until { run.interrupts.wasAsked }, "doctor never asked for its interrupts: \(run.stderr)")
            // The probe reached the mock: every check before auth has finished, and auth waits for an answer.
            #expect(mock.log.receiptsPerDevice(expectingAtLeast: 1).count == 1, "the probe never reached the mock")
            run.interrupts.deliver(signal)
            let (status, waited) = run.finish(within: 15)
            #expect(status == 128 + signal, "\(run.stdout)\(run.stderr)")
            #expect(waited < 10, "the probe's wait gave way to the signal")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            let names = ["credentials", "dns", "connect", "tls"]
            #expect(lines.count == names.count, "\(run.stdout)")
            for (line, name) in zip(lines, names) {
                #expect(
                    format == "json" ? line.hasPrefix("{\"check\":\"\(name)\"") : line.hasPrefix("ok    \(name)"),
                    "\(line)")
            }
            let signalName = signal == SIGINT ? "SIGINT" : "SIGTERM"
            #expect(
                run.stderr
                    == "error: interrupted by \(signalName): the checks above finished; the one under way and those after it did not run\n"
            )
        }
    }

    /// `channel` takes its interrupts from the world too: a management request to a server that never answers
    /// stops at the signal with 130 or 143. A list changed nothing; a create or a delete may have been carried
    /// out, and the advice names the one command that shows whether (a list was told to check with channel list).
    @Test(arguments: [
        (["channel", "list"], SIGTERM, "interrupted by SIGTERM; nothing changed (it only reads)"),
        (
            ["channel", "create"], SIGINT,
            "interrupted by SIGINT; the channel may or may not have been created: apnsctl channel list, with this command's flags except --storage, shows whether it was"
        ),
        (
            ["channel", "delete", "dGVzdC1jaGFubmVs", "--yes"], SIGINT,
            "interrupted by SIGINT; the channel may or may not have been deleted: apnsctl channel get dGVzdC1jaGFubmVs, with this command's flags except --yes, shows whether it was"
        ),
    ])
    func aChannelRequestIsInterruptedThroughTheWorld(command: [String], signal: Int32, advice: String) async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-never-answer"])
            let run = try InProcess.Run(
                command + ["--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate])
            #expect(
                Wait.until { run.interrupts.wasAsked },
                "the channel request never asked for its interrupts: \(run.stderr)")
            run.interrupts.deliver(signal)
            let (status, _) = run.finish(within: 15)
            #expect(status == 128 + signal, "\(run.stderr)")
            #expect(run.stderr.contains(advice), "\(run.stderr)")
        }
    }
}
