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

/// Writes all of `bytes` to a blocking `fd`, resuming after short writes and EINTR; returns the `errno` of a
/// failed write, nil when everything was written. Every pointer stays inside its closure.
public func posixWriteAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return posixWrite(fd, base + offset, raw.count - offset)
        }
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        if n == 0 { return EIO }
        offset += n
    }
    return nil
}
