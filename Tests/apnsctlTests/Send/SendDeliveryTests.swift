import APNSCore
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md's delivery promises, end to end: the built binary against `apnsctl mock` misbehaving the way
/// real servers do. Every device gets exactly one result, and the mock's own log shows that nothing it
/// answered was sent twice.
@Suite struct SendDeliveryTests {
    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "cd" + zeros.prefix(62 - hex.count) + hex
    }

    /// Zeros to pad a token with, made once: the tests are built without optimisation, and some make 200,000.
    private static let zeros = String(repeating: "0", count: 62)

    static func deviceFile(_ count: Int, in dir: TemporaryDirectory) throws -> String {
        try dir.write("devices.txt", (1...count).map { token($0) }.joined(separator: "\n") + "\n")
    }

    /// The `device` of each JSON result line.
    static func devices(in lines: [String]) -> [String] {
        lines.compactMap { line in
            guard let r = line.range(of: "\"device\":\"") else { return nil }
            return String(line[r.upperBound...].prefix(64))
        }
    }

    private func send(_ mock: InProcessMock, _ extra: [String], timeout: Double = 120) throws -> CommandResult {
        try InProcess.apnsctl(
            [
                "send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                "--cert", mock.certificate, "-o", "json",
            ] + extra, timeout: timeout)
    }

    /// Every fault, judged by the mock's receipt log (a line for each request that arrived whole, answered
    /// or not): no device reached the server twice, every device got one result, and those the server
    /// received without answering are `unknown` (exit 69). GOAWAY faults refuse what they did not process,
    /// so everything is delivered there.
    @Test(arguments: [
        ["--fault-goaway-after", "300"], ["--fault-reset-after", "300"], ["--fault-eof-after", "300"],
        ["--fault-goaway-after", "0", "--fault-connections", "2"],
        ["--fault-close-after", "0", "--fault-connections", "3"],
        ["--fault-close-after", "300"],
        ["--fault-drop-unanswered-after", "300"], ["--fault-drop-unanswered-after", "0", "--fault-connections", "1"],
    ])
    func everyDeviceOnceUnderAFault(_ fault: [String]) async throws {
        try await offThePool {
            let mock = try InProcessMock(fault, keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "delivery")
            let r = try send(mock, ["--devices", try Self.deviceFile(2000, in: scratch)])
            let results = Self.devices(in: r.lines)
            #expect(results.count == 2000)
            #expect(Set(results).count == 2000, "a device got more than one result")
            let accepted = r.lines.filter { $0.contains("\"status\":200") }.count
            let unknown = r.lines.filter { $0.contains("\"status\":null") && $0.contains("\"delivery\":\"unknown\"") }
                .count
            #expect(accepted + unknown == 2000, "\(r.stderr.suffix(600))")
            #expect(r.status == (unknown > 0 ? 69 : 0), "\(r.stderr.suffix(600))")
            if fault[0] == "--fault-goaway-after" { #expect(unknown == 0) }
            let receipts = mock.receiptsPerDevice(expectingAtLeast: accepted)
            let twice = receipts.filter { $0.value > 1 }
            #expect(
                twice.count == 0,
                "the mock received \(twice.count) devices more than once, e.g. \(twice.first.map { "\($0.key) ×\($0.value)" } ?? "")"
            )
            let answers = mock.answersPerDevice(expectingAtLeast: accepted)
            #expect(answers.values.allSatisfy { $0 == 1 })
        }
    }

    /// A GOAWAY every 300 requests: each connection after the first resumes the TLS session of one before it
    /// (`--verbose` says `(resumed)`), with certificate and token auth alike, and every device is still accepted
    /// once. Each was a full handshake, with both certificates decoded and checked on both sides.
    @Test(arguments: [false, true])
    func reconnectsResumeTheTLSSession(token: Bool) async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-goaway-after", "300"])
            let scratch = try TemporaryDirectory(prefix: "resume")
            let credentials =
                token
                ? ["--auth-key", mock.authKey, "--team-id", mock.teamID, "--topic", mock.bundleID]
                : ["--cert", mock.certificate]
            let r = try InProcess.apnsctl(
                [
                    "send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                    "-o", "json", "-v", "--devices", try Self.deviceFile(1200, in: scratch),
                ] + credentials, timeout: 120)
            #expect(r.status == 0, "\(r.stderr.suffix(600))")
            #expect(r.lines.filter { $0.contains("\"status\":200") }.count == 1200)
            let handshakes = r.errorLines.filter { $0.contains("TLS handshake") }
            #expect(handshakes.count >= 4, "\(handshakes)")
            #expect(handshakes.first?.hasSuffix("(resumed)") == false, "\(handshakes)")
            #expect(handshakes.dropFirst().allSatisfy { $0.hasSuffix(" (resumed)") }, "\(handshakes)")
        }
    }

    @Test func resendUnknownSendsWhatTheServerReceivedWithoutAnswering() async throws {
        try await offThePool {
            let mock = try InProcessMock(
                ["--fault-drop-unanswered-after", "100", "--fault-connections", "2"], keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "delivery")
            let r = try send(mock, ["--devices", try Self.deviceFile(500, in: scratch), "--resend-unknown"])
            #expect(r.status == 0, "\(r.stderr.suffix(600))")
            let results = Self.devices(in: r.lines)
            #expect(
                results.count == 500 && Set(results).count == 500
                    && r.lines.allSatisfy { $0.contains("\"status\":200") })
            #expect(r.lines.contains { $0.contains("\"attempts\":2") }, "a device sent again says so")
            #expect(
                mock.receiptsPerDevice(expectingAtLeast: 500).values.contains { $0 > 1 },
                "at least once: some were received twice")
        }
    }

    @Test func aServerThatDropsEveryConnectionBeforeAnyAnswerIsTriedFourTimesThenFails() async throws {
        try await offThePool {
            // GOAWAY with last-stream-id 0 on every connection: nothing processed, so everything is sent again,
            // after 0.25, 0.5 and 1 s: the first connection and 3 tries after it, all without an answer.
            let mock = try InProcessMock(["--fault-goaway-after", "0"], keepingLog: true)
            let r = try send(mock, ["-d", Self.token(1), "-d", Self.token(2), "-v"], timeout: 60)
            #expect(r.status == 69, "\(r.stderr.suffix(600))")
            #expect(
                r.lines.count == 2
                    && r.lines.allSatisfy { $0.contains("\"status\":null") && !$0.contains("\"delivery\"") })
            #expect(r.stderr.components(separatedBy: "* connecting to").count - 1 == 4)
            // CLI.md: the message counts the tries after the connection that ended, 3 of the 4.
            #expect(r.stderr.contains("no answer after 3 connections in a row"), "\(r.stderr.suffix(600))")
            // Each result says its request never left (refused unprocessed each time), not just "no answer".
            #expect(
                r.lines.allSatisfy { $0.contains(#""error":"never sent: no answer after 3 connections in a row"#) },
                "\(r.stdout)")
            #expect(r.seconds >= 1.7, "the backoff waits 0.25 + 0.5 + 1 s: \(r.seconds) s")
            #expect(mock.answersPerDevice().isEmpty)
        }
    }

    @Test func aServerThatDropsWhatItReceivedLeavesItUnknownAndDoesNotReconnect() async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-close-after", "0"], keepingLog: true)
            let r = try send(mock, ["-d", Self.token(1), "-d", Self.token(2), "-v"], timeout: 60)
            #expect(r.status == 69, "\(r.stderr.suffix(600))")
            #expect(
                r.lines.count == 2
                    && r.lines.allSatisfy { $0.contains("\"status\":null") && $0.contains("\"delivery\":\"unknown\"") })
            #expect(r.stderr.components(separatedBy: "* connecting to").count - 1 == 1)
            #expect(r.stderr.contains("2 may have been delivered"), "\(r.stderr.suffix(600))")
            #expect(
                r.stderr.contains("(0 answered on it; 2 sent without an answer: unknown, not sent again)"),
                "-v says what becomes of them")
        }
    }

    @Test func aLargeBatchWithAFaultEvery10000AnswersStaysSmall() async throws {
        try await offThePool {
            // In process, so the answer observer counts every answer (a log reader could fall behind).
            // GOAWAY every 10,000 answers: the next connection opens while the old one drains.
            let mock = try ObservedMock(faults: MockFaults(goAwayAfterStreams: 10_000))
            let scratch = try TemporaryDirectory(prefix: "large")
            let file = try Self.deviceFile(100_000, in: scratch)
            let out = scratch.file("results.jsonl")
            let shell =
                "\"$0\" -f maxrss_kb=%M \"$1\" send '{\"aps\":{\"alert\":\"hi\"}}' --endpoint \"$2\" --ca-file \"$3\" --cert \"$4\" --devices \"$5\" -o json > \"$6\""
            let run = try CommandRunner.run(
                "/bin/sh",
                [
                    "-c", shell, "/usr/bin/time", CommandRunner.measuredPath, mock.endpoint,
                    mock.caFile, mock.certificateFile, file, out,
                ], timeout: 300)
            #expect(run.status == 0, "\(run.stderr.suffix(600))")
            // Counted with sort and uniq: 100,000 lines are slow to split in a debug build.
            let count = try CommandRunner.run(
                "/bin/sh",
                ["-c", "grep -o '\"device\":\"[0-9a-f]*\"' \"$0\" | sort | uniq | wc -l; grep -c . \"$0\"", out],
                // Bytes, not the locale's characters: the same count of ASCII lines, several times faster.
                environment: ["LC_ALL": "C"])
            #expect(
                count.lines.map { $0.trimmingCharacters(in: .whitespaces) } == ["100000", "100000"],
                "distinct devices, then lines")
            let answers = mock.answeredDevices
            #expect(answers.count == 100_000)
            #expect(mock.answeredTwice.isEmpty, "the mock answered \(mock.answeredTwice.count) devices twice")
            #expect(mock.answeringConnections >= 10)
            let rss = run.stderr.split(separator: "\n").compactMap {
                $0.hasPrefix("maxrss_kb=") ? Int($0.dropFirst(10)) : nil
            }.first
            #expect(rss != nil)
            #expect((rss ?? .max) < 30 * 1024, "peak RSS \(rss ?? 0) kB")
        }
    }
}

