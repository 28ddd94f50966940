import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// CLI.md "Output is never lost silently": every command whose standard output fails (a full disk as
/// `/dev/full` gives it, a stdout closed at start, a size limit on an output file) exits 74 with a message
/// saying what was not written, never 0.
@Suite struct OutputFailureTests {
    /// Runs apnsctl through sh with `redirect` applied to its stdout (`>&-`), and `limit` (`ulimit -f` blocks) if
    /// given: for what `main` does to the process (the descriptors it reserves, the signals it ignores). sh execs
    /// apnsctl, so the status is apnsctl's own.
    static func binary(
        _ arguments: [String], redirect: String, fileSizeLimit: Int? = nil,
        environment: [String: String] = [:], directory: String? = nil
    ) throws -> CommandResult {
        let limit = fileSizeLimit.map { "ulimit -f \($0) && " } ?? ""
        return try CommandRunner.run(
            "/bin/sh", ["-c", "\(limit)exec \"$0\" \"$@\" \(redirect)", CommandRunner.apnsctlPath] + arguments,
            environment: environment, directory: directory)
    }

    /// What standard output is to a command run in-process.
    enum Stdout {
        /// `>/dev/full`: every write fails with ENOSPC, as on a full disk.
        case full
        /// `>&-`: closed when the process started.
        case closed
    }

    /// A descriptor open for writing on a full-disk device: a node like /dev/full (character device 1,7) made in
    /// `directory`, so a test never opens a real /dev entry. Every write fails with ENOSPC.
    static func fullDevice(in directory: TemporaryDirectory) throws -> Int32 {
        let node = directory.file("full")
        guard mknod(node, S_IFCHR | 0o600, dev_t((1 << 8) | 7)) == 0 else {
            throw TestSupportError("mknod \(node): \(errno) (mknod needs root; the tests run as root)")
        }
        let fd = open(node, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TestSupportError("opening \(node): \(errno)") }
        return fd
    }

