import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// Output that fits terminals and pipes (CLI.md "Text output"): whole tokens on rejected and
/// failed lines, `-q`, `--color` and `NO_COLOR`/`TERM=dumb`, the progress line only when stdout is a file
/// or /dev/null, and `-v` naming what failed. Terminal cases run on a pseudo-terminal.
@Suite struct SendOutputTests {
    static let good = String(repeating: "3f2a", count: 16)
    static let bad = "77b0" + String(repeating: "0", count: 56) + "0a11"

    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "cd" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    private func sendArguments(_ mock: InProcessMock) -> [String] {
        ["send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "--alert", "hi"]
    }

    @Test func rejectedLinesPrintTheWholeTokenAndQuietPrintsOnlyThem() throws {
        let mock = try InProcessMock(["--reject", "\(Self.bad)=BadDeviceToken"])
        let r = try InProcess.apnsctl(sendArguments(mock) + ["-d", Self.good, "-d", Self.bad])
        #expect(r.status == 1)
        #expect(r.lines.count == 3)
        #expect(r.lines[0].hasPrefix("accepted  200  3f2a…3f2a  apns-id="), "accepted lines keep the short token")
        #expect(
            r.lines[1].hasPrefix("rejected  400  BadDeviceToken  \(Self.bad)  The token is not valid"), "\(r.lines[1])")

        let quiet = try InProcess.apnsctl(sendArguments(mock) + ["-q", "-d", Self.good, "-d", Self.bad])
        #expect(quiet.status == 1)
        #expect(quiet.lines == [r.lines[1], "sent 2: 1 accepted, 1 rejected (BadDeviceToken 1)"])
        let quietAllGood = try InProcess.apnsctl(sendArguments(mock) + ["--quiet", "-d", Self.good])
        #expect(quietAllGood.status == 0 && quietAllGood.stdout.isEmpty)
    }

