import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md, `apnsctl mock`: the state files are opened without blocking (a FIFO is skipped with a warning,
/// never waited on), and SIGINT/SIGTERM stop the mock within a second whatever it waits on.
@Suite struct MockStopTests {
    /// A FIFO at `channels.json` used to keep the mock in `open(2)` before it was ready, past SIGTERM.
    @Test func aFIFOAtChannelsJSONIsSkippedAndSIGTERMEndsTheMock() async throws {
        try await offThePool {
            let state = try TemporaryDirectory(prefix: "fifo-channels")
            #expect(mkfifo(state.file("channels.json"), 0o600) == 0)

            let mock = try RunningMock(stateDir: state.path, asProcess: true)

            #expect(
                mock.stderr.contains(
                    "warning: apnsctl mock: \(state.path)/channels.json: is a FIFO, not a regular file; "
                        + "starting with no channels"), "\(mock.stderr)")
            // It ends, exit 0: a mock still in open(2) on the FIFO would not (the wait is the event, not a time).
            #expect(mock.terminate() == 0, "\(mock.stderr)")
        }
    }

    /// The mock stuck writing its ready lines to a stderr nobody reads (a full pipe): SIGTERM still ends it (by
    /// the stop's own deadline: the orderly stop never could), exit 0, and its `mock.json` does not outlive it.
    @Test func sigtermEndsAMockStuckWritingToAFullStderr() async throws {
        try await offThePool {
            let state = try TemporaryDirectory(prefix: "stuck-mock")
            let stderr = Pipe()
            let writeEnd = stderr.fileHandleForWriting.fileDescriptor
            // Filled without blocking, then made blocking again (the flag belongs to the pipe the mock shares).
            let flags = fcntl(writeEnd, F_GETFL)
            _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
            let chunk = [UInt8](repeating: 0x2E, count: 4096)
            while chunk.withUnsafeBytes({ write(writeEnd, $0.baseAddress, $0.count) }) > 0 {}
            _ = fcntl(writeEnd, F_SETFL, flags & ~O_NONBLOCK)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandRunner.apnsctlPath)
            BinaryStarts.record()
            process.arguments = ["mock", "--port", "0", "--state-dir", state.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = stderr.fileHandleForWriting
            try process.runAsAShellWould()
            defer {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            let readyFile = state.file("mock.json")
            Wait.until { !process.isRunning || FileManager.default.fileExists(atPath: readyFile) }
            try #require(FileManager.default.fileExists(atPath: readyFile), "the mock never wrote mock.json")

            kill(process.processIdentifier, SIGTERM)
            // The event is the exit; the deadline is one no loaded machine reaches, and a mock waiting for its stderr
            // would never end.
            #expect(Wait.until(seconds: RunningMock.stopDeadline, interval: 0.005) { !process.isRunning })
            if !process.isRunning {
                #expect(process.terminationReason == .exit && process.terminationStatus == 0)
            }
            #expect(!FileManager.default.fileExists(atPath: readyFile), "mock.json names a mock that is gone")
            withExtendedLifetime(stderr) {}
        }
    }
}
