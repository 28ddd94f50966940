#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// The socket(2) spellings that differ between Glibc and Darwin, so `Socket` itself has none: Glibc imports
/// `SOCK_STREAM` as an enum case and has `SOCK_CLOEXEC`; Darwin has a plain `Int32` and no such flag.
enum SocketFlags {
    /// `SOCK_STREAM`, as `socket(2)` and `addrinfo.ai_socktype` take it.
    static var stream: Int32 {
        #if canImport(Darwin)
            SOCK_STREAM
        #else
            Int32(SOCK_STREAM.rawValue)
        #endif
    }

    /// A new TCP socket of `family` that a child process does not inherit, or -1 with `errno` set.
    /// Glibc marks it close-on-exec atomically; Darwin sets the flag right after (no fork happens in between
    /// in apnsctl).
    static func openTCP(family: Int32) -> Int32 {
        #if canImport(Darwin)
            let fd = socket(family, SOCK_STREAM, Int32(IPPROTO_TCP))
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return fd
        #else
            return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), Int32(IPPROTO_TCP))
        #endif
    }
}
