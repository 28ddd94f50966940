import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md, `send`, "Input and output at the edges": device lists are streamed and never touch the disk;
/// a regular file is checked whole first (every bad line reported), a pipe line by line.
@Suite struct DeviceListStreamingTests {
    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "ab" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    static func send(_ mock: InProcessMock, _ extra: [String]) -> [String] {
        ["send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate] + extra
    }

    /// A pipe of only bad lines with `--skip-invalid`: each is listed as a file's are, and the error counts them
    /// (it said "no device tokens in the file (blank lines and # comments are skipped)"), before connecting.
    @Test func aPipeOfOnlyBadLinesListsThem() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let r = try InProcess.apnsctl(
            Self.send(mock, ["--alert", "hi", "--devices", "-", "--skip-invalid"]),
            stdin: Array("zz\n# note\nyy\n".utf8))
        #expect(r.status == 64)
        #expect(
            r.errorLines == [
                #"error: --devices -:1: "zz": the device token must be hex, found 'z'"#,
                #"error: --devices -:3: "yy": the device token must be hex, found 'y'"#,
                "error: --devices -: no device tokens in it: its 2 lines were invalid and skipped (--skip-invalid)",
            ], "\(r.stderr)")
        #expect(mock.answersPerDevice().isEmpty)
        // A regular file of only bad lines says the same.
        let scratch = try TemporaryDirectory(prefix: "bad-lines")
        let file = try scratch.write("bad.txt", "zz\n")
        let fromFile = try InProcess.apnsctl(Self.send(mock, ["--alert", "hi", "--devices", file, "--skip-invalid"]))
        #expect(
            fromFile.errorLines.last
                == "error: --devices \(file): no device tokens in it: its 1 line was invalid and skipped (--skip-invalid)",
            "\(fromFile.stderr)")
    }

    /// `yes | apnsctl send --devices -`: in-process, standard input a pipe that `yes`'s lines fill for as long as
    /// it is open.
    @Test func yesIntoDevicesStopsAtLineOneWithoutConnecting() async throws {
        try await offThePool {
            let mock = try InProcessMock([], keepingLog: true)
            let yes = try FedPipe.readEnd(feeding: Array("y\n".utf8), repeating: true)
            defer { close(yes) }
            let r = try InProcess.apnsctl(
                Self.send(mock, ["--devices", "-"]), environment: ["TMPDIR": "/nonexistent/apnsctl-test"],
                timeout: 30, standardInput: yes)
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("error: --devices -:1: \"y\": "), "\(r.stderr)")
            #expect(r.seconds < 10)
            #expect(mock.answersPerDevice().isEmpty)
        }
    }

    /// `count` distinct tokens (`ab` and `i` in hex, 64 digits) piped into `send --devices - -o text -q` to a mock
    /// that rejects the first, the middle and the last, with no usable TMPDIR, on the binary peak memory is
    /// measured on. Quiet, so the measured run is the reading, the sending and the set of tokens seen, not a
    /// million JSON lines written and counted again; what shows each token was sent once and answered as itself
    /// is the summary (one result a line) and the three rejected lines, each naming its own token. The mock is a
    /// process of that binary too: answering a million requests, the debug build's server in the test process
    /// spent four times the CPU of the send being measured.
    /// `stateHome`: where the send is recorded (none without it).
    static func pipedSend(count: Int, stateHome: String? = nil) throws -> (run: CommandResult, peakKB: Int?) {
        let token = { (i: Int) in
            "ab" + String(repeating: "0", count: 62 - String(i, radix: 16).count) + String(i, radix: 16)
        }
        let rejected = [1, count / 2, count].map(token)
        let mock = try MockProcess(
            rejected.flatMap { ["--reject", "\($0)=BadDeviceToken"] }, binary: CommandRunner.measuredPath)
        let pipeline =
            "awk 'BEGIN { for (i = 1; i <= \(count); i++) printf \"ab%062x\\n\", i }' | "
            + "/usr/bin/time -f maxrss_kb=%M \"$0\" \"$@\" -o text -q"
        let r = try CommandRunner.run(
            "/bin/sh",
            ["-c", pipeline, CommandRunner.measuredPath, "send", "--endpoint", mock.endpoint]
                + ["--ca-file", mock.caFile, "--cert", mock.certificate, "--devices", "-"],
            environment: ["TMPDIR": "/nonexistent/apnsctl-test"].merging(
                stateHome.map { ["XDG_STATE_HOME": $0] } ?? [:]
            ) {
                $1
            }, timeout: 900)
        #expect(r.status == 1, "\(r.stderr.suffix(600))")
        #expect(
            r.lines.filter { $0.hasPrefix("rejected") }.map {
                $0.split(separator: " ").dropFirst(3).first.map(String.init)
            }
                == rejected, "\(r.lines.prefix(4))")
        #expect(
            r.lines.last == "sent \(count): \(count - 3) accepted, 3 rejected (BadDeviceToken 3)",
            "\(r.lines.suffix(1))")
        let rss = r.stderr.split(separator: "\n").compactMap {
            $0.hasPrefix("maxrss_kb=") ? Int($0.dropFirst(10)) : nil
        }.first
        return (r, rss)
    }

    /// Hundreds of thousands of tokens from a pipe with no usable TMPDIR: one result each, in bounded memory; and
    /// the entry the history keeps of them shown whole (`history show -o json`) in bounded memory too, read from the
    /// store as it is printed.
    @Test func aLongPipeIsStreamedInBoundedMemory() async throws {
        try await offThePool {
            let (_, rss) = try Self.pipedSend(count: 200_000)
            #expect(rss != nil)
            // 30 MB for the release build `make test` measures (26 MB); the -enable-testing build a hand-run test
            // measures peaks near 30 MB on its own, so it gets 2 MB more.
            let bound = CommandRunner.measuresReleaseBuild ? 30 * 1024 : 32 * 1024
            #expect((rss ?? .max) < bound, "peak RSS \(rss ?? 0) kB")

            // Recorded by a send of its own: recording costs a send some memory, which the bound above leaves out.
            let state = try TemporaryDirectory(prefix: "streamed-history")
            _ = try Self.pipedSend(count: 200_000, stateHome: state.path)
            let show = try CommandRunner.run(
                "/bin/sh",
                [
                    "-c",
                    #"/usr/bin/time -f maxrss_kb=%M "$0" history show last -o json | tee "$1/show.json" | grep -o '{"device":"ab' | wc -l"#,
                    CommandRunner.measuredPath, state.path,
                ],
                environment: ["XDG_STATE_HOME": state.path], timeout: 300)
            #expect(show.status == 0, "\(show.stderr)")
            // Every result, and the end of the one object.
            #expect(show.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "200000", "\(show.stdout)")
            let json = try Data(contentsOf: URL(fileURLWithPath: state.file("show.json")))
            #expect(json.suffix(4) == Data("}]}\n".utf8), "\(String(decoding: json.suffix(200), as: UTF8.self))")
            let showRSS = show.stderr.split(separator: "\n").compactMap {
                $0.hasPrefix("maxrss_kb=") ? Int($0.dropFirst(10)) : nil
            }.first
            #expect((showRSS ?? .max) < bound, "history show: peak RSS \(showRSS ?? 0) kB")
        }
    }

    @Test func aBadLineInAPipeStopsTheRunThereAfterTheResultsBeforeIt() async throws {
        try await offThePool {
            let mock = try InProcessMock([], keepingLog: true)
            let list = (1...3).map { Self.token($0) } + ["not a token", Self.token(4)]
            let r = try InProcess.apnsctl(
                Self.send(mock, ["--devices", "-"]), stdin: Array(list.joined(separator: "\n").utf8))
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.lines.filter { $0.hasPrefix("accepted") }.count == 3, "\(r.stdout)")
            #expect(r.stderr.contains("error: --devices -:4: \"not a to…\": "), "\(r.stderr)")
            #expect(mock.answersPerDevice().count == 3)
        }
    }

    /// A FIFO, and the `/dev/fd/N` path bash's process substitution (`<(…)`) gives: each opened and read once.
    /// In-process, the substituted path names a pipe of this process, as it names one of apnsctl's in bash.
    @Test func aFIFOAndProcessSubstitutionAreReadOnce() async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let scratch = try TemporaryDirectory(prefix: "fifo")
            let fifo = scratch.file("devices")
            #expect(mkfifo(fifo, 0o600) == 0)
            let tokens = Array(((1...50).map { Self.token($0) }.joined(separator: "\n") + "\n").utf8)
            // The writer opens the FIFO once the command opens it for reading, as `printf … > fifo &` does.
            Thread.detachNewThread {
                let fd = open(fifo, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { return }
                _ = posixWriteAll(fd, tokens)
                close(fd)
            }
            let viaFIFO = try InProcess.apnsctl(Self.send(mock, ["--devices", fifo]))
            #expect(viaFIFO.status == 0, "\(viaFIFO.stderr)")
            #expect(viaFIFO.lines.last == "sent 50: 50 accepted")
            let printf = try FedPipe.readEnd(feeding: tokens)
            defer { close(printf) }
            let substituted = try InProcess.apnsctl(Self.send(mock, ["--devices", "/dev/fd/\(printf)"]))
            #expect(substituted.status == 0, "\(substituted.stderr)")
            #expect(substituted.lines.last == "sent 50: 50 accepted")
        }
    }

    @Test func aFileIsCheckedWholeAndEveryBadLineReported() async throws {
        try await offThePool {
            let mock = try InProcessMock([], keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "bad-lines")
            var few = ["\u{FEFF}" + Self.token(1), "xyz", Self.token(2), "12 34"]
            few.append(String(repeating: "ab", count: 120))
            let fewFile = try scratch.write("few.txt", few.joined(separator: "\n"))
            let r = try InProcess.apnsctl(Self.send(mock, ["--devices", fewFile]))
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.errorLines.count == 3, "\(r.stderr)")
            #expect(
                r.errorLines.first == "error: --devices \(fewFile):2: \"xyz\": the device token must be hex, found 'x'",
                "\(r.stderr)")
            #expect(
                r.errorLines.last?.hasPrefix("error: --devices \(fewFile):5: \"abababab…\": 240 characters") == true,
                "\(r.stderr)")
            #expect(!r.stderr.contains(":1:"), "the BOM line is a token: \(r.stderr)")

            var many: [String] = []
            for i in 1...30 { many += [Self.token(i), "bad line \(i)"] }
            let manyFile = try scratch.write("many.txt", many.joined(separator: "\n"))
            let m = try InProcess.apnsctl(Self.send(mock, ["--devices", manyFile]))
            #expect(m.status == 64, "\(m.stderr)")
            #expect(m.errorLines.count == 21, "\(m.stderr)")
            #expect(m.errorLines.last == "error: --devices \(manyFile): … and 10 more bad lines")
            #expect(mock.answersPerDevice().isEmpty, "nothing is sent")
        }
    }
}
