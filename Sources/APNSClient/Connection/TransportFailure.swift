import APNSCore
import APNSCrypto
import APNSHTTP2
import APNSPlatform

/// What a user can check after a transport failure. The library says which; the CLI words it with its own
/// flags, so a renamed flag is changed in one place and the library names none.
public enum TransportAdvice: Sendable, Equatable {
    /// Nothing listens there: is the server up, is the endpoint or environment right?
    case checkServerAndEndpoint
    /// The name did not resolve: check the host name and the network.
    case checkHostName
    /// The server was silent: allow more time, or check the endpoint and the network.
    case allowMoreTime
    /// The server's certificate did not verify: trust its CA, or skip verification (unsafe).
    case trustServerCertificate
    /// The server's certificate was refused for its dates: this machine's clock is the likely cause.
    case checkClock
    /// The server's certificate verified but is for another name: connect by a name it is for.
    case useACertificateName
    /// The proxy could not be reached: check which proxy is configured, or exempt the host.
    case checkProxySettings
    /// The proxy was silent: allow more time, or check the proxy.
    case allowTheProxyMoreTime
    /// The server was silent through a proxy's tunnel: allow more time, or check the endpoint and the proxy (which
    /// may forward nothing).
    case allowMoreTimeOrCheckTheProxy
    /// The proxy refused the destination (403): APNs uses 443, or the alternative port 2197.
    case checkProxyAllowsThePort
    /// Requests may have been delivered: sending them again may notify a device twice.
    case resendUnknownIfDuplicatesAreAcceptable
}

extension TransportFailure {
    /// Whether the request may have been delivered (JSON `"delivery":"unknown"`).
    public var isUnknownOutcome: Bool {
        if case .unknownOutcome = self { return true }
        if case .recorded(_, let unknownOutcome) = self { return unknownOutcome }
        return false
    }
}

/// Why devices got no answer: the transport failed (exit 69). Each case reads as one line that says
/// where and what (`description`), plus what to check (`advice`, worded by the caller).
public enum TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// DNS, TCP connect, connect timeout.
    case connect(SocketError)
    /// TLS set-up, certificate verification, handshake, ALPN.
    case tls(TLSFailure)
    /// The proxy could not be reached, or refused or broke the tunnel (it names the proxy, never its password).
    case proxy(ProxyFailure)
    /// The server broke the HTTP/2 protocol.
    case protocolError(HTTP2Violation)
    /// The connection ended or stopped taking requests (reset, closed, GOAWAY) with requests unanswered.
    case closed(ConnectionLoss)
    /// No answer within `--timeout`.
    case timeout(seconds: Double)
    /// The server accepted TCP but did not finish the TLS handshake within `--timeout`. `proxy`: the proxy whose
    /// tunnel it went through (shown), which may be the one forwarding nothing.
    case handshakeTimeout(seconds: Double, proxy: String? = nil)
    /// The connection kept failing before any answer; the last failure is kept.
    indirect case gaveUp(attempts: Int, last: TransportFailure)
    /// The server reset this request's stream every time it was sent (RST_STREAM with `code`).
    case streamReset(times: Int, code: UInt32)
    /// SIGINT or SIGTERM arrived before the answer (CLI.md: the error is the word `interrupted`).
    case interrupted
    /// The request was completely sent, then something happened before an answer (the connection ended, the
    /// stream was reset): APNs may have delivered it, so it is not sent again (RFC 9113 §8.7).
    case unknownOutcome(UnansweredAfterSending)
    /// A failure as an earlier run printed it (the send history): its whole message, and whether APNs may
    /// have delivered the notification.
    case recorded(String, unknownOutcome: Bool)

    /// The one-line message: where and what.
    public var description: String {
        switch self {
        case .connect(let e): return e.description
        case .tls(let e): return e.description
        case .proxy(let e): return e.description
        case .protocolError(let violation): return "HTTP/2 protocol error: \(violation)"
        case .closed(let loss): return loss.description
        case .timeout(let s):
            return "no answer from the server within \(SecondsText.of(s))"
        case .handshakeTimeout(let s, let proxy):
            return "the TLS handshake got no answer from the server within \(SecondsText.of(s))"
                + (proxy.map { " through the tunnel the proxy \($0) opened" } ?? "")
        case .gaveUp(let n, let last):
            return "no answer after \(n) connections in a row: \(last.description)"
        case .streamReset(let n, let code):
            return "the server reset the stream \(n) times (\(HTTP2ErrorCode.name(code)))"
        case .interrupted:
            return "interrupted"
        case .unknownOutcome(let cause):
            return "unknown: " + cause.sentence
        case .recorded(let message, _):
            return message
        }
    }

    /// Worth opening another connection for (after one that worked): drops, resets, a reconnect that
    /// could not get through; not trust or configuration problems, which the next try would meet again.
    var isRetriable: Bool {
        switch self {
        case .closed, .protocolError, .connect, .handshakeTimeout: return true
        case .proxy(let e): return e.isRetriable
        case .tls(let e):
            switch e {
            case .io, .handshake: return true
            case .configuration, .caFileUnusable, .trustFileUnusable, .verification, .noHTTP2, .weakCertificate:
                return false
            }
        case .timeout, .gaveUp, .streamReset, .interrupted, .unknownOutcome, .recorded: return false
        }
    }

    /// What to check, when there is something to check.
    public var advice: TransportAdvice? {
        switch self {
        case .connect(.resolve): return .checkHostName
        case .connect(.connect), .connect(.timeout): return .checkServerAndEndpoint
        case .tls(let failure) where failure.isAboutCertificateDates: return .checkClock
        case .tls(let failure) where failure.isAboutHostName: return .useACertificateName
        case .tls(.verification): return .trustServerCertificate
        case .handshakeTimeout(_, .some): return .allowMoreTimeOrCheckTheProxy
        case .timeout, .handshakeTimeout: return .allowMoreTime
        case .gaveUp(_, let last): return last.advice
        case .proxy(let p): return p.advice
        case .unknownOutcome: return .resendUnknownIfDuplicatesAreAcceptable
        default: return nil
        }
    }
}

