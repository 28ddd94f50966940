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
        // SIGKILL: no handler, mask or ignored disposition the child could have changes how it ends.
        #expect(try run("kill -KILL $$").status == 128 + SIGKILL)
    }

    /// A child starts as from a shell whatever this process blocks or ignores: no signal blocked, SIGPIPE and
    /// SIGXFSZ at their defaults (apnsctl ignores both for itself), so `yes | head -1` in it ends.
    #if os(Linux)
        @Test func aChildStartsWithNoSignalBlockedAndSIGPIPEAtItsDefault() throws {
            signal(SIGPIPE, SIG_IGN)
            signal(SIGXFSZ, SIG_IGN)
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGUSR1)
            sigaddset(&blocked, SIGTERM)
            var old = sigset_t()
            pthread_sigmask(SIG_BLOCK, &blocked, &old)
            defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
            let masks = String(
                decoding: try run("grep -E '^Sig(Blk|Ign):' /proc/self/status").standardOutput, as: UTF8.self)
            var fields: [String: UInt64] = [:]
            for line in masks.split(separator: "\n") {
                let parts = line.split(separator: ":")
                guard parts.count == 2 else { continue }
                fields[String(parts[0])] = UInt64(parts[1].filter { $0 != " " && $0 != "\t" }, radix: 16)
            }
            #expect(fields["SigBlk"] == 0, "\(masks)")
            let ignored = try #require(fields["SigIgn"], "\(masks)")
            #expect(ignored & (1 << UInt64(SIGPIPE - 1)) == 0, "\(masks)")
            #expect(ignored & (1 << UInt64(SIGXFSZ - 1)) == 0, "\(masks)")
        }
    #endif

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

/// A start the system refuses before any child exists is the refusal's `errno`, never a child started with half
/// of what was asked: here a descriptor to copy that is not a descriptor.
@Suite struct SpawnRefusalTests {
    @Test func aDescriptorThatCannotBeCopiedIsEBADFAndNoChild() {
        let started = SpawnedProcess.start(
            "/bin/true", arguments: [], environment: nil, descriptors: [(1, .descriptor(-1))])
        switch started {
        case .success(let child):
            _ = child.waitForExit()
            Issue.record("a child started with a file action the system refuses")
        case .failure(let error):
            #expect(error.code == EBADF, "\(error.text)")
        }
    }
}
