import APNSCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Messages on this process's standard error, for the layers below the commands (the mock's server, the
/// passphrase prompt); the commands write to their world's `MessageStream`.
/// Standard output carries data and is written only through `OutputSink`, which checks every write. Writes go
/// straight to the descriptors: Swift 6 forbids touching C's `stderr` global, and unbuffered writes keep
/// order with child processes.
public enum StandardStreams {
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
