// One place that picks the C library, so other files just `import` this module's helpers.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// `read(2)`, named so it cannot clash with a type's own `read` method.
@inline(__always)
public func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

/// `write(2)`, named so it cannot clash with a type's own `write` method.
@inline(__always)
public func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
