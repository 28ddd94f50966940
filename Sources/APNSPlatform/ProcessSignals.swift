/// The process's signal policy, in one place: what apnsctl ignores and how a handler is installed. Glibc and
/// Darwin spell `struct sigaction`'s handler field differently; that difference stays in this file.
public enum ProcessSignals {
    /// Ignores SIGPIPE for the whole process; call once at start-up. apnsctl writes with write(2) to sockets
    /// (through OpenSSL, so MSG_NOSIGNAL is out of reach), to pipes (the mock's log, a child's input) and to
    /// stdout. When the reader has gone, that write must fail with EPIPE, which the caller reports or
    /// ignores, instead of SIGPIPE's default action ending the process without a word.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Ignores SIGXFSZ for the whole process; call once at start-up. Under a file size limit (`ulimit -f`,
    /// RLIMIT_FSIZE) a write past it must fail with EFBIG, which the output layer reports as exit 74 and
    /// after which it removes its temporary file, instead of the default action killing the process mid-file.
    public static func ignoreFileSizeLimit() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Runs `handler` for each of `signals` (SA_RESTART: interrupted system calls resume). The handler may
    /// do only async-signal-safe work, such as write(2) to a pipe.
    public static func installHandler(for signals: [Int32], _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = handler
        #else
        action.__sigaction_handler.sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_RESTART)
        for number in signals { sigaction(number, &action, nil) }
    }

    /// Whether `signal` is ignored (SIG_IGN) now, as `nohup` and shells without job control start background
    /// jobs: such a process must keep ignoring it, not take over the terminal's Ctrl-C.
    public static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        #if canImport(Darwin)
        let handler = current.__sigaction_u.__sa_handler
        #else
        let handler = current.__sigaction_handler.sa_handler
        #endif
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Unblocks `signals` on the calling thread (and the threads it starts later, which inherit its mask):
    /// a parent may have started us with them blocked, since a thread pool's mask is inherited through
    /// fork/exec.
    public static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
