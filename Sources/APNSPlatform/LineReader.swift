#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Reads a file descriptor line by line through one fixed buffer: constant memory for any file size,
/// which is what lets `--devices` stream a million tokens.
public final class LineReader {
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var finished = false
    /// Inside a line longer than the buffer, whose head was already returned.
    private var skipping = false
    /// 1-based number of the line last returned.
    public private(set) var lineNumber = 0
    /// Bytes taken from the descriptor so far.
    public private(set) var bytesRead = 0
    /// Bytes this reader may still take (nil: no limit): a file read again reads only what was checked.
    private var remaining: Int?
    /// The line last returned had no line end after it: the end of the file (or of the limit) came first.
    public private(set) var lastLineUnterminated = false

    /// The buffer's size unless given: a longer line comes back cut to it.
    public static let defaultBufferSize = 64 * 1024

    /// Reads `fd`; closes it on deinit when `ownsDescriptor`.
    public init(fd: Int32, ownsDescriptor: Bool, bufferSize: Int = LineReader.defaultBufferSize, limit: Int? = nil) {
        self.fd = fd
        remaining = limit
        self.ownsDescriptor = ownsDescriptor
        self.buffer = [UInt8](repeating: 0, count: max(16, bufferSize))
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// The next line without its `\n` (and `\r`), or nil at the end of the file.
    /// A line longer than the buffer is returned cut to the buffer's size.
    public func next() -> String? { line(reading: true) }

    /// The next line when it is whole in the buffer (or the end was read), never reading: what was taken from the
    /// descriptor but not yet returned. nil once no such line is left; the descriptor keeps what it still holds.
    public func nextBuffered() -> String? { line(reading: false) }

    /// Whether nothing is left: every line returned, and the end read or the descriptor at its end now (a pipe
    /// whose writer closed, holding no more bytes), asked without reading.
    public var isAtEnd: Bool {
        guard start >= end else { return false }
        if finished { return true }
        // The rest of a line too long for the buffer may still come: not the end.
        guard !skipping else { return false }
        let events = PollSet.wait(for: fd, .readable, until: 0)
        return events.contains(.hangUp) && !events.contains(.readable)
    }

    private func line(reading: Bool) -> String? {
        while true {
            if let nl = findNewline() {
                if skipping {
                    skipping = false
                    start = nl + 1
                    continue
                }
                let line = text(from: start, to: nl)
                start = nl + 1
                lineNumber += 1
                return line
            }
            if skipping { start = end }
            if finished {
                guard start < end else { return nil }
                let line = text(from: start, to: end)
                start = end
                lineNumber += 1
                lastLineUnterminated = true
                return line
            }
            if start == 0 && end == buffer.count {
                let line = text(from: 0, to: end)
                start = end
                skipping = true
                lineNumber += 1
                return line
            }
            guard reading else { return nil }
            refill()
        }
    }

    /// The descriptor a `next()` would now wait on, nil when it would not (a whole line is in the buffer, or the
    /// end was read). What the descriptor has is read here first, as far as that needs no waiting: a line whose
    /// head came without its end is still waited for.
    public func descriptorToWaitFor() -> Int32? {
        while true {
            if skipping {
                // The rest of a line too long for the buffer, whose head was returned: not a line of its own.
                if let nl = findNewline() {
                    skipping = false
                    start = nl + 1
                    continue
                }
                start = end
            }
            if finished || findNewline() != nil || (start == 0 && end == buffer.count) { return nil }
            // One poll without sleeping: data, the end or an error is read now; nothing yet is waited for.
            guard PollSet.wait(for: fd, .readable, until: 0).any else { return fd }
            refill()
        }
    }

    private func findNewline() -> Int? {
        guard start < end else { return nil }
        return buffer.withUnsafeBytes { p -> Int? in
            guard let base = p.baseAddress, let hit = memchr(base + start, 0x0A, end - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
    }

    private func text(from a: Int, to b0: Int) -> String {
        var b = b0
        if b > a && buffer[b - 1] == 0x0D { b -= 1 }
        return buffer.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[a..<b]), as: UTF8.self)
        }
    }

    /// Moves the unread tail to the front and reads more.
    private func refill() {
        let pending = end - start
        if start > 0 {
            if pending > 0 {
                buffer.withUnsafeMutableBufferPointer { p in
                    if let base = p.baseAddress { base.update(from: base + start, count: pending) }
                }
            }
            start = 0
            end = pending
        }
        while true {
            if remaining == 0 {
                finished = true
                return
            }
            let n = buffer.withUnsafeMutableBytes { p -> Int in
                guard let base = p.baseAddress else { return 0 }
                return posixRead(fd, base + end, min(p.count - end, remaining ?? Int.max))
            }
            if n > 0 {
                end += n
                bytesRead += n
                remaining = remaining.map { $0 - n }
                return
            }
            if n < 0 && errno == EINTR { continue }
            finished = true
            return
        }
    }
}