/// CLI.md, `send`, Interrupts: the first SIGINT/SIGTERM stops new requests, waits up to 2 s for the
/// answers in flight, prints a result for every device sent and a summary of the rest; a second one
/// exits at once.
@Suite struct SendInterruptTests {
    /// Starts `apnsctl send` in the background with stdout and stderr in files.
    final class Background {
        let process = Process()
        let dir: TemporaryDirectory
        init(_ arguments: [String], environment: [String: String] = [:]) throws {
            dir = try TemporaryDirectory(prefix: "interrupt")
            process.executableURL = URL(fileURLWithPath: CommandRunner.apnsctlPath)
            process.arguments = arguments
            BinaryStarts.record()
            // As every command under test gets it: plain output, no history recorded into the account running
            // the tests (it was, once for every run of the suite).
            process.environment = CommandRunner.commandEnvironment(environment)
            _ = FileManager.default.createFile(atPath: dir.file("out"), contents: nil)
            _ = FileManager.default.createFile(atPath: dir.file("err"), contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("out")))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("err")))
            process.standardInput = FileHandle.nullDevice
            try process.runAsAShellWould()
        }
        var stdout: String { (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: dir.file("err"), encoding: .utf8)) ?? "" }
        /// Waits until `condition` holds, at most `seconds`.
        func wait(seconds: Double, until condition: () -> Bool) -> Bool {
            Wait.until(seconds: seconds, interval: 0.02, condition)
        }
        /// Waits for exit, at most `seconds`; kills it after that. Returns (status, seconds waited).
        func finish(within seconds: Double) -> (status: Int32, waited: Double) {
            let start = Date()
            Wait.until(seconds: seconds) { !process.isRunning }
            let waited = Date().timeIntervalSince(start)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return (process.terminationStatus, waited)
        }
        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    }

    func sendArguments(_ mock: InProcessMock, devices: String, output: String = "json") -> [String] {
        [
            "send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
            "--cert", mock.certificate, "--devices", devices, "-o", output, "-v",
        ]
    }

    // The first signal's handling (results for what was sent, 130/143, nothing doubled) is tested in-process
    // through the world's interrupts (WorldInterruptTests); these are about the process's own signals.

    /// 50 devices sent to a mock that never answers, all 50 in flight.
    func silentSendWithFiftyInFlight(extra: [String] = [], environment: [String: String] = [:]) throws -> (
        InProcessMock, Background
    ) {
        let mock = try InProcessMock(["--fault-never-answer"])
        let scratch = try TemporaryDirectory(prefix: "devices")
        let send = try Background(
            sendArguments(mock, devices: try SendDeliveryTests.deviceFile(50, in: scratch)) + extra,
            environment: environment)
        #expect(send.wait(seconds: 20) { send.stderr.components(separatedBy: "* request for").count > 50 })
        return (mock, send)
    }

    @Test func aSecondSignalAfterOneSecondExitsAtOnceSayingWhatWasNotPrinted() async throws {
        try await offThePool {
            let directory = try TemporaryDirectory(prefix: "second-signal")
            let unsent = directory.file("un sent.txt")
            // With a history (an empty APNSCTL_NO_HISTORY is unset), which the exit at once leaves unwritten: said.
            let state = ["APNSCTL_NO_HISTORY": "", "XDG_STATE_HOME": directory.file("state")]
            let (mock, send) = try silentSendWithFiftyInFlight(extra: ["--unsent", unsent], environment: state)
            defer { withExtendedLifetime((mock, directory)) {} }
            kill(send.process.processIdentifier, SIGINT)
            #expect(send.wait(seconds: 20) { send.stderr.contains("* SIGINT: sending nothing new") })
            // Time passing is the subject here: the first was taken before its line appeared, so this is more than
            // 1 s after it, and well before the 2 s the answers in flight are given.
            usleep(1_100_000)
            kill(send.process.processIdentifier, SIGINT)
            let (status, waited) = send.finish(within: 10)
            #expect(status == 130)
            // At once: the signal handler itself exits, so the results owed are not printed; the bound is only a
            // loaded machine's margin (the grace period would have printed all 50).
            #expect(waited < 5, "the second signal took \(waited) s")
            #expect(send.stdout.split(separator: "\n").count < 50, "the results owed were printed: \(send.stdout)")
            #expect(
                send.stderr.contains(
                    "error: interrupted again: exiting now; 50 results were not printed; --unsent '\(unsent)' was not written; this send is not in the history\n"
                ),
                "\(send.stderr.suffix(300))")
        }
    }

    @Test func aSecondSignalWithinOneSecondIsTheSameOne() async throws {
        try await offThePool {
            let (mock, send) = try silentSendWithFiftyInFlight()
            defer { withExtendedLifetime(mock) {} }
            kill(send.process.processIdentifier, SIGINT)
            // The second once the first was taken (not merged with it while pending), well within its second.
            #expect(send.wait(seconds: 20) { send.stderr.contains("* SIGINT: sending nothing new") })
            kill(send.process.processIdentifier, SIGINT)
            let (status, waited) = send.finish(within: 10)
            #expect(status == 130)
            #expect(waited >= 1.5, "the grace period still ran: \(waited) s")
            #expect(send.stdout.split(separator: "\n").count == 50, "every result printed")
            // The interrupted run is one a history would record: not into the account running the tests.
            #expect(send.process.environment?["APNSCTL_NO_HISTORY"] == "1")
        }
    }

    /// GNU timeout signals the command, then its whole process group: the same signal twice at once.
    @Test func gnuTimeoutWithSIGINTPrintsTheResultsAndExits130() async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-never-answer"])
            let scratch = try TemporaryDirectory(prefix: "devices")
            let file = try SendDeliveryTests.deviceFile(20, in: scratch)
            let r = try CommandRunner.run(
                "timeout",
                // Three seconds, though 20 requests take milliseconds: a loaded machine once took more than one.
                ["--preserve-status", "-s", "INT", "3", CommandRunner.apnsctlPath] + sendArguments(mock, devices: file),
                timeout: 30)
            #expect(r.status == 130, "\(r.stderr.suffix(400))")
            // Written whole before the signal, unanswered: the interrupt leaves them unknown (CLI.md).
            #expect(
                r.lines.count == 20
                    && r.lines.allSatisfy {
                        $0.contains("\"error\":\"unknown: interrupted after the request was sent")
                            && $0.contains("\"delivery\":\"unknown\"")
                    })
        }
    }
}

