#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// The write end of the interrupt pipe and how many signals arrived; only the handler reads them after
/// `install`, and it does nothing but async-signal-safe work.
nonisolated(unsafe) private var interruptPipeFD: Int32 = -1
nonisolated(unsafe) private var interruptsReceived: Int32 = 0
nonisolated(unsafe) private var firstInterruptNs: UInt64 = 0
/// Results the running command owes (sent, not yet printed), for the second signal's message.
nonisolated(unsafe) private var owedResultCount: Int = 0
/// Digits of the count, written by the handler (which may not allocate): room for any Int.
nonisolated(unsafe) private var exitDigits: UnsafeMutablePointer<UInt8>? = nil
/// The end of the second signal's message (`noteForExitingAtOnce`), made before the handler may read it.
nonisolated(unsafe) private var exitNoteBytes: UnsafeMutablePointer<UInt8>? = nil
nonisolated(unsafe) private var exitNoteCount: Int = 0

/// Writes `error: interrupted again: exiting now; N results were not printed` to stderr with nothing
/// but write(2): a signal handler may only call async-signal-safe functions.
private func writeExitMessage() {
    let prefix: StaticString = "error: interrupted again: exiting now; "
    let suffix: StaticString = owedResultCount == 1 ? " result was not printed" : " results were not printed"
    _ = posixWrite(2, prefix.utf8Start, prefix.utf8CodeUnitCount)
    if let digits = exitDigits {
        var value = max(0, owedResultCount)
        var start = 24
        repeat {
            start -= 1
            digits[start] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        } while value > 0 && start > 0
        _ = posixWrite(2, digits + start, 24 - start)
    }
    _ = posixWrite(2, suffix.utf8Start, suffix.utf8CodeUnitCount)
    if let note = exitNoteBytes, exitNoteCount > 0 { _ = posixWrite(2, note, exitNoteCount) }
    let newline: StaticString = "\n"
    _ = posixWrite(2, newline.utf8Start, newline.utf8CodeUnitCount)
}
nonisolated(unsafe) private var firstSignalReceived: Int32 = 0

/// SIGINT and SIGTERM as bytes on a pipe (the self-pipe trick), so a poll loop wakes up and finishes
/// in order: the first signal is a byte holding its number; a second one exits at once with 128 + its
/// number, for a user who does not want to wait, saying how many results were not printed (CLI.md,
/// `send`, Interrupts). A second signal within 1 s of the first counts as the same one: GNU `timeout`
/// signals the process and then its whole process group.
public final class InterruptSignals: InterruptSource {
    /// Readable once a signal arrived; poll it beside the sockets.
    public var fd: Int32 { pipe.readFD }
    /// Lives as long as the process: the handler writes to it through `interruptPipeFD`.
    private let pipe: WakePipe
    private init(pipe: WakePipe) {
        self.pipe = pipe
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
        guard let pipe = WakePipe() else { return nil }
        interruptPipeFD = pipe.writeFD
        interruptsReceived = 0
        exitDigits = UnsafeMutablePointer<UInt8>.allocate(capacity: 24)
        let handler: @convention(c) (Int32) -> Void = { signal in
            let now = SystemClock.monotonicNanoseconds()
            if interruptsReceived > 0 {
                if now &- firstInterruptNs < 1_000_000_000 { return }  // the same signal, delivered again
                writeExitMessage()
                _exit(128 + signal)
            }
            interruptsReceived = 1
            firstInterruptNs = now
            firstSignalReceived = signal
            WakePipe.write(byte: UInt8(truncatingIfNeeded: signal), to: interruptPipeFD)
        }
        let watched = [SIGINT, SIGTERM].filter { !ProcessSignals.isIgnored($0) }
        ProcessSignals.installHandler(for: watched, handler)
        ProcessSignals.unblock(watched)
        return InterruptSignals(pipe: pipe)
    }

    /// Results the command has sent and not yet printed, for the message of a second signal that exits
    /// at once. The sender keeps it current.
    public var owedResults: Int {
        get { owedResultCount }
        set { owedResultCount = newValue }
    }

    /// Kept for the rest of the process: the handler may read it at any moment, so an earlier note is never freed
    /// (a send sets one before it sends, and empties it once what it said is no longer true). Empty: no note.
    public func noteForExitingAtOnce(_ text: String) {
        guard !text.isEmpty else {
            exitNoteCount = 0
            return
        }
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
        buffer.initialize(from: bytes, count: bytes.count)
        exitNoteCount = 0
        exitNoteBytes = buffer
        exitNoteCount = bytes.count
    }

    /// Not a signal: what `take` returns after `stopForLostOutput`. Standard output is gone (its reader
    /// exited, the disk is full), so a run stops exactly as after the first SIGINT: nothing new is sent and
    /// answers in flight get their grace period (CLI.md, `send`, "Input and output at the edges").
    public static let outputLost: Int32 = 0

    /// Wakes the poll loop as the first SIGINT would, with `outputLost` instead of a signal number. Safe from
    /// any thread; a later real signal is still counted (`receivedSignal`) and its exit code wins.
    public func stopForLostOutput() {
        pipe.write(byte: UInt8(truncatingIfNeeded: Self.outputLost))
    }

    /// The first real signal that arrived (SIGINT or SIGTERM), whether or not `take` consumed it.
    public var receivedSignal: Int32? { firstSignalReceived == 0 ? nil : firstSignalReceived }

    /// The signal that arrived (SIGINT or SIGTERM), if one did, or `outputLost`; reading consumes it.
    public func take() -> Int32? {
        pipe.readByte().map { Int32($0) }
    }
}
