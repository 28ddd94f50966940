/// The write end of the interrupt pipe and how many signals arrived; only the handler reads them after
/// `install`, and it does nothing but async-signal-safe work.
nonisolated(unsafe) private var interruptPipeFD: Int32 = -1
nonisolated(unsafe) private var interruptsReceived: Int32 = 0
nonisolated(unsafe) private var firstSignalReceived: Int32 = 0

/// SIGINT and SIGTERM as bytes on a pipe (the self-pipe trick), so a poll loop wakes up and finishes
/// in order: the first signal is a byte holding its number; a second one exits at once with 128 + its
/// number, for a user who does not want to wait (CLI.md, `send`, Interrupts).
public final class InterruptSignals: Sendable {
    /// Readable once a signal arrived; poll it beside the sockets.
    public let fd: Int32
    private init(readFD: Int32) {
        self.fd = readFD
    }

    /// Routes SIGINT and SIGTERM here for the rest of the process's life; nil when no pipe can be made.
    /// Installed once per process (later calls return the same watcher), and a signal the process was
    /// started ignoring (`nohup`, a background job of a script) stays ignored.
    public static func install() -> InterruptSignals? {
        installed.withLock { current in
            if let current { return current }
            current = make()
            return current
        }
    }

    private static let installed = LockedValue<InterruptSignals?>(nil)

    private static func make() -> InterruptSignals? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for f in fds {
            _ = fcntl(f, F_SETFL, fcntl(f, F_GETFL, 0) | O_NONBLOCK)
            _ = fcntl(f, F_SETFD, FD_CLOEXEC)
        }
        interruptPipeFD = fds[1]
        interruptsReceived = 0
        let handler: @convention(c) (Int32) -> Void = { signal in
            interruptsReceived += 1
            if interruptsReceived > 1 { _exit(128 + signal) }
            firstSignalReceived = signal
            var byte = UInt8(truncatingIfNeeded: signal)
            let saved = errno
            _ = posixWrite(interruptPipeFD, &byte, 1)
            errno = saved
        }
        let watched = [SIGINT, SIGTERM].filter { !ProcessSignals.isIgnored($0) }
        ProcessSignals.installHandler(for: watched, handler)
        ProcessSignals.unblock(watched)
        return InterruptSignals(readFD: fds[0])
    }

    /// Not a signal: what `take` returns after `stopForLostOutput`. Standard output is gone (its reader
    /// exited, the disk is full), so a run stops exactly as after the first SIGINT: nothing new is sent and
    /// answers in flight get their grace period (CLI.md, `send`, "Input and output at the edges").
    public static let outputLost: Int32 = 0

    /// Wakes the poll loop as the first SIGINT would, with `outputLost` instead of a signal number. Safe from
    /// any thread; a later real signal is still counted (`receivedSignal`) and its exit code wins.
    public func stopForLostOutput() {
        var byte = UInt8(truncatingIfNeeded: Self.outputLost)
        _ = posixWrite(interruptPipeFD, &byte, 1)
    }

    /// The first real signal that arrived (SIGINT or SIGTERM), whether or not `take` consumed it.
    public var receivedSignal: Int32? { firstSignalReceived == 0 ? nil : firstSignalReceived }

    /// The signal that arrived (SIGINT or SIGTERM), if one did, or `outputLost`; reading consumes it.
    public func take() -> Int32? {
        var byte: UInt8 = 0
        guard posixRead(fd, &byte, 1) == 1 else { return nil }
        return Int32(byte)
    }
}
