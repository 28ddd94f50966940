import APNSCrypto
import APNSPlatform

extension TLSConnection {
    /// Runs the handshake to completion for a test, waiting on the socket, bounded by `timeoutMs`
    /// (production code steps it: `PushConnection.handshake` and the mock's event loop).
    public func handshake(timeoutMs: Int32) throws(TLSFailure) {
        let deadline = SystemClock.monotonicNanoseconds() + UInt64(max(0, timeoutMs)) * 1_000_000
        while true {
            let events: Int16
            switch try handshakeStep() {
            case .bytes: return
            case .wantRead: events = Poll.readable
            case .wantWrite: events = Poll.writable
            case .closed: throw .handshake("the server closed the connection")
            }
            let now = SystemClock.monotonicNanoseconds()
            guard now < deadline else { throw .handshake("timed out") }
            if case .timeout = Poll.wait(fd: socket.fd, events: events, timeoutMs: Int32((deadline - now) / 1_000_000) + 1) {
                throw .handshake("timed out waiting for the server")
            }
        }
    }
}
