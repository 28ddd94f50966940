import APNSPlatform
import APNSTestSupport
import Foundation

/// A pipe read as `| head -1` reads it, for a command's standard output: a thread of its own takes the first line
/// and closes the read end, so every later write fails (EPIPE) as it does once `head` exited.
final class HeadPipe: Sendable {
    /// What the command writes to; closed by `finish`.
    let writeEnd: Int32
    private let taken = LockedValue<[UInt8]>([])
    private let done = DispatchSemaphore(value: 0)

    /// A pipe whose ends no spawned process inherits.
    static func openPipe() throws -> (readEnd: Int32, writeEnd: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TestSupportError("no pipe: \(FileSystem.errnoText())") }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return (ends[0], ends[1])
    }

    init() throws {
        let (readEnd, writeEnd) = try Self.openPipe()
        self.writeEnd = writeEnd
        ProcessSignals.ignoreBrokenPipe()
        let (taken, done) = (self.taken, self.done)
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                taken.withLock { $0.append(byte) }
                if byte == 0x0A { break }
            }
            close(readEnd)
            done.signal()
        }
    }

    /// Closes the write end once the command is done with it, and returns what the reader took (nil when it did not
    /// end within 30 s).
    func finish() -> String? {
        close(writeEnd)
        guard done.wait(timeout: .now() + 30) == .success else { return nil }
        return String(decoding: taken.current, as: UTF8.self)
    }
}
