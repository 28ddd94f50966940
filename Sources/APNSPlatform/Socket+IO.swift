#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Plain (non-TLS) reads and writes on a non-blocking socket: the few bytes a proxy handshake
/// exchanges before TLS takes the descriptor over.
extension Socket {
    /// The outcome of one non-blocking read or write.
    public enum IOStep: Equatable, Sendable {
        /// This many bytes moved.
        case bytes(Int)
        /// Nothing now: wait until the socket is ready.
        case wouldBlock
        /// The peer ended the stream (EOF on read, EPIPE/ECONNRESET on write).
        case closed
        /// Any other failure, as `strerror` text.
        case failed(String)
    }

    /// Writes what it can of `bytes` (MSG_NOSIGNAL: a closed peer costs EPIPE, not the process).
    public func send(_ bytes: ArraySlice<UInt8>) -> IOStep {
        let n = bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return cSend(fd, base, raw.count)
        }
        if n >= 0 { return .bytes(n) }
        return Self.classify(errno)
    }

    /// Reads up to `limit` bytes; an empty array never means EOF (that is `.closed`).
    public func receive(limit: Int) -> (IOStep, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: max(1, limit))
        let n = buffer.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return recv(fd, base, raw.count, 0)
        }
        if n > 0 { return (.bytes(n), Array(buffer[0..<n])) }
        if n == 0 { return (.closed, []) }
        return (Self.classify(errno), [])
    }

    private static func classify(_ code: Int32) -> IOStep {
        switch code {
        case EAGAIN, EWOULDBLOCK, EINTR: return .wouldBlock
        case EPIPE, ECONNRESET: return .closed
        default: return .failed(FileSystem.errnoText(code))
        }
    }
}

/// `send(2)` without SIGPIPE where the platform allows, named apart from `Socket.send`.
@inline(__always)
private func cSend(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
    #if os(Linux)
        return send(fd, base, count, Int32(MSG_NOSIGNAL))
    #else
        return send(fd, base, count, 0)
    #endif
}
