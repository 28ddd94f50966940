import APNSCore
import APNSPlatform

/// The descriptor the signal handler writes to. Written once before the handlers are installed and only
/// read by the handler, which may do nothing but async-signal-safe work.
nonisolated(unsafe) private var terminationFD: Int32 = -1

/// Turns SIGINT/SIGTERM into one byte on a pipe that the event loops poll (the self-pipe trick).
enum TerminationSignals {
    /// Routes both signals to `fd`.
    static func install(writingTo fd: Int32) {
        terminationFD = fd
        ProcessSignals.installHandler(for: [SIGINT, SIGTERM]) { _ in
            var byte: UInt8 = 1
            let saved = errno
            _ = posixWrite(terminationFD, &byte, 1)
            errno = saved
        }
        ProcessSignals.unblock([SIGINT, SIGTERM])
    }
}
