#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Where an `OutputSink`'s bytes go: a descriptor (standard output, an output file), or for tests a buffer in
/// memory that can be told to fail like a full disk or a reader that went away.
public protocol OutputDestination: AnyObject, Sendable {
    /// Writes a prefix of `bytes`, resuming after short writes; returns how many bytes were written and the
    /// `errno` that stopped it, if any.
    func write(_ bytes: [UInt8]) -> (written: Int, error: Int32?)
    /// Closes the destination; the `errno` of a failed close, else nil.
    func close() -> Int32?
}

/// An open descriptor, written with `write(2)` (EINTR and short writes resumed) and closed with `close(2)`.
final class DescriptorDestination: OutputDestination {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }
    func write(_ bytes: [UInt8]) -> (written: Int, error: Int32?) { posixWritePrefix(fd, bytes) }
    func close() -> Int32? { posixClose(fd) != 0 ? errno : nil }
}

/// The one way apnsctl writes its output, to standard output or to an output file: every `write(2)` and the
/// `close` are checked, the first failure is kept (errno and lines written), and nothing is written
/// after it. The CLI asks it before choosing an exit code, so no command exits 0 after a failed write
/// (CLI.md, "Output is never lost silently"). Nothing is flushed in `deinit`, where a failure could not be
/// reported: the owner flushes (`flush`, `close`) and asks `failure`.
/// `@unchecked Sendable` as a synchronisation primitive: every `var` below is read and written under `lock`.
public final class OutputSink: @unchecked Sendable {
    /// The first write that failed, and how far output had got.
    public struct Failure: Sendable, Equatable {
        /// `standard output`, or the output file's path.
        public let name: String
        /// The `errno` of the failed `write`/`close` (EBADF for a descriptor closed at start).
        public let code: Int32
        /// Whole lines that did reach the descriptor before the failure.
        public let linesWritten: Int
        /// Standard output was closed when the process started (`>&-`).
        public let closedAtStart: Bool

        /// `No space left on device`, or that the descriptor was closed from the start.
        public var reason: String {
            closedAtStart ? "it was closed when apnsctl started (>&-)" : FileSystem.errnoText(code)
        }

        /// The reader went away (a closed pipe) or there never was one, as opposed to a write error such as a
        /// full disk: CLI.md words the two differently.
        public var readerGone: Bool { code == EPIPE || closedAtStart }

        /// `writing standard output: No space left on device`, CLI.md's wording.
        public var message: String { "writing \(name): \(reason)" }
    }

    /// This process's standard output (descriptor 1). Commands write to the one their world hands them
    /// (`CommandWorld.standardOutput`), which is this one in the binary and a buffer in in-process tests.
    public static let standardOutput = OutputSink(fd: 1, name: "standard output")

    public let name: String
    private let destination: any OutputDestination
    private let lock = Lock()
    /// Bytes kept before a `write(2)`; lines are written in large chunks (thousands of results).
    private let limit: Int
    private var buffer: [UInt8] = []
    private var writtenLines = 0
    private var closedAtStart = false
    private var firstFailure: Failure?
    private var failureHandler: (@Sendable (Failure) -> Void)?

    /// A sink for the open descriptor `fd`, named `name` in messages; the caller keeps owning `fd` until `close`.
    /// `closedAtStart`: `fd` stands in for a standard output that was closed when the process started (the
    /// read-only /dev/null `reserveStandardDescriptors` puts there), so every write fails as `>&-` makes it.
    public convenience init(fd: Int32, name: String, bufferLimit: Int = 64 * 1024, closedAtStart: Bool = false) {
        self.init(destination: DescriptorDestination(fd: fd), name: name, bufferLimit: bufferLimit)
        if closedAtStart { markClosedAtStart() }
    }

    /// A sink writing to `destination` (a test's buffer), named `name` in messages, with the same checks.
    public init(destination: any OutputDestination, name: String, bufferLimit: Int = 64 * 1024) {
        self.destination = destination
        self.name = name
        self.limit = bufferLimit
    }

    /// The first failure, if a write or the close failed.
    public var failure: Failure? { lock.withLock { firstFailure } }