    /// Runs apnsctl in-process with its standard output on a full-disk device, or closed at start as `main` leaves it.
    static func apnsctl(
        _ arguments: [String], stdout: Stdout, environment: [String: String] = [:], timeout: Double = 60
    ) throws -> CommandResult {
        switch stdout {
        case .closed:
            return try InProcess.apnsctl(arguments, environment: environment, timeout: timeout, stdout: .closedAtStart)
        case .full:
            let full = try fullDevice(in: TemporaryDirectory(prefix: "full"))
            defer { close(full) }
            return try InProcess.apnsctl(
                arguments, environment: environment, timeout: timeout, stdout: .descriptor(full))
        }
    }

    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "ab" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    @Test func everyLocalCommandOnAFullDiskExits74() async throws {
        try await offThePool {
            let scratch = try TemporaryDirectory(prefix: "out-full")
            let payload = try scratch.write("p.json", #"{"aps":{"alert":"hi"}}"#)
            let mock = try InProcessMock()
            let commands: [(String, [String])] = [
                ("validate", ["validate", payload]),
                ("validate json", ["validate", payload, "-o", "json"]),
                ("inspect", ["inspect", mock.certificate]),
                ("inspect json", ["inspect", mock.certificate, "-o", "json"]),
                ("jwt", ["jwt", "--auth-key", mock.authKey, "--team-id", mock.teamID]),
                ("convert -o -", ["convert", mock.certificate, "-o", "-"]),
                ("--version", ["--version"]),
                ("--help", ["--help"]),
                ("help send", ["help", "send"]),
                ("dry run", ["send", "--dry-run", "--cert", mock.certificate, "-d", Self.token(1)]),
                (
                    "channel create",
                    [
                        "channel", "create", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert",
                        mock.certificate,
                    ]
                ),
            ]
            let env = ["APNSCTL_OUT_PASSPHRASE": "test-password"]
            for (name, args) in commands {
                let ok = try InProcess.apnsctl(args, environment: env)
                #expect(ok.status == 0, "\(name) without a redirect: \(ok.stderr)")
                let r = try Self.apnsctl(args, stdout: .full, environment: env)
                #expect(r.status == 74, "\(name): \(r.status) \(r.stderr)")
                #expect(
                    r.stderr.contains("error: writing standard output: No space left on device"), "\(name): \(r.stderr)"
                )
                let closed = try Self.apnsctl(args, stdout: .closed, environment: env)
                #expect(closed.status == 74, "\(name) with stdout closed: \(closed.status) \(closed.stderr)")
                #expect(
                    closed.stderr.contains("error: writing standard output: it was closed when apnsctl started"),
                    "\(name): \(closed.stderr)")
            }
        }
    }

    @Test func sendOnAFullDiskStopsAndExits74InTextAndJSON() async throws {
        try await offThePool {
            let mock = try InProcessMock([], keepingLog: true)
            var devices: [String] = []
            for i in 1...40 { devices += ["-d", Self.token(i)] }
            for format in ["text", "json"] {
                let r = try Self.apnsctl(
                    [
                        "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                        "-o", format,
                    ] + devices, stdout: .full)
                #expect(r.status == 74, "\(format): \(r.status) \(r.stderr)")
                #expect(
                    r.stderr.contains("error: writing standard output: No space left on device; 0 results written, "),
                    "\(r.stderr)")
                #expect(
                    r.stderr.contains("devices were not sent") || r.stderr.contains("device was not sent"),
                    "\(r.stderr)")
            }
            // A rejection (1) does not hide the lost output either: 74 wins.
            let rejecting = try InProcessMock(["--unregistered", Self.token(1)])
            let r = try Self.apnsctl(
                [
                    "send", "--endpoint", rejecting.endpoint, "--ca-file", rejecting.caFile,
                    "--cert", rejecting.certificate, "-d", Self.token(1),
                ], stdout: .full)
            #expect(r.status == 74, "\(r.stderr)")
        }
    }

    /// With stdout closed at start (`main` reserves descriptor 1 then, so no socket can become stdout and take the
    /// results), `send` refuses before connecting: no device is notified whose result could not be shown. A
    /// standard input closed at start (the read-only /dev/null `main` puts there reads as empty) is missing input,
    /// 66, for `-` as a payload, a device list or a credential: not an empty payload (65) or credential (77). The
    /// process's own descriptors are the subject, so the binary runs.
    @Test func sendWithStdoutClosedAtStartExits74AndSendsNothing() async throws {
        try await offThePool {
            let mock = try InProcessMock([], keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "closed")
            let file = try scratch.write("d.txt", (1...3000).map { Self.token($0) }.joined(separator: "\n"))
            let r = try Self.binary(
                [
                    "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                    "--devices", file,
                ], redirect: ">&-")
            let refusal =
                "error: standard output was closed when apnsctl started (>&-), so no result could be shown; nothing "
                + "was sent: send the results to a file, or to /dev/null to drop them\n"
            #expect(r.status == 74, "\(r.status) \(r.stderr)")
            #expect(r.stderr == refusal, "\(r.stderr)")
            let single = try Self.binary(
                [
                    "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                    "-d", Self.token(1),
                ], redirect: ">&-")
            #expect(single.status == 74, "\(single.status) \(single.stderr)")
            #expect(single.stderr == refusal, "\(single.stderr)")
            let closedInput = "cannot read: standard input was closed when apnsctl started (<&-)"
            for arguments in [
                ["validate", "-"],
                [
                    "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                    "--devices", "-",
                ],
                ["convert", "-", "-o", scratch.file("out.pem")],
            ] {
                let r = try Self.binary(arguments, redirect: "<&-")
                #expect(r.status == 66, "\(arguments): \(r.status) \(r.stderr)")
                #expect(r.stderr.contains(closedInput), "\(arguments): \(r.stderr)")
            }
            #expect(mock.answersPerDevice().isEmpty, "\(mock.answersPerDevice())")
        }
    }

    /// `apnsctl send … | head -1`: the reader exits, `send` stops like after SIGINT, says what was not sent.
    @Test func sendStopsWhenItsReaderExits() async throws {
        try await offThePool {
            let mock = try InProcessMock([], keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "head")
            let total = 20_000
            let file = try scratch.write("d.txt", (1...total).map { Self.token($0) }.joined(separator: "\n"))
            let head = try HeadPipe()
            let state = ["XDG_STATE_HOME": scratch.file("state")]
            let r = try InProcess.apnsctl(
                [
                    "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                    "--devices", file,
                ], environment: state, timeout: 120, stdout: .descriptor(head.writeEnd))
            let taken = head.finish()
            #expect(r.status == 74, "\(r.status) \(r.stderr)")
            #expect(taken?.split(separator: "\n").count == 1, "\(taken ?? "head -1 never ended")")
            let message = r.errorLines.first { $0.hasPrefix("error: standard output was closed after ") }
            #expect(message != nil, "\(r.stderr)")
            if let message, let range = message.range(of: "; ") {
                let rest = message[range.upperBound...]
                let notSent = Int(rest.prefix { $0.isNumber }) ?? 0
                #expect(notSent > total / 2, "\(message)")
                // Every result is either printed or counted as not printed, with the entry that has them all.
                let printed = Int(
                    message.dropFirst("error: standard output was closed after ".count).prefix(while: \.isNumber))
                let unprinted =
                    message.range(of: " more device").map { range in
                        Int(String(message[..<range.lowerBound].reversed().prefix(while: \.isNumber).reversed())) ?? -1
                    } ?? 0
                let list = try InProcess.apnsctl(["history", "list", "-o", "json"], environment: state)
                let entry = try jsonObject(try #require(list.stdout.split(separator: "\n").first).description)
                #expect(entry["targets"] as? Int == (printed ?? -1) + unprinted, "\(message) \(list.stdout)")
                if unprinted > 0 {
                    #expect(
                        message.hasSuffix(
                            "got a result that was not printed (apnsctl history show 1 lists every result)"))
                }
            }
            let answered = mock.answersPerDevice().values.reduce(0, +)
            #expect(answered < total / 2, "the mock answered \(answered) of \(total)")
        }
    }

    /// Standard output lost in a run a `--timeout` ended: the devices the timeout failed before their requests left
    /// are counted as not sent (the --unsent file lists them so), and the ones that may have been delivered get the
    /// explanation exit 69 gives, before the 74 line; the --unsent file is named on stderr (no summary line could be).
    @Test func lostOutputAfterATimeoutCountsTheUnsentAndSaysTheUnknown() async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-never-answer", "--max-streams", "2"])
            let scratch = try TemporaryDirectory(prefix: "lost-timeout")
            let file = try scratch.write("d.txt", (1...5).map { Self.token($0) }.joined(separator: "\n"))
            let t = TestWorld(
                variables: ["XDG_STATE_HOME": scratch.file("state")], home: scratch.path,
                output: MemoryOutput(failingAfter: 0, with: EPIPE))
            t.world.clock = .system
            let status = t.run([
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "--devices",
                file, "--timeout", "1", "--alert", "hi", "--unsent", scratch.file("unsent.txt"),
            ])
            #expect(status == 74, "\(t.stderr.text)")
            // No summary line reached standard output to name the file the run resumes from: stderr names it.
            #expect(
                t.stderr.lines.first == "unsent devices written to \(scratch.file("unsent.txt"))", "\(t.stderr.text)")
            let lines = Array(t.stderr.lines.dropFirst())
            #expect(lines.count == 2, "\(t.stderr.text)")
            #expect(
                lines.first?.hasPrefix("error: no device got an answer: 2 devices: unknown: no answer within 1 s")
                    == true
                    && lines.first?.contains("; 2 may have been delivered: ") == true, "\(t.stderr.text)")
            #expect(
                lines.last
                    == "error: standard output was closed after 0 results; 3 devices were not sent; 2 more devices got a result that was not printed (apnsctl history show 1 lists every result)"
            )
            let listed = try scratch.read("unsent.txt").split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(listed.count == 3, "\(listed)")
        }
    }

    /// `ulimit -f`: the write past the limit fails (EFBIG, SIGXFSZ is ignored by `main`), exit 74, the old file is
    /// untouched and no temporary file is left. The limit is the process's (in-process it would bind the test
    /// runner), so the binary runs.
    @Test func anOutputFileOverASizeLimitLeavesTheOldFile() async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let scratch = try TemporaryDirectory(prefix: "fsize")
            let out = try scratch.write("out.pem", "old contents\n")
            // 1 block (512 bytes in sh): far less than a certificate and its key.
            let r = try Self.binary(
                ["convert", mock.certificate, "-o", out, "--force"], redirect: "", fileSizeLimit: 1)
            #expect(r.status == 74, "\(r.status) \(r.stderr)")
            #expect(r.stderr.contains("error: writing \(out): File too large"), "\(r.stderr)")
            #expect(try scratch.read("out.pem") == "old contents\n")
            let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
            #expect(names == ["out.pem"], "\(names)")
            // Without --force, to a new file: no file at all afterwards.
            let fresh = scratch.file("new.pem")
            let n = try Self.binary(["convert", mock.certificate, "-o", fresh], redirect: "", fileSizeLimit: 1)
            #expect(n.status == 74, "\(n.status) \(n.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fresh))
        }
    }

    /// The mock's log on a full disk: it keeps answering, says so on stderr, and exits 74 with the count. In-process,
    /// the log on a full-disk device and the warnings in a file; SIGTERM delivered through the world.
    @Test func mockWhoseLogCannotBeWrittenExits74WhenStopped() async throws {
        try await offThePool {
            let scratch = try TemporaryDirectory(prefix: "mock-full")
            let state = scratch.file("state")
            let full = try Self.fullDevice(in: scratch)
            defer { close(full) }
            let warningsFile = scratch.file("warnings")
            let warnings = open(warningsFile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            try #require(warnings >= 0)
            defer { close(warnings) }
            let mock = try InProcess.Run(
                ["mock", "--port", "0", "--state-dir", state], mockLog: full, mockWarnings: warnings)
            var ready: [String: Any] = [:]
            Wait.until(interval: 0.02) {
                if let data = FileManager.default.contents(atPath: state + "/mock.json"),
                    let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                {
                    ready = json
                }
                return !ready.isEmpty || mock.hasEnded
            }
            let endpoint = try #require(ready["endpoint"] as? String, "\(mock.stderr)")
            var devices: [String] = []
            for i in 1...5 { devices += ["-d", Self.token(i)] }
            let send = try InProcess.apnsctl(
                [
                    "send", "--endpoint", endpoint, "--ca-file", ready["ca_file"] as? String ?? "",
                    "--cert", ready["cert"] as? String ?? "",
                ] + devices)
            #expect(send.status == 0, "the mock keeps answering: \(send.stderr)")
            let again = try InProcess.apnsctl([
                "send", "--endpoint", endpoint, "--ca-file", ready["ca_file"] as? String ?? "",
                "--cert", ready["cert"] as? String ?? "", "-d", Self.token(9),
            ])
            #expect(again.status == 0, "\(again.stderr)")
            mock.interrupts.deliver(SIGTERM)
            let (status, _) = mock.finish(within: 30)
            let stderr = ((try? String(contentsOfFile: warningsFile, encoding: .utf8)) ?? "") + mock.stderr
            #expect(status == 74, "\(stderr)")
            #expect(
                stderr.contains(
                    "warning: apnsctl mock: writing the log to standard output failed (No space left on device)"),
                "\(stderr)")
            #expect(
                stderr.contains(
                    "error: apnsctl mock: writing standard output: No space left on device; 12 notification log lines were not written"
                ), "6 notifications, a received and an answered line each: \(stderr)")
        }
    }

    /// `doctor` with a failed check (exit 1) whose report cannot be written: 74 wins, as for every command
    /// (CLI.md, "Exit codes"); its verdict on stderr still says which check failed.
    @Test func doctorWithAFailedCheckOnAFullDiskExits74() async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let r = try Self.apnsctl(
                [
                    "doctor", "--ca-file", mock.caFile, "--endpoint", "sandbox=\(mock.endpoint)", "--env", "sandbox",
                    "--cert", mock.certificate, "--topic", "com.example.other",
                ], stdout: .full)
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stderr.contains("error: doctor: auth sandbox failed: 400 TopicDisallowed"), "\(r.stderr)")
            #expect(r.stderr.contains("No space left on device"), "\(r.stderr)")
        }
    }

    /// Nothing outside the output layer writes to descriptor 1: a write there would bypass the checks.
    @Test func onlyTheOutputLayerWritesToStandardOutput() async throws {
        try await offThePool {
            let root = Repository.path("Sources")
            let forbidden = [
                "print(", "STDOUT_FILENO", "writeAll(fd: 1", "Sink(fd: 1", "FileHandle.standardOutput", "fputs(",
                "putchar(", "posixWrite(1", "write(1,", "printOut(", "writeOut(",
            ]
            // The mock's log has a writer thread of its own (it must never block an event loop), writing through
            // OutputSink too; it exits 74 the same way (mockWhoseLogCannotBeWrittenExits74WhenStopped).
            let allowed = ["APNSPlatform/OutputSink.swift"]
            let files =
                FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter {
                    $0.hasSuffix(".swift")
                }
                ?? []
            #expect(files.count > 50)
            for file in files where !allowed.contains(file) {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    if code.hasPrefix("//") || code.hasPrefix("func ") || code.contains(" func ") { continue }
                    for pattern in forbidden where code.contains(pattern) {
                        // `.print(` is the sink's own method; a bare `print(` is Swift's, which writes fd 1.
                        if pattern == "print(" && !Self.callsSwiftPrint(code) { continue }
                        Issue.record("\(file):\(number + 1) writes to stdout outside OutputSink: \(code)")
                    }
                }
            }
        }
    }

    static func callsSwiftPrint(_ line: String) -> Bool {
        var search = line[...]
        while let range = search.range(of: "print(") {
            guard let before = line[..<range.lowerBound].last else { return true }
            if !(before.isLetter || before.isNumber || before == "." || before == "_") { return true }
            search = line[range.upperBound...]
        }
        return false
    }
}
