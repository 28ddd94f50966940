import APNSTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tests' children start as from a user's shell, whatever the starting thread blocks and the test process
/// ignores: no signal blocked (a server a test stops with SIGTERM must end then, not outlive the run holding its
/// output open); SIGPIPE and SIGXFSZ at their default actions (a doc example's pipeline runs as the user's would);
/// SIGINT and SIGQUIT too (a test interrupts a send). Linux: `/proc` shows what the child got, and the reset
/// goes through GNU env.
@Suite struct ChildSignalMaskTests {
    /// Runs `body` on a thread of its own that blocks SIGINT and SIGTERM, as the test runner's threads do.
    static func withTermBlocked<T>(_ body: () throws -> T) async throws -> T {
        try await offThePool {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGINT)
            sigaddset(&blocked, SIGTERM)
            var previous = sigset_t()
            pthread_sigmask(SIG_BLOCK, &blocked, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            return try body()
        }
    }

    @Test func terminateEndsAChildStartedWithSignalsUnblocked() async throws {
        let waited = try await Self.withTermBlocked { () throws -> Bool in
            let sleeper = Process()
            sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
            sleeper.arguments = ["60"]
            try sleeper.runAsAShellWould()
            sleeper.terminate()
            let ended = Wait.until(seconds: 30, interval: 0.01) { !sleeper.isRunning }
            if !ended { kill(sleeper.processIdentifier, SIGKILL) }
            sleeper.waitUntilExit()
            return ended && sleeper.terminationReason == .uncaughtSignal && sleeper.terminationStatus == SIGTERM
        }
        #expect(waited, "SIGTERM reached the child and ended it")
    }

    #if os(Linux)
        @Test func aChildOfTheRunnerBlocksNoSignal() async throws {
            let status = try await Self.withTermBlocked { try CommandRunner.run("/bin/cat", ["/proc/self/status"]) }
            let line = status.lines.first { $0.hasPrefix("SigBlk:") }
            #expect(line == "SigBlk:\t0000000000000000", "\(status.stdout)")
        }

        /// The test process ignores SIGPIPE and SIGXFSZ, as `main` does, and a test binary run from a background
        /// job ignores SIGINT and SIGQUIT (SIGQUIT stands in for both here: ignoring SIGINT would change the
        /// in-process tests' interrupts). An ignored signal stays ignored across exec: the child must get those back
        /// at their defaults, as from a user's shell, and keep an ignored SIGHUP, as `nohup` asked of the runner.
        @Test func aChildOfTheRunnerIgnoresWhatAUsersShellWouldNot() throws {
            signal(SIGPIPE, SIG_IGN)
            signal(SIGXFSZ, SIG_IGN)
            let quit = signal(SIGQUIT, SIG_IGN)
            defer { signal(SIGQUIT, quit) }
            let hangUp = signal(SIGHUP, SIG_IGN)
            defer { signal(SIGHUP, hangUp) }
            let status = try CommandRunner.run("/bin/cat", ["/proc/self/status"])
            let line = try #require(status.lines.first { $0.hasPrefix("SigIgn:") }, "\(status.stdout)")
            let ignored = try #require(
                UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16))
            let bit = { (signal: Int32) -> UInt64 in 1 << UInt64(signal - 1) }
            #expect(ignored & (bit(SIGPIPE) | bit(SIGXFSZ) | bit(SIGINT) | bit(SIGQUIT)) == 0, "\(line)")
            #expect(ignored & bit(SIGHUP) != 0, "SIGHUP, ignored by the runner, stays ignored: \(line)")
        }

        /// What a doc example's pipeline sees: `yes` ends on SIGPIPE when `head` has read its line, silently, as in
        /// a terminal (with SIGPIPE ignored it would print "Broken pipe" to stderr instead).
        @Test func aPipelineEndsItsWriterSilently() throws {
            signal(SIGPIPE, SIG_IGN)
            let r = try CommandRunner.run("/bin/sh", ["-c", "yes | head -n 1"])
            #expect(r.status == 0 && r.stdout == "y\n" && r.stderr.isEmpty, "\(r.stderr)")
        }
    #endif
}
