/// A pipe whose read end becomes readable, for every poller at once, when `signal()` writes one byte.
/// Nobody reads the byte, so the level stays up: one write wakes every event loop, and signal handlers
/// may call `signal()` (write(2) is async-signal-safe).
public final class WakePipe: @unchecked Sendable {
    public let readFD: Int32
    public let writeFD: Int32

    /// Nil when the system refuses a pipe (out of descriptors); `errno` says why.
    public init?() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
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

    public func signal() {
        var byte: UInt8 = 1
        _ = posixWrite(writeFD, &byte, 1)
    }

    public var isSignalled: Bool { Poll.wait(fd: readFD, events: Poll.readable, timeoutMs: 0) != .timeout }
}