/// What left a completely sent request without an answer, so that APNs may have delivered it.
public enum UnansweredAfterSending: Sendable, Equatable {
    /// The server reset the stream with `code` (not REFUSED_STREAM).
    case streamReset(code: UInt32)
    /// The connection ended, or stopped taking requests and then ended (how, when known).
    case connectionEnded(ConnectionLoss?)
    /// `--timeout` expired while waiting for its answer.
    case timeout(seconds: Double)
    /// SIGINT or SIGTERM (or lost output) ended the wait for its answer.
    case interrupted
    /// `--resend-unknown` tried to send it again after the first unknown outcome, and that failed: the first
    /// outcome still stands, so it stays unknown rather than becoming a failure that says "not delivered".
    indirect case resendFailed(UnansweredAfterSending, TransportFailure)

    /// What happened, then that APNs may have delivered it, then how the connection ended when known.
    var sentence: String { sentence(consequence: "APNs may have delivered it") }

    /// What happened, then `consequence` (what the unanswered request may have done), then how the connection
    /// ended when known: a channel request may have created or deleted a channel, not delivered anything.
    public func sentence(consequence: String) -> String {
        switch self {
        case .timeout(let s):
            return "no answer within \(SecondsText.of(s)); \(consequence)"
        case .resendFailed(let first, let failure):
            return first.sentence(consequence: consequence) + "; sending it again failed: " + failure.description
        default:
            return "\(what) after the request was sent; \(consequence)" + (detail.map { " (\($0))" } ?? "")
        }
    }

    /// What happened, for the message.
    var what: String {
        switch self {
        case .streamReset(let code): return "the server reset the stream (\(Self.codeName(code)))"
        case .connectionEnded: return "the connection ended"
        case .timeout: return "no answer within the timeout"
        case .interrupted: return "interrupted"
        case .resendFailed(let first, _): return first.what
        }
    }

    /// How the connection ended, when known.
    var detail: String? {
        if case .connectionEnded(let loss?) = self { return loss.description }
        return nil
    }

    /// A stream error code's name up to `CANCEL` (8), the codes a stream reset carries; others by number.
    private static func codeName(_ code: UInt32) -> String {
        code <= 8 ? HTTP2ErrorCode.name(code) : "error code \(code)"
    }
}
