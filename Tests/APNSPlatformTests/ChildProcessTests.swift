import Testing

@testable import APNSPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program run and waited for: its status and output, its end seen when it happens (not at the next poll),
/// and a child past its time killed and reaped.
@Suite final class ChildProcessTests {
    let scratch: String

    init() throws {
        var template = Array("/tmp/child-process-XXXXXX".utf8CString)
        let made: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        scratch = try #require(made)
    }

    deinit {
        unlink(scratch + "/pid")
        rmdir(scratch)
    }

    func run(_ script: String, timeout: Double = 30) throws(ChildProcess.Failure) -> ChildProcess.Outcome {
        try ChildProcess.run(
            "/bin/sh", ["-c", script], environment: ["LC_ALL": "C"], scratch: scratch, timeout: timeout)
    }

    @Test func statusOutputAndEnvironmentComeBack() throws {
        let outcome = try run(#"printf 'out %s' "$LC_ALL"; printf err >&2; exit 3"#)
        #expect(outcome.status == 3)
        #expect(outcome.standardOutput == Array("out C".utf8))
        #expect(outcome.standardError == Array("err".utf8))
    }

    @Test func aSignalEndingTheChildIs128PlusIt() throws {
        // SIGKILL: the child inherits the signals this process blocks, and the test process may block SIGTERM.
        #expect(try run("kill -KILL $$").status == 128 + SIGKILL)
    }

    @Test func aChildPastItsTimeIsKilledAndReaped() throws {
        let marker = scratch + "/pid"
        #expect(throws: ChildProcess.Failure.timedOut(path: "/bin/sh", seconds: 0.3)) {
            try run("echo $$ > \(marker); exec sleep 60", timeout: 0.3)
        }
        let text = String(decoding: try FileSystem.read(marker, limit: 64), as: UTF8.self)
        let pid = try #require(Int32(text.split(separator: "\n").first ?? ""))
        // Reaped: no zombie is left, so the pid names no process of ours.
        #expect(kill(pid, 0) != 0 && errno == ESRCH)
    }

    @Test func aProgramThatCannotStartSaysWhy() {
        #expect(throws: ChildProcess.Failure.self) {
            try ChildProcess.run("/nonexistent/program", [], environment: [:], scratch: scratch, timeout: 5)
        }
    }
}
