import APNSPlatform
import APNSTestSupport
import Foundation

/// A pipe that a thread of its own writes, for a command's input: the bytes once and then the end (as `printf`
/// gives them), or the bytes over and over for as long as anyone reads (as `yes`). The writer never blocks the
/// test, whether the command reads slowly or not at all.
enum FedPipe {
    /// The read end of a new pipe fed `bytes` (non-empty when `repeating`); the caller closes it once the command
    /// is done with it, which also ends a repeating writer (its next write fails).
    static func readEnd(feeding bytes: [UInt8], repeating: Bool = false) throws -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TestSupportError("no pipe: \(FileSystem.errnoText())") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        // A write after the reader closed is EPIPE for the writer, never SIGPIPE for the test runner.
        ProcessSignals.ignoreBrokenPipe()
        Thread.detachNewThread {
            repeat {
                guard posixWriteAll(writeEnd, bytes) == nil else { break }
            } while repeating && !bytes.isEmpty
            close(writeEnd)
        }
        return readEnd
    }
}
