#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// The write end of the pipe `wakeOnTermination` pokes; the handler reads it and nothing else.
nonisolated(unsafe) private var wakeOnSignalFD: Int32 = -1
/// The write end of the pipe that starts `wakeOnTermination`'s deadline (-1: none).
nonisolated(unsafe) private var deadlineOnSignalFD: Int32 = -1

/// The process's signal policy, in one place: what apnsctl ignores, and the only way a handler goes in.
/// Each user keeps its own policy on top (`InterruptSignals` for `send`, `wakeOnTermination` for the mock's stop,
/// `PromptSignals` for a no-echo prompt). Glibc and Darwin spell the handler type and `struct sigaction`'s
/// handler field differently; those differences stay in this file.
public enum ProcessSignals {
    /// SIGINT (Ctrl-C), for callers that name it (exit code 130, messages).
    public static let interrupt: Int32 = SIGINT
    /// SIGTERM (`kill`, `timeout`), exit code 143.
    public static let terminate: Int32 = SIGTERM

    /// A signal's handler as `signal(2)` takes and returns it: `sig_t` on Darwin, `__sighandler_t` on Glibc.
    #if canImport(Darwin)
        typealias Handler = sig_t
    #else
        typealias Handler = __sighandler_t
    #endif

    /// Ignores SIGPIPE for the whole process; call once at start-up. apnsctl writes with write(2) to sockets
    /// (through OpenSSL, so MSG_NOSIGNAL is out of reach), to pipes (the mock's log, a child's input) and to
    /// stdout. When the reader has gone, that write must fail with EPIPE, which the caller reports or
    /// ignores, instead of SIGPIPE's default action ending the process without a word.
    /// Sends SIGTERM to process `pid`; the errno text when it could not be sent (no such process, not ours).
    public static func sendTerminate(to pid: Int32) -> String? {
        guard kill(pid, SIGTERM) == 0 else { return FileSystem.errnoText() }
        // A stopped process (Ctrl-Z in its terminal) handles SIGTERM only once continued, as systemd does it.
        _ = kill(pid, SIGCONT)
        return nil
    }

    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Ignores SIGXFSZ for the whole process; call once at start-up. Under a file size limit (`ulimit -f`,
    /// RLIMIT_FSIZE) a write past it must fail with EFBIG, which the output layer reports as exit 74 and
    /// after which it removes its temporary file, instead of the default action killing the process mid-file.
    public static func ignoreFileSizeLimit() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Makes SIGINT and SIGTERM write one byte to `pipe` for the rest of the process's life (the self-pipe
    /// trick: a poll loop watching `pipe.readFD` wakes and stops in order), and unblocks them. The pipe is
    /// kept alive from here on, since a handler may fire at any time.
    ///
    /// With `endingWithin`, the stop is also a promise: if the process is still running that many
    /// milliseconds after the first such signal (its main thread stuck in a system call that `SA_RESTART`
    /// resumes, a write to a stderr nobody reads, say), a watchdog thread runs `lastly` and exits with 0.
    public static func wakeOnTermination(
        _ pipe: WakePipe, endingWithin milliseconds: Int? = nil,
        lastly: @escaping @Sendable () -> Void = {}
    ) {
        wakeRetained.withLock { $0.append(pipe) }
        if let milliseconds, let deadline = WakePipe() {
            wakeRetained.withLock { $0.append(deadline) }
            let watchdog = OSThread()
            let started = watchdog.start {
                _ = PollSet.wait(for: deadline.readFD, .readable, until: nil)
                usleep(UInt32(milliseconds) * 1000)
                lastly()
                _exit(0)
            }
            if started {
                watchdog.detach()
                deadlineOnSignalFD = deadline.writeFD
            }
        }
        wakeOnSignalFD = pipe.writeFD
        installHandler(for: [SIGINT, SIGTERM]) { _ in
            WakePipe.write(byte: 1, to: wakeOnSignalFD)
            if deadlineOnSignalFD >= 0 { WakePipe.write(byte: 1, to: deadlineOnSignalFD) }
        }
        unblock([SIGINT, SIGTERM])
    }

    /// Pipes `wakeOnTermination` handed to a handler; never released.
    private static let wakeRetained = LockedValue<[WakePipe]>([])

    /// Runs `handler` for each of `signals` (SA_RESTART: interrupted system calls resume). The handler may
    /// do only async-signal-safe work, such as write(2) to a pipe.
    static func installHandler(for signals: [Int32], _ handler: @convention(c) (Int32) -> Void) {
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
    static func isIgnored(_ signal: Int32) -> Bool {
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
    static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// A handler that was in place before `replace`, to put back with `restore`.
    struct Saved {
        let signal: Int32
        let handler: Handler?
    }

    /// Puts `handler` on `signal` with `signal(2)` (BSD semantics: it stays installed, calls resume) and
    /// returns what was there. With `keepingIgnored`, a signal the process ignores stays ignored (nohup, a
    /// background job of a shell without job control).
    static func replace(_ signal: Int32, with handler: @convention(c) (Int32) -> Void, keepingIgnored: Bool = false)
        -> Saved
    {
        let old: Handler? = cSignal(signal, handler)
        if keepingIgnored, let old, unsafeBitCast(old, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
            _ = cSignal(signal, SIG_IGN)
        }
        return Saved(signal: signal, handler: old)
    }

    /// Puts back handlers `replace` returned.
    static func restore(_ saved: [Saved]) {
        for entry in saved { _ = cSignal(entry.signal, entry.handler) }
    }

    /// From inside a handler: the default action for `signal` (ending the process), as if there were no
    /// handler, so the parent sees the real cause.
    static func dieOf(_ signal: Int32) {
        _ = cSignal(signal, SIG_DFL)
        raise(signal)
    }

    /// From inside SIGTSTP's handler `handler`: stops the process as the default action would (SIGTSTP is
    /// unblocked for it), and once it continues, puts `handler` back for the next Ctrl-Z.
    static func stopAsByDefault(thenReinstall handler: @convention(c) (Int32) -> Void) {
        _ = cSignal(SIGTSTP, SIG_DFL)
        var stop = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGTSTP)
        sigprocmask(SIG_UNBLOCK, &stop, nil)
        raise(SIGTSTP)
        _ = cSignal(SIGTSTP, handler)
    }
}

/// `signal(2)`, named apart from `ProcessSignals`' own members. Both libraries import the handler as an
/// implicitly unwrapped optional of their own type.
@inline(__always)
private func cSignal(_ number: Int32, _ handler: ProcessSignals.Handler?) -> ProcessSignals.Handler? {
    signal(number, handler)
}
