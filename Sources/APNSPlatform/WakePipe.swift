#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// The one self-pipe of the process kind: a pipe whose read end a poller watches beside its sockets and
/// whose write end anyone may poke, a signal handler included (write(2) is async-signal-safe). Both ends
/// are non-blocking and close-on-exec. Every wake-up in apnsctl goes through this type (the interrupt
/// descriptor, the mock's stop and loop wake-ups, the resolver's lookup thread, a background connect), and
/// it is the only caller of `pipe(2)` in the sources (`FileSystem.waitingInput` borrows one as scratch space).
///
/// Two ways to use it: as a level (`signal()` and never read: it stays readable and wakes every poller at
/// once, as the mock's stop does), or as a queue of bytes (`write(byte:)`, then `readByte()` or `drain()`).
public final class WakePipe: @unchecked Sendable {
    /// The end to poll for readability.
    public let readFD: Int32
    /// The end `signal()` writes to; a signal handler installed through `ProcessSignals` writes here.
    public let writeFD: Int32

    /// Nil when the system refuses a pipe (out of descriptors); `FileSystem.errnoText()` says why.
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

    /// Makes the read end readable (one byte); safe from any thread and from a signal handler.
    public func signal() {
        write(byte: 1)
    }

    /// Queues `byte` for `readByte()`; safe from any thread and from a signal handler (it keeps `errno`).
    /// A full pipe drops the byte: the read end is readable anyway.
    public func write(byte: UInt8) {
        Self.write(byte: byte, to: writeFD)
    }

    /// The oldest queued byte, nil when none is waiting.
    public func readByte() -> UInt8? {
        var byte: UInt8 = 0
        return posixRead(readFD, &byte, 1) == 1 ? byte : nil
    }

    /// Reads everything queued, so the next `signal()` wakes the poller again.
    public func drain() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while scratch.withUnsafeMutableBytes({ posixRead(readFD, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// `write(byte:)` for a signal handler, which can reach only a global descriptor, not an object.
    static func write(byte: UInt8, to fd: Int32) {
        var copy = byte
        let saved = errno
        _ = posixWrite(fd, &copy, 1)
        errno = saved
    }
}
