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
    /// The proxy could not be reached, or refused or broke the tunnel (it names the proxy, never its password).
    case proxy(ProxyFailure)
    /// The server broke the HTTP/2 protocol.
    case protocolError(String)
    /// The connection ended (reset, closed, GOAWAY) with requests unanswered.
    case closed(String)
    /// No answer within `--timeout`.
    case timeout(seconds: Double)
    /// The connection kept failing before any answer; the last failure is kept.
    case gaveUp(attempts: Int, last: String)
    /// The server reset this request's stream every time it was sent (RST_STREAM with `code`).
    case streamReset(times: Int, code: UInt32)
    /// SIGINT or SIGTERM arrived before the answer (CLI.md: the error is the word `interrupted`).
    case interrupted

    /// The one-line message, with advice where there is one.
    public var description: String {
        switch self {
        case .connect(let e): return e.description + connectAdvice(e)
        case .tls(let e): return e.description
        case .proxy(let e): return e.description
        case .protocolError(let m): return "HTTP/2 protocol error: \(m)"
        case .closed(let m): return m
        case .timeout(let s):
            return "no answer from the server within \(s == s.rounded() ? String(Int(s)) : String(s)) s; raise --timeout, or check --endpoint and the network"
        case .gaveUp(let n, let last):
            return "no answer after \(n) connections in a row: \(last)"
        case .streamReset(let n, let code):
            return "the server reset the stream \(n) times (\(HTTP2ErrorCode.name(code)))"
        case .interrupted:
            return "interrupted"
        }
    }

    /// Worth opening another connection for (after one that worked): drops, resets, a reconnect that
    /// could not get through; not trust or configuration problems, which the next try would meet again.
    var isRetriable: Bool {
        switch self {
        case .closed, .protocolError, .connect: return true
        case .proxy(let e): return e.isRetriable
        case .tls(let e):
            switch e {
            case .io, .handshake: return true
            case .configuration, .verification, .noHTTP2: return false
            }
        case .timeout, .gaveUp, .streamReset, .interrupted: return false
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
