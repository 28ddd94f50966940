/// How an established connection ended, as the driver saw it after reading everything that arrived.
/// The difference matters: a drop is retried on a new connection, a refusal (a fatal TLS alert before
/// any answer, such as TLS 1.3's "certificate required") would only be refused again.
public enum ConnectionEnd: Equatable, Sendable {
    /// TLS close_notify, then EOF.
    case closedCleanly
    /// TCP EOF without close_notify (a crashed server, a middlebox, a load balancer).
    case eofWithoutCloseNotify
    /// TCP reset (ECONNRESET, EPIPE).
    case reset
    /// A TLS alert arrived (its text), e.g. `tlsv13 alert certificate required`.
    case alert(String)
    /// Any other read failure (its text).
    case failed(String)
    /// The server broke HTTP/2; apnsctl ended the session.
    case protocolError(HTTP2Violation)
    /// The HTTP/2 session finished by itself (GOAWAY received, no stream left to read).
    case sessionFinished

    /// A refusal rather than a drop: reconnecting would meet the same answer.
    var isRefusal: Bool {
        if case .alert = self { return true }
        return false
    }

    /// One line for messages, mentioning the GOAWAY that came first, if any.
    public func description(afterGoAway goAway: GoAwayNotice?) -> String {
        let what: String
        switch self {
        case .closedCleanly: what = "the server closed the connection"
        case .eofWithoutCloseNotify: what = "the server dropped the connection (EOF without TLS close_notify)"
        case .reset: what = "the server reset the connection (TCP RST)"
        case .alert(let text):
            what = "the server ended the connection with a TLS alert: \(text)" + Self.advice(forAlert: text)
        case .failed(let text): what = "the connection failed: \(text)"
        case .protocolError(let violation): what = "HTTP/2 protocol error: \(violation)"
        case .sessionFinished: what = "the server ended the HTTP/2 session"
        }
        guard let goAway else { return what }
        return "\(what) after \(goAway.description)"
    }

    /// A client certificate the server did not accept shows up as an alert after the TLS 1.3 handshake.
    private static func advice(forAlert alert: String) -> String {
        let certificateAlerts = [
            "certificate required", "handshake failure", "bad certificate", "unknown ca",
            "certificate unknown", "certificate revoked", "certificate expired",
        ]
        guard certificateAlerts.contains(where: { alert.contains($0) }) else { return "" }
        return "; the server wants a client certificate it trusts: check the certificate and key, or use token auth"
    }
}
