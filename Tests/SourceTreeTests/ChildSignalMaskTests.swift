import APNSTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tests' children start as from a shell, with no signal blocked, whatever the starting thread blocks: a
/// server a test stops with SIGTERM must end then, not outlive the run holding its output open.
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

    @Test func aChildOfTheRunnerBlocksNoSignal() async throws {
        let status = try await Self.withTermBlocked { try CommandRunner.run("/bin/cat", ["/proc/self/status"]) }
        let line = status.lines.first { $0.hasPrefix("SigBlk:") }
        #expect(line == "SigBlk:\t0000000000000000", "\(status.stdout)")
    }

    @Test func terminateEndsAChildStartedWithSignalsUnblocked() async throws {
        let waited = try await Self.withTermBlocked { () throws -> Bool in
            let sleeper = Process()
            sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
            sleeper.arguments = ["60"]
            try sleeper.runWithSignalsUnblocked()
            sleeper.terminate()
            let ended = Wait.until(seconds: 30, interval: 0.01) { !sleeper.isRunning }
            if !ended { kill(sleeper.processIdentifier, SIGKILL) }
            sleeper.waitUntilExit()
            return ended && sleeper.terminationReason == .uncaughtSignal && sleeper.terminationStatus == SIGTERM
        }
        #expect(waited, "SIGTERM reached the child and ended it")
    }
}
