import APNSCrypto
import APNSPlatform

extension TLSConnection {
    /// Runs the handshake to completion for a test, waiting on the socket, bounded by `timeoutMs`
    /// (production code steps it: `PushConnection.handshake` and the mock's event loop).
    public func handshake(timeoutMs: Int32) throws(TLSFailure) {
        let deadline = SystemClock.monotonicNanoseconds() + UInt64(max(0, timeoutMs)) * 1_000_000
        while true {
            let interest: PollInterest
            switch try handshakeStep() {
            case .bytes: return
            case .wantRead: interest = .readable
            case .wantWrite: interest = .writable
            case .closed: throw .handshake("the server closed the connection")
            }
            guard SystemClock.monotonicNanoseconds() < deadline else { throw .handshake("timed out") }
            if PollSet.wait(for: socket.fd, interest, until: deadline).isEmpty {
                throw .handshake("timed out waiting for the server")
            }
        }
    }
}
