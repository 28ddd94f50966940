import APNSCore
import APNSCrypto
import APNSHTTP2

/// Why devices got no answer: the transport failed (exit 69). Each case reads as one line that says
/// where and what, so it can be both the `error:` message and the `"error"` field of a JSON result.
public enum TransportFailure: Error, Sendable, CustomStringConvertible {
    /// DNS, TCP connect, connect timeout.
    case connect(SocketError)
    /// TLS set-up, certificate verification, handshake, ALPN.
    case tls(TLSFailure)
    /// The server broke the HTTP/2 protocol.
    case protocolError(String)
    /// The connection ended (reset, closed, GOAWAY) with requests unanswered.
    case closed(String)
    /// No answer within `--timeout`.
    case timeout(seconds: Double)
    /// The connection kept failing before any answer; the last failure is kept.
    case gaveUp(attempts: Int, last: String)

    public var description: String {
        switch self {
        case .connect(let e): return e.description + connectAdvice(e)
        case .tls(let e): return e.description
        case .protocolError(let m): return "HTTP/2 protocol error: \(m)"
        case .closed(let m): return m
        case .timeout(let s):
            return "no answer from the server within \(s == s.rounded() ? String(Int(s)) : String(s)) s; raise --timeout, or check --endpoint and the network"
        case .gaveUp(let n, let last):
            return "no answer after \(n) connections in a row: \(last)"
        }
    }

    /// Worth opening another connection for: drops and resets, not configuration or trust problems.
    var isRetriable: Bool {
        switch self {
        case .closed, .protocolError: return true
        case .connect(let e):
            if case .connect = e { return true }
            return false
        case .tls(let e):
            if case .io = e { return true }
            return false
        case .timeout, .gaveUp: return false
        }
    }

    private func connectAdvice(_ e: SocketError) -> String {
        switch e {
        case .connect: return "; is the server running, and are --endpoint or --env right?"
        case .resolve: return "; check the host name in --endpoint and the network"
        default: return ""
        }
    }
}
