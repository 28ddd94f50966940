import APNSCore
#if canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#else
import Glibc
#endif

/// Messages on standard error. Standard output carries data and is written only through
/// `OutputSink.standardOutput`, which checks every write. Writes go straight to the descriptors:
/// Swift 6 forbids touching C's `stderr` global, and unbuffered writes keep order with child processes.
public enum StandardStreams {
    /// Writes text to standard error.
    public static func printErr(_ text: String) { writeAll(fd: 2, Array(text.utf8)) }

    /// `error: …` on stderr (every line of a multi-line message is prefixed once, on the first). Messages
    /// quote input (file names, tokens, flag values, server answers): control characters in them are
    /// escaped, so no input drives the terminal; the message's own line breaks stay.
    public static func error(_ message: String) { printErr("error: \(PrintableText.escapingControlsPerLine(message))\n") }
    /// `warning: …` on stderr, escaped as `error` is.
    public static func warning(_ message: String) { printErr("warning: \(PrintableText.escapingControlsPerLine(message))\n") }

    /// Writes all of `bytes` to `fd` (stderr, a terminal); a failure ends the write quietly: a message that
    /// cannot reach stderr has nowhere left to be reported. Never used for standard output.
    public static func writeAll(fd: Int32, _ bytes: [UInt8]) { _ = posixWriteAll(fd, bytes) }

    /// One write(2) of `bytes` to `fd` if it takes one now, else nothing: for a warning on a stream that may
    /// be stalled (the mock's stderr can be the same pipe as its log), which must never hold the caller up.
    public static func writeIfReady(fd: Int32, _ bytes: [UInt8]) {
        guard PollSet.wait(for: fd, .writable, until: 0).contains(.writable) else { return }
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress { _ = posixWrite(fd, base, raw.count) }
        }
    }
}
