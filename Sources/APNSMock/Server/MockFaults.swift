import APNSCore

/// Deliberate misbehaviour, so clients can be tested against the failures real networks and APNs produce.
/// Every fault applies per connection, to the first `connections` connections (nil: all of them). What each one
/// puts on the wire, precisely (a client test should know which case it is exercising):
public struct MockFaults: Sendable, Equatable {
    /// Answer this many requests on a connection, then queue GOAWAY (NO_ERROR, debug data `{"reason":"Shutdown"}`)
    /// whose last-stream-id is the stream of the last answer. The mock keeps reading, as a real server does:
    /// streams at or below that id that complete later are still answered; streams above it are refused by the
    /// GOAWAY itself (never answered, no RST_STREAM; new ones are ignored, RFC 9113 §6.8). Once nothing at or
    /// below it is open, the mock sends TLS close_notify and closes. 0: GOAWAY with last-stream-id 0 right after
    /// the SETTINGS.
    public var goAwayAfterStreams: Int?
    /// Answer this many requests, then, when the next whole request arrives: no answer for it, no GOAWAY, no TLS
    /// close_notify; the answers already given are written, then the TCP connection is shut down (FIN) and
    /// closed. A client that still sends after that (or had unread bytes queued) gets a TCP RST from the kernel.
    public var closeAfterRequests: Int?
    /// Answer this many requests, wait until the peer's TCP stack has acknowledged every byte of those answers
    /// (at most 2 s), then close with `SO_LINGER` {1, 0}: the peer gets a TCP RST while the answers already sit
    /// in its socket buffer. Requests after the Nth are never answered. 0: reset right after the SETTINGS.
    public var resetAfterAnswers: Int?
    /// Answer this many requests, write them, then half-close TCP (FIN, `shutdown(SHUT_WR)`) without TLS
    /// close_notify (a truncation to the TLS layer), drain and discard whatever the peer still sends until it
    /// closes (at most 2 s, so no RST), and close. Requests after the Nth are never answered. 0: right after the
    /// SETTINGS.
    public var eofAfterAnswers: Int?
    /// Answer this many requests; the requests that then arrive are received (logged as `received`) but never
    /// answered, and the connection is reset as by `resetAfterAnswers` once the answers given were acknowledged.
    /// A server that processed requests and died before answering: a client must not send them twice.
    public var dropUnansweredAfter: Int?
    /// Accept, handshake and read requests, but never answer any (the client's timeout must fire).
    public var neverAnswer: Bool
    /// Serve TLS that selects `http/1.1` by ALPN (or none when the client offers only `h2`) and answers
    /// any bytes with an HTTP/1.1 505 error: a server that does not speak HTTP/2.
    public var http1Only: Bool
    /// How many connections (in accept order, counted server-wide) misbehave; nil means every connection.
    public var connections: Int?
    /// The GOAWAY fault's debug data instead of `{"reason":"Shutdown"}`, e.g. APNs' plain-text
    /// `Maximum active streams violated for this endpoint.`, for clients that must show either.
    public var goAwayDebugText: String?

    public init(
        goAwayAfterStreams: Int? = nil, closeAfterRequests: Int? = nil, resetAfterAnswers: Int? = nil,
        eofAfterAnswers: Int? = nil, dropUnansweredAfter: Int? = nil, neverAnswer: Bool = false,
        http1Only: Bool = false, connections: Int? = nil,
        goAwayDebugText: String? = nil
    ) {
        self.goAwayAfterStreams = goAwayAfterStreams
        self.closeAfterRequests = closeAfterRequests
        self.resetAfterAnswers = resetAfterAnswers
        self.eofAfterAnswers = eofAfterAnswers
        self.dropUnansweredAfter = dropUnansweredAfter
        self.neverAnswer = neverAnswer
        self.http1Only = http1Only
        self.connections = connections
        self.goAwayDebugText = goAwayDebugText
    }

    /// No fault: a faithful APNs.
    public static let none = MockFaults()

    /// Whether any fault is configured.
    public var isActive: Bool {
        goAwayAfterStreams != nil || closeAfterRequests != nil || resetAfterAnswers != nil || eofAfterAnswers != nil
            || dropUnansweredAfter != nil || neverAnswer || http1Only
    }

    /// How a connection ends after `answered` answers under the reset or EOF fault, if it does now.
    func terminalClose(afterAnswers answered: Int) -> MockConnectionStateMachine.CloseMode? {
        if let n = resetAfterAnswers, answered >= n { return .reset }
        if let n = eofAfterAnswers, answered >= n { return .endOfFile }
        return nil
    }

    /// Whether the connection with this accept number (0-based) misbehaves.
    func applies(toConnection number: Int) -> Bool {
        guard isActive else { return false }
        guard let limit = connections else { return true }
        return number < limit
    }
}
