// One place that picks the C library, so other files just `import` this module's helpers.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
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
/// the lines written). Every pointer stays inside its closure.
public func posixWritePrefix(_ fd: Int32, _ bytes: [UInt8]) -> (written: Int, error: Int32?) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return posixWrite(fd, base + offset, raw.count - offset)
        }
        if n < 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN {
                // A shared terminal or pipe someone else made non-blocking: wait until it takes more.
                _ = Poll.wait(fd: fd, events: Poll.writable, timeoutMs: 1000)
                continue
            }
            return (offset, errno)
        }
        if n == 0 { return (offset, EIO) }
        offset += n
    }
    return (offset, nil)
}
