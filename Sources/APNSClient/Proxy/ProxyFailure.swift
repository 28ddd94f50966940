import APNSCore
import APNSPlatform

/// Why the tunnel through a proxy could not be opened (exit 69). Each case names the proxy by its
/// `display` (never its password) and says what the proxy did, so the user knows whom to ask.
public enum ProxyFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// DNS, TCP connect or connect timeout to the proxy itself.
    case unreachable(proxy: String, SocketError)
    /// The HTTP proxy answered CONNECT with a non-2xx status (its status line, printable).
    case refused(proxy: String, status: Int, statusLine: String)
    /// The SOCKS5 proxy refused: no acceptable method, bad user/password, or a failed CONNECT (its reply).
    case socksRefused(proxy: String, reason: String)
    /// The proxy closed the connection during the handshake.
    case closed(proxy: String, during: String)
    /// The proxy sent something that is not its protocol.
    case malformed(proxy: String, what: String)
    /// No complete answer from the proxy within `--timeout`.
    case timeout(proxy: String, seconds: Double)
    /// Reading or writing the proxy connection failed (strerror text).
    case io(proxy: String, reason: String)

    /// One line: the proxy and what it said (`advice` says what to check).
    public var description: String {
        switch self {
        case .unreachable(let p, let e):
            return "proxy \(p): \(e.description)"
        case .refused(let p, let status, let line):
            return "proxy \(p) refused the tunnel: \(line)"
                + Self.advice(status: status, credentialsGiven: p.contains("@"))
        case .socksRefused(let p, let reason):
            return "SOCKS5 proxy \(p) refused: \(reason)"
        case .closed(let p, let during):
            return
                "proxy \(p) closed the connection \(during); is it an HTTP or SOCKS5 proxy, and does it allow this client?"
        case .malformed(let p, let what):
            return "proxy \(p) answered something unexpected: \(what); check the scheme (http:// or socks5h://)"
        case .timeout(let p, let s):
            return "proxy \(p) did not answer within \(SecondsText.of(s))"
        case .io(let p, let reason):
            return "proxy \(p): \(reason)"
        }
    }

    /// Worth another connection after one that worked: a proxy that went away may come back; one that
    /// refused (credentials, policy) would refuse again.
    var isRetriable: Bool {
        switch self {
        case .unreachable, .closed, .timeout, .io: return true
        case .refused(_, let status, _): return status >= 500
        case .socksRefused, .malformed: return false
        }
    }

    /// What to check, worded by the caller with its own flags.
    var advice: TransportAdvice? {
        switch self {
        case .unreachable: return .checkProxySettings
        case .timeout: return .allowTheProxyMoreTime
        case .refused(_, 403, _): return .checkProxyAllowsThePort
        default: return nil
        }
    }

    /// `credentialsGiven`: the proxy's URL had a user (its display shows `user:***@`), so a 407 refused them.
    private static func advice(status: Int, credentialsGiven: Bool) -> String {
        switch status {
        case 407 where credentialsGiven:
            return
                "; the proxy refused these credentials: check the user and password (percent-encode special characters)"
        case 407:
            return
                "; the proxy wants credentials: give http://user:password@host:port (percent-encode special characters)"
        case 401: return "; check the proxy credentials"
        case 403: return "; the proxy does not allow this destination or port"
        // Not "could not reach": a web server given as the proxy, or a proxy with CONNECT turned off, says 501 or 405.
        case 501, 405:
            return "; it does not tunnel (CONNECT): is this a web server rather than an HTTP proxy? check the proxy "
                + "URL, or use a SOCKS proxy (socks5://…)"
        case 500...599: return "; the proxy could not reach the server it was asked for"
        default: return ""
        }
    }
}
