// APNSPlatform imports the C library for itself; no other module sees it, so every Glibc/Darwin difference
// stays in this module. Each file of this module that calls it imports it the same way.
#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Permission bits for files apnsctl creates (`0o600` for keys). A Swift type rather than C's `mode_t`, whose
/// width differs between Glibc and Darwin and which public signatures cannot always name: a clean build
/// sometimes resolved it through SwiftOverlayShims and refused it ("not imported by this file").
public typealias FileMode = UInt32

/// `read(2)`, named so it cannot clash with a type's own `read` method.
@inline(__always)
public func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

/// `write(2)`, named so it cannot clash with a type's own `write` method.
@inline(__always)
public func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }

/// `close(2)`, named so it cannot clash with a type's own `close` method.
@inline(__always)
public func posixClose(_ fd: Int32) -> Int32 { close(fd) }

/// Writes all of `bytes` to `fd`, resuming after short writes and EINTR (and waiting on a descriptor someone
/// made non-blocking); returns the `errno` of a failed write, nil when everything was written.
public func posixWriteAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? { posixWritePrefix(fd, bytes).error }

/// `posixWriteAll` that also says how many bytes did reach `fd` before a failure (the output layer counts
/// the lines written). Each write(2) takes at most `slice` bytes (the mock's log writes PIPE_BUF at a time so
/// a write into a pipe with room never stops half way), `written` hears each range that went out, and a
/// descriptor that would block is waited on `retryMs` at a time. Every pointer stays inside its closure.
public func posixWritePrefix(
    _ fd: Int32, _ bytes: [UInt8], slice: Int = .max, retryMs: UInt64 = 1000,
    written: (Range<Int>) -> Void = { _ in }
) -> (written: Int, error: Int32?) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return posixWrite(fd, base + offset, min(raw.count - offset, slice))
        }
        if n < 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN {
                // A shared terminal or pipe someone else made non-blocking: wait until it takes more.
                _ = PollSet.wait(for: fd, .writable, until: SystemClock.monotonicNanoseconds() + retryMs * 1_000_000)
                continue
            }
            return (offset, errno)
        }
        if n == 0 { return (offset, EIO) }
        written(offset..<(offset + n))
        offset += n
    }
    return (offset, nil)
}

/// `errno`, for modules that call another C library (OpenSSL) which leaves it set and cannot see the C
/// library themselves. Read it right after the call, before anything else can change it.
public enum SystemError {
    /// The calling thread's `errno` now.
    public static var code: Int32 { errno }

    /// Whether `code` says the peer closed the connection under a write or read (ECONNRESET, EPIPE).
    public static func isConnectionGone(_ code: Int32) -> Bool { code == ECONNRESET || code == EPIPE }
}
