import APNSCore
import APNSPlatform

/// A pipe whose read end becomes readable, for every poller at once, when `signal()` writes one byte.
/// Nobody reads the byte, so the level stays up: one write wakes every event loop, and signal handlers
/// may call `signal()` (write(2) is async-signal-safe).
final class WakePipe: @unchecked Sendable {
    let readFD: Int32
    let writeFD: Int32

    init() throws(MockServerError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .resources("cannot create a pipe: \(FileSystem.errnoText())") }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    func signal() {
        var byte: UInt8 = 1
        _ = posixWrite(writeFD, &byte, 1)
    }

    var isSignalled: Bool { Poll.wait(fd: readFD, events: Poll.readable, timeoutMs: 0) != .timeout }
}