    /// Nothing answers, so nothing but the certificate is needed: it is written by this process before the
    /// sends start (not borrowed from a mock's state dir), and `--ca-file` keeps the machine's trust store
    /// (`SSL_CERT_FILE` from whatever environment runs the tests) out of it. Either one missing or unreadable
    /// would be exit 66, not the 69 this test is about.
    @Test func failedLinesPrintTheWholeTokenAndVerboseSaysWhatFailed() throws {
        let credentials = try TestCredentials()
        for endpoint in ["https://no-such-host.invalid:443", "https://127.0.0.1:9"] {
            let r = try InProcess.apnsctl([
                "send", "--cert", credentials.pushFile, "--ca-file", credentials.caFile,
                "--endpoint", endpoint, "-v", "--timeout", "20", "-d", Self.good,
            ])
            #expect(r.status == 69, "\(r.stderr)")
            #expect(r.lines.count == 1 && r.lines[0].hasPrefix("failed    ---  \(Self.good)  "), "\(r.stdout)")
            let last = r.errorLines.filter { $0.hasPrefix("* ") }.last ?? ""
            #expect(last.hasPrefix("* failed after ") && !r.stderr.contains("* done in"), "\(r.stderr)")
            #expect(
                last.contains(endpoint.contains("invalid") ? "cannot resolve no-such-host.invalid" : "cannot connect"),
                "\(last)")
        }
    }

    /// Colour on a terminal: `auto` honours NO_COLOR (only when non-empty) and TERM=dumb; `always` and
    /// `never` decide alone, whatever stdout is. How a real terminal is told from a file or a pipe is the
    /// progress test's below.
    @Test func colourFollowsColorNoColorAndTerm() throws {
        let mock = try InProcessMock()
        let green = "\u{1B}[32maccepted\u{1B}[0m"
        // Standard output is a terminal to the command; NO_COLOR and TERM are only what each case gives.
        func onTerminal(_ extra: [String], _ env: [String: String]) throws -> String {
            let r = try InProcess.apnsctl(
                sendArguments(mock) + ["-d", Self.good] + extra,
                environment: ["NO_COLOR": "", "TERM": "xterm"].merging(env) { $1 }, onTerminal: true)
            #expect(r.status == 0, "\(r.stderr)")
            // What the terminal shows: both streams.
            return r.stdout + r.stderr
        }
        #expect(try onTerminal([], ["NO_COLOR": ""]).contains(green), "an empty NO_COLOR does not disable colour")
        #expect(try onTerminal(["--color", "auto"], ["NO_COLOR": "1"]).contains("accepted  200") == true)
        #expect(try !onTerminal([], ["NO_COLOR": "1"]).contains("\u{1B}["))
        #expect(try !onTerminal([], ["TERM": "dumb"]).contains("\u{1B}["))
        #expect(try !onTerminal(["--color", "never"], [:]).contains("\u{1B}["))
        #expect(try onTerminal(["--color", "always"], ["NO_COLOR": "1"]).contains(green))
        let toFile = try InProcess.apnsctl(sendArguments(mock) + ["-d", Self.good, "--color", "always"])
        #expect(toFile.stdout.hasPrefix(green))
        let bad = try InProcess.apnsctl(sendArguments(mock) + ["-d", Self.good, "--color", "sometimes"])
        #expect(bad.status == 64, "\(bad.stderr)")
        // Named and advised as APNSCTL_COLOR and a profile's `color` are, not in the argument parser's words.
        #expect(bad.stderr.hasPrefix("error: --color sometimes: use auto, always or never\n"), "\(bad.stderr)")
        let upper = try InProcess.apnsctl(sendArguments(mock) + ["-d", Self.good, "--color", "ALWAYS"])
        #expect(upper.status == 0 && upper.stdout.hasPrefix(green), "\(upper.stderr)")
    }

    /// The progress line: on stderr (a terminal) only while stdout goes to a file or /dev/null, at most
    /// 10 redraws a second, replaced at the end by the summary, which stays. Never into a pipe's reader.
    /// In-process, standard error a pseudo-terminal and standard output a descriptor of each kind, asked what it is
    /// as the binary asks its own.
    @Test func progressOnlyWhenStdoutIsAFileAndTheSummaryStays() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "progress")
        let count = 5000
        let list = try scratch.write("tokens.txt", (1...count).map(Self.token).joined(separator: "\n") + "\n")
        let args = sendArguments(mock) + ["--devices", list, "--concurrency", "1"]
        /// Runs `args` + `extra` with stderr on a terminal and stdout on `stdout` (the terminal when nil); what the
        /// terminal showed, the status and the seconds it took.
        func onTerminal(stdout: Int32?, _ extra: [String] = [], copying pipe: Int32? = nil) throws -> (
            transcript: String, status: Int32, seconds: Double
        ) {
            let terminal = try TestTerminal()
            // `| cat`: the pipe's reader copies it to the terminal.
            let copied = DispatchSemaphore(value: 0)
            if let pipe {
                Thread.detachNewThread {
                    _ = posixWriteAll(terminal.fd, FileSystem.readAll(fd: pipe))
                    close(pipe)
                    copied.signal()
                }
            }
            let r = try InProcess.apnsctl(
                args + extra, environment: ["NO_COLOR": ""], stdout: .descriptor(stdout ?? terminal.fd),
                stderr: terminal.fd)
            if let stdout { close(stdout) }
            if pipe != nil { #expect(copied.wait(timeout: .now() + 30) == .success) }
            let transcript = terminal.finish()
            #expect(transcript != nil, "the terminal never closed")
            return (transcript ?? "", r.status, r.seconds)
        }
        let summary = "sent \(count): \(count) accepted"

        for path in [scratch.file("out.txt"), "/dev/null"] {
            let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            try #require(file >= 0)
            let (transcript, status, seconds) = try onTerminal(stdout: file, ["-o", "json"])
            #expect(status == 0, "\(transcript.suffix(300))")
            let redraws = transcript.components(separatedBy: "\rsent ").count - 1
            #expect(redraws >= 1, "a run of \(seconds) s drew no progress: \(transcript.suffix(200))")
            #expect(Double(redraws) <= seconds * 10 + 2, "\(redraws) redraws in \(seconds) s")
            #expect(transcript.hasSuffix("\r\u{1B}[K" + summary + "\r\n"), "\(transcript.suffix(200))")
        }
        let file = try String(contentsOfFile: scratch.file("out.txt"), encoding: .utf8)
        #expect(file.split(separator: "\n").count == count, "JSON Lines only; the summary went to the terminal")

        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let piped = try onTerminal(stdout: ends[1], ["-o", "json"], copying: ends[0])
        #expect(piped.status == 0)
        #expect(
            !piped.transcript.contains("\r\u{1B}[K") && !piped.transcript.contains("sent "),
            "nothing mixes into a pipe reader's output")
        #expect(piped.transcript.components(separatedBy: "\r\n").filter { $0.hasPrefix("{\"device\"") }.count == count)

        let direct = try onTerminal(stdout: nil)
        #expect(!direct.transcript.contains("\r\u{1B}[K"), "no progress when results go to the terminal")
        #expect(direct.transcript.hasSuffix(summary + "\r\n"))
    }
}
