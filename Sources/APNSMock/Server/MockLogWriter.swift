import APNSCore
import APNSPlatform

/// Writes the mock's log lines to their descriptor from a thread of its own, so an event loop never waits on
/// whoever reads them. A pipe that nobody drains (`apnsctl mock | slow-consumer`), a terminal paused with
/// Ctrl-S or a full disk once blocked `write(2)` inside an event loop and stalled every connection; now only
/// this thread waits, the queue is bounded, and lines that do not fit are dropped and counted. Event loops that
/// must not answer before a line is out (`MockLog.commit`) wait for its position, not for the descriptor.
final class MockLogWriter: Sendable {
    private let fd: Int32
    /// Bytes waiting to be written at most; beyond it new lines are dropped (about 3,000 lines).
    private let capacity: Int
    /// Everything the event loops and the writer thread share. Its condition is signalled when lines are
    /// queued, when the writer finished a chunk, and when `finish` begins.
    private let state = WaitableValue(State())
    private let thread = OSThread()

    private struct State {
        var queue: [UInt8] = []
        var queuedLines = 0
        /// Lines taken by the writer thread and not yet written.
        var writingLines = 0
        var dropped = 0
        /// Lines handed to `submit` so far, dropped ones included: positions in the log.
        var submitted = 0
        var finishing = false
        /// A write failed (e.g. the reader closed the pipe): everything later is dropped.
        var broken = false
        /// The `errno` of that failed write.
        var failedWith: Int32?
        var firstDropHandler: (@Sendable (String) -> Void)?

        /// Lines written or dropped so far: everything submitted up to here is settled.
        var settled: Int { submitted - queuedLines - writingLines }
    }

    /// Called at most once, the first time lines are dropped, with the reason, on the thread that dropped them.
    var onFirstDrop: (@Sendable (String) -> Void)? {
        get { state.withLock { $0.firstDropHandler } }
        set { state.withLock { $0.firstDropHandler = newValue } }
    }

    init(fd: Int32, capacity: Int = 1 << 20) {
        self.fd = fd
        self.capacity = capacity
    }

    /// Starts the writer thread; false when the system refused one.
    func start() -> Bool { thread.start { [self] in run() } }

    /// Queues `bytes` (`lines` whole lines) for writing, or drops them when the queue is full. Never blocks
    /// on the descriptor. Returns the position after these lines, for `waitUntilSettled`.
    @discardableResult
    func submit(_ bytes: [UInt8], lines: Int) -> Int {
        guard !bytes.isEmpty else { return state.withLock { $0.submitted } }
        let capacity = capacity
        let (queued, position, firstDrop) = state.withLock {
            s -> (Bool, Int, (reason: String, handler: (@Sendable (String) -> Void)?)?) in
            s.submitted += lines
            if s.broken || s.queue.count + bytes.count > capacity {
                var firstDrop: (reason: String, handler: (@Sendable (String) -> Void)?)? = nil
                if s.dropped == 0 {
                    let why = s.failedWith.map {
                        "writing the log to standard output failed (\(FileSystem.errnoText($0)))"
                    }
                    firstDrop = (why ?? "nobody is reading the log output fast enough", s.firstDropHandler)
                }
                s.dropped += lines
                return (false, s.submitted, firstDrop)
            }
            s.queue.append(contentsOf: bytes)
            s.queuedLines += lines
            return (true, s.submitted, nil)
        }
        // Event loops may wait on the same condition (`waitUntilSettled`): wake them all, the writer among them.
        if queued { state.broadcast() }
        if let firstDrop { firstDrop.handler?(firstDrop.reason) }
        return position
    }

    /// Whether every line submitted so far is written or dropped.
    var isIdle: Bool {
        state.withLock { $0.queuedLines + $0.writingLines == 0 }
    }

    /// Waits until every line up to `position` is written (or dropped) while the writer keeps making progress.
    /// False when it wrote nothing for `patienceMilliseconds`: the reader stopped reading, and waiting longer
    /// would stall every connection of the caller's loop.
    func waitUntilSettled(_ position: Int, patienceMilliseconds: Int) -> Bool {
        var seen = state.withLock { $0.settled }
        while true {
            let deadline = Condition.deadline(afterMilliseconds: patienceMilliseconds)
            let (done, settled) = state.wait(
                while: { $0.settled < position && !$0.broken }, until: deadline,
                then: { s, _ in (s.settled >= position || s.broken, s.settled) })
            if done { return true }
            if settled == seen { return false }
            seen = settled
        }
    }

    /// The `errno` of the write that failed for good (not a slow reader), if one did.
    var writeError: Int32? {
        state.withLock { $0.failedWith }
    }

    /// Lines dropped so far.
    var droppedLines: Int {
        state.withLock { $0.dropped }
    }

    /// Lets the writer finish what is queued for at most `milliseconds`, then stops it. Returns the number of
    /// lines that were dropped or never written. A writer still stuck in `write(2)` is left to the process exit.
    @discardableResult
    func finish(waitingAtMost milliseconds: Int) -> Int {
        state.withLock { $0.finishing = true }
        state.broadcast()
        let deadline = Condition.deadline(afterMilliseconds: milliseconds)
        let (drained, lost) = state.wait(
            while: { $0.queuedLines + $0.writingLines > 0 && !$0.broken }, until: deadline,
            then: { s, _ in
                (s.queuedLines + s.writingLines == 0 || s.broken, s.dropped + s.queuedLines + s.writingLines)
            })
        if drained { thread.join() } else { thread.detach() }
        return lost
    }

    private func run() {
        var chunk: [UInt8] = []
        while true {
            let taken = state.wait(
                while: { $0.queue.isEmpty && !$0.finishing },
                then: { s, _ -> Bool in
                    if s.queue.isEmpty || s.broken { return false }
                    swap(&chunk, &s.queue)
                    s.writingLines = s.queuedLines
                    s.queuedLines = 0
                    return true
                })
            guard taken else { return }
            let failure = write(chunk)
            chunk.removeAll(keepingCapacity: true)
            let announce = state.withLock { s -> (@Sendable (String) -> Void)? in
                var announce: (@Sendable (String) -> Void)? = nil
                if let failure {
                    s.broken = true
                    s.failedWith = failure
                    // Said at the failure itself (CLI.md), not at the next line dropped, which may never come.
                    if s.dropped == 0 { announce = s.firstDropHandler }
                    s.dropped += s.writingLines + s.queuedLines
                    s.queue.removeAll()
                    s.queuedLines = 0
                }
                s.writingLines = 0
                return announce
            }
            state.broadcast()
            if let announce, let failure {
                announce("writing the log to standard output failed (\(FileSystem.errnoText(failure)))")
            }
        }
    }

    /// Bytes per `write(2)`: PIPE_BUF, so a write into a pipe with room never stops half way and the lines
    /// reported unwritten are exact to a dozen.
    static let slice = 4096

    /// Writes all of `bytes` in slices, waiting as long as the descriptor makes it, and counts the lines of
    /// each slice as written so `finish` knows how many a stuck write left behind. The `errno` when it fails
    /// for good, nil when all was written.
    private func write(_ bytes: [UInt8]) -> Int32? {
        posixWritePrefix(fd, bytes, slice: Self.slice, retryMs: 100) { range in
            let written = bytes[range].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            state.withLock { $0.writingLines -= written }
        }.error
    }
}