    /// Whether this stands in for a standard output closed when the process started (`>&-`): every write will
    /// fail, so a command with effects beyond its output can refuse before it has any.
    public var wasClosedAtStart: Bool { lock.withLock { closedAtStart } }

    /// Called once, on the writing thread, when the first write fails (`send` stops sending then).
    public var onFailure: (@Sendable (Failure) -> Void)? {
        get { lock.withLock { failureHandler } }
        set { lock.withLock { failureHandler = newValue } }
    }

    /// Appends a line (a newline is added); written once the buffer holds `bufferLimit` bytes or on `flush`.
    public func line(_ text: String) {
        let failed = lock.withLock { () -> Failure? in
            guard firstFailure == nil else { return nil }
            buffer.append(contentsOf: text.utf8)
            buffer.append(0x0A)
            // A stdout closed at start fails at the first line, so `send` stops at once.
            return buffer.count >= limit || closedAtStart ? writeBufferLocked() : nil
        }
        if let failed { notify(failed) }
    }

    /// Writes `text` now (after anything buffered).
    public func print(_ text: String) { write(Array(text.utf8)) }

    /// Writes `bytes` now (after anything buffered).
    public func write(_ bytes: [UInt8]) {
        let failed = lock.withLock { () -> Failure? in
            guard firstFailure == nil else { return nil }
            buffer.append(contentsOf: bytes)
            return writeBufferLocked()
        }
        if let failed { notify(failed) }
    }

    /// Writes what is buffered.
    public func flush() {
        let failed = lock.withLock { () -> Failure? in
            guard firstFailure == nil, !buffer.isEmpty else { return nil }
            return writeBufferLocked()
        }
        if let failed { notify(failed) }
    }

    /// Flushes, then closes the descriptor (for output files; standard output stays open). A failed `close`
    /// (a deferred write error, as NFS reports) counts as a failed write. Returns the first failure.
    @discardableResult
    public func close() -> Failure? {
        flush()
        let failed = lock.withLock { () -> Failure? in
            if let code = destination.close(), firstFailure == nil {
                return recordLocked(code)
            }
            return nil
        }
        if let failed { notify(failed) }
        return failure
    }

    /// Reserves descriptors 0, 1 and 2 when the process started with one closed (`>&-`), so that no socket
    /// or file opened later becomes standard output (results would go into it). A closed standard output is
    /// remembered: its first write fails, and the command exits 74. Call first thing in `main`.
    public static func reserveStandardDescriptors() {
        for target: Int32 in 0...2 where fcntl(target, F_GETFD) == -1 && errno == EBADF {
            // Read-only for 1 and 2 as well: any write to the placeholder fails (EBADF) instead of vanishing.
            let opened = open("/dev/null", O_RDONLY)
            guard opened >= 0 else { continue }
            if opened != target {
                _ = dup2(opened, target)
                _ = posixClose(opened)
            }
            if target == 0 { ClosedStandardInput.remember() }
            if target == 1 { standardOutput.markClosedAtStart() }
        }
    }

    private func markClosedAtStart() { lock.withLock { closedAtStart = true } }

    // MARK: - Writing

    /// Writes the whole buffer, resuming after short writes and EINTR; a failure is kept and the rest dropped.
    private func writeBufferLocked() -> Failure? {
        if closedAtStart {
            buffer.removeAll()
            return recordLocked(EBADF)
        }
        let (n, failedWith) = destination.write(buffer)
        // Counted on the buffer's bytes directly: a closure over an ArraySlice cost several times as much a byte.
        writtenLines += buffer.withUnsafeBufferPointer { bytes in
            var lines = 0
            for b in UnsafeBufferPointer(rebasing: bytes[0..<n]) where b == 0x0A { lines += 1 }
            return lines
        }
        buffer.removeAll(keepingCapacity: true)
        guard let failedWith else { return nil }
        return recordLocked(failedWith)
    }

    private func recordLocked(_ code: Int32) -> Failure? {
        guard firstFailure == nil else { return nil }
        let failure = Failure(
            name: name, code: code, linesWritten: writtenLines,
            closedAtStart: closedAtStart)
        firstFailure = failure
        return failure
    }

    private func notify(_ failure: Failure) {
        onFailure?(failure)
    }
}
