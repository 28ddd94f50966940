import APNSCore

/// The descriptor the signal handler writes to. Written once before the handlers are installed and only
/// read by the handler, which may do nothing but async-signal-safe work.
nonisolated(unsafe) private var terminationFD: Int32 = -1

/// Turns SIGINT/SIGTERM into one byte on a pipe that the event loops poll (the self-pipe trick).
enum TerminationSignals {
    /// Routes both signals to `fd`.
    static func install(writingTo fd: Int32) {
        terminationFD = fd
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            let saved = errno
            _ = posixWrite(terminationFD, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_RESTART)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may have started us with these blocked (a thread pool's mask is inherited through
        // fork/exec); threads started after this inherit the unblocked mask.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }
}