/// CLI.md: connecting tries every address the host resolves to, IPv6 and IPv4 interleaved. Run with
/// `localhost` resolving to both `::1` and `127.0.0.1` (a private mount namespace with its own
/// /etc/hosts, so the machine's file is untouched) and the mock listening on only one of them: the binary asks
/// the system resolver, as it does for users. SendNameLookupTests has the other order, a silent resolver and
/// Ctrl-C during a lookup, in-process with the resolver's answers given.
@Suite(.enabled(if: getuid() == 0, "needs root for unshare --mount"))
struct SendNameResolutionTests {
    func sendToLocalhost(mockHost: String, hosts: String) throws -> CommandResult {
        let mock = try InProcessMock(["--host", mockHost])
        let port = mock.endpoint.split(separator: ":").last.map(String.init) ?? ""
        let scratch = try TemporaryDirectory(prefix: "hosts")
        let hostsFile = try scratch.write("hosts", hosts)
        let script = "mount --bind \"$1\" /etc/hosts && shift && exec \"$@\""
        return try CommandRunner.run(
            "/usr/bin/unshare",
            [
                "--mount", "/bin/sh", "-c", script, "sh", hostsFile,
                CommandRunner.apnsctlPath, "send", "-d", SendDeliveryTests.token(7),
                "--endpoint", "https://localhost:\(port)", "--ca-file", mock.caFile,
                "--cert", mock.certificate, "-v", "--timeout", "20",
            ], timeout: 60)
    }

    @Test func ipv6FirstButTheServerListensOnIPv4Only() async throws {
        try await offThePool {
            let r = try sendToLocalhost(mockHost: "127.0.0.1", hosts: "::1 localhost\n127.0.0.1 localhost\n")
            #expect(r.status == 0, "\(r.stderr.suffix(500))")
            #expect(r.stdout.hasPrefix("accepted  200"))
            #expect(r.seconds < 10, "a refused ::1 must not cost a timeout")
        }
    }
}
