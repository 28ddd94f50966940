/// stdout carries data, stderr carries messages. Writes go straight to the descriptors:
/// Swift 6 forbids touching C's `stderr` global, and unbuffered writes keep order with child processes.
public enum StandardStreams {
    /// Writes bytes to standard output; a closed pipe (EPIPE) ends the write quietly.
    public static func writeOut(_ bytes: [UInt8]) { writeAll(fd: 1, bytes) }
    /// Writes text to standard output.
    public static func printOut(_ text: String) { writeAll(fd: 1, Array(text.utf8)) }
    /// Writes text to standard error.
    public static func printErr(_ text: String) { writeAll(fd: 2, Array(text.utf8)) }

    /// `error: …` on stderr (every line of a multi-line message is prefixed once, on the first).
    public static func error(_ message: String) { printErr("error: \(message)\n") }
    /// `warning: …` on stderr.
    public static func warning(_ message: String) { printErr("warning: \(message)\n") }

    /// Writes all of `bytes` to `fd`; a failure (a closed pipe) ends the write quietly: there is nowhere left
    /// to report it.
    public static func writeAll(fd: Int32, _ bytes: [UInt8]) { _ = posixWriteAll(fd, bytes) }
}

/// Collects standard output and writes it in large chunks; used where thousands of lines are printed.
public final class OutputBuffer {
    private var buffer: [UInt8] = []
    private let fd: Int32
    private let limit: Int

    public init(fd: Int32 = 1, limit: Int = 64 * 1024) {
        self.fd = fd
        self.limit = limit
        buffer.reserveCapacity(limit)
    }

    /// Appends a line (a newline is added).
    public func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= limit { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        StandardStreams.writeAll(fd: fd, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}
