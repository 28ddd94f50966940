import APNSCore
import APNSPlatform

/// Writes the mock's log lines to their descriptor from a thread of its own, so an event loop never waits on
/// whoever reads them. A pipe that nobody drains (`apnsctl mock | slow-consumer`), a terminal paused with
/// Ctrl-S or a full disk once blocked `write(2)` inside an event loop and stalled every connection; now only
/// this thread waits, the queue is bounded, and lines that do not fit are dropped and counted.
/// `@unchecked Sendable` as a synchronisation primitive: every `var` below is read and written under `lock`.
final class MockLogWriter: @unchecked Sendable {
    private let fd: Int32
    /// Bytes waiting to be written at most; beyond it new lines are dropped (about 3,000 lines).
    private let capacity: Int
    private let lock = Lock()
    /// Signalled when lines are queued, when the writer finished a chunk, and when `finish` begins.
    private let condition = Condition()
    private var queue: [UInt8] = []
    private var queuedLines = 0
    /// Lines taken by the writer thread and not yet written.
    private var writingLines = 0
    private var dropped = 0
    private var finishing = false
    /// A write failed (e.g. the reader closed the pipe): everything later is dropped.
    private var broken = false
    /// The `errno` of that failed write.
    private var failedWith: Int32?
    private let thread = OSThread()

    /// Called at most once, the first time lines are dropped, with the reason, on the thread that dropped them.
    var onFirstDrop: (@Sendable (String) -> Void)? {
        get { lock.withLock { firstDropHandler } }
        set { lock.withLock { firstDropHandler = newValue } }
    }
    private var firstDropHandler: (@Sendable (String) -> Void)?

    init(fd: Int32, capacity: Int = 1 << 20) {
        self.fd = fd
        self.capacity = capacity
    }

    /// Starts the writer thread; false when the system refused one.
    func start() -> Bool { thread.start { [self] in run() } }

    /// Queues `bytes` (`lines` whole lines) for writing, or drops them when the queue is full. Never blocks
    /// on the descriptor.
    func submit(_ bytes: [UInt8], lines: Int) {
        guard !bytes.isEmpty else { return }
        var firstDrop: (reason: String, handler: (@Sendable (String) -> Void)?)? = nil
        lock.lock()
        if broken || queue.count + bytes.count > capacity {
            if dropped == 0 {
                let why = failedWith.map { "writing the log to standard output failed (\(FileSystem.errnoText($0)))" }
                firstDrop = (why ?? "nobody is reading the log output fast enough",
                             firstDropHandler)
            }
            dropped += lines
        } else {
            queue.append(contentsOf: bytes)
            queuedLines += lines
            condition.signal()
        }
        lock.unlock()
        if let firstDrop { firstDrop.handler?(firstDrop.reason) }
    }

    /// The `errno` of the write that failed for good (not a slow reader), if one did.
    var writeError: Int32? {
        lock.withLock { failedWith }
    }

    /// Lines dropped so far.
    var droppedLines: Int {
        lock.withLock { dropped }
    }

    /// Lets the writer finish what is queued for at most `milliseconds`, then stops it. Returns the number of
    /// lines that were dropped or never written. A writer still stuck in `write(2)` is left to the process exit.
    @discardableResult
    func finish(waitingAtMost milliseconds: Int) -> Int {
        lock.lock()
        finishing = true
        condition.broadcast()
        let deadline = Condition.deadline(afterMilliseconds: milliseconds)
        while queuedLines + writingLines > 0 && !broken {
            if !condition.wait(holding: lock, until: deadline) { break }
        }
        let drained = queuedLines + writingLines == 0 || broken
        let lost = dropped + queuedLines + writingLines
        lock.unlock()
        if drained { thread.join() } else { thread.detach() }
        return lost
    }

    private func run() {
        var chunk: [UInt8] = []
        lock.lock()
        while true {
            while queue.isEmpty && !finishing { condition.wait(holding: lock) }
            if queue.isEmpty || broken { break }
            swap(&chunk, &queue)
            writingLines = queuedLines
            queuedLines = 0
            lock.unlock()
            let failure = write(chunk)
            chunk.removeAll(keepingCapacity: true)
            lock.lock()
            var announce: (@Sendable (String) -> Void)? = nil
            if let failure {
                broken = true
                failedWith = failure
                // Said at the failure itself (CLI.md), not at the next line dropped, which may never come.
                if dropped == 0 { announce = firstDropHandler }
                dropped += writingLines + queuedLines
                queue.removeAll()
                queuedLines = 0
            }
            writingLines = 0
            condition.broadcast()
            if let announce, let failure {
                lock.unlock()
                announce("writing the log to standard output failed (\(FileSystem.errnoText(failure)))")
                lock.lock()
            }
        }
        lock.unlock()
    }

    /// Bytes per `write(2)`: PIPE_BUF, so a write into a pipe with room never stops half way and the lines
    /// reported unwritten are exact to a dozen.
    static let slice = 4096

    /// Writes all of `bytes` in slices, waiting as long as the descriptor makes it, and counts the lines of
    /// each slice as written so `finish` knows how many a stuck write left behind. The `errno` when it fails
    /// for good, nil when all was written.
    private func write(_ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return posixWrite(fd, base + offset, min(raw.count - offset, Self.slice))
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A descriptor someone made non-blocking: wait until it takes more.
                    _ = PollSet.wait(for: fd, .writable, until: SystemClock.monotonicNanoseconds() + 100_000_000)
                    continue
                }
                return errno
            }
            if n == 0 { return EIO }
            let written = bytes[offset..<(offset + n)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            offset += n
            lock.withLock { writingLines -= written }
        }
        return nil
    }
}
