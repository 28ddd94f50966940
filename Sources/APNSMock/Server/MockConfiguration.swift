import APNSCore
import APNSCrypto

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
    /// Accept, handshake and read requests, but never answer any (the client's timeout must fire).
    public var neverAnswer: Bool
    /// Serve TLS that selects `http/1.1` by ALPN (or none when the client offers only `h2`) and answers
    /// any bytes with an HTTP/1.1 505 error: a server that does not speak HTTP/2.
    public var http1Only: Bool
    /// How many connections (in accept order, counted server-wide) misbehave; nil means every connection.
    public var connections: Int?

    public init(goAwayAfterStreams: Int? = nil, closeAfterRequests: Int? = nil, resetAfterAnswers: Int? = nil,
                eofAfterAnswers: Int? = nil, neverAnswer: Bool = false, http1Only: Bool = false, connections: Int? = nil) {
        self.goAwayAfterStreams = goAwayAfterStreams
        self.closeAfterRequests = closeAfterRequests
        self.resetAfterAnswers = resetAfterAnswers
        self.eofAfterAnswers = eofAfterAnswers
        self.neverAnswer = neverAnswer
        self.http1Only = http1Only
        self.connections = connections
    }

    /// No fault: a faithful APNs.
    public static let none = MockFaults()

    /// Whether any fault is configured.
    public var isActive: Bool {
        goAwayAfterStreams != nil || closeAfterRequests != nil || resetAfterAnswers != nil || eofAfterAnswers != nil
            || neverAnswer || http1Only
    }

    /// How a connection ends after `answered` answers under the reset or EOF fault, if it does now.
    func terminalClose(afterAnswers answered: Int) -> MockConnection.CloseMode? {
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

/// The TLS identity the mock presents and the CA it trusts for client certificates.
public struct MockServerIdentity: Sendable {
    public var certificate: X509Certificate
    public var key: PrivateKey
    public var chain: [X509Certificate]
    /// Client certificates must chain to this CA (else 403 `BadCertificate`).
    public var clientCA: X509Certificate

    public init(certificate: X509Certificate, key: PrivateKey, chain: [X509Certificate] = [], clientCA: X509Certificate) {
        self.certificate = certificate
        self.key = key
        self.chain = chain
        self.clientCA = clientCA
    }
}

/// Everything a `MockServer` needs: where to listen, who it is, how it judges requests, and how it misbehaves.
public struct MockConfiguration: Sendable {
    /// Address to listen on (default loopback only).
    public var host: String
    /// Port; 0 picks a free one (`MockServer.start()` returns it).
    public var port: Int
    public var identity: MockServerIdentity
    public var rules: MockRules
    public var faults: MockFaults
    /// Event-loop threads (each serves its share of the connections).
    public var threads: Int
    /// After this many error answers on one connection (410s do not count; a `BadDeviceToken` counts as this
    /// many, so it closes at once), GOAWAY and close it, as APNs does with clients that keep making errors.
    /// nil (the default): never.
    public var errorCloseAfter: Int?
    /// A client that has not finished the TLS handshake by then is disconnected (milliseconds).
    public var handshakeTimeoutMilliseconds: Int
    /// A connection that has not sent a whole request this long after its handshake gets GOAWAY
    /// `{"reason":"IdleTimeout"}` and is closed (milliseconds), so silent clients cannot pile up.
    public var firstRequestTimeoutMilliseconds: Int
    /// Connections open at once at most; beyond it new ones are closed at once and stderr says so.
    public var maxConnections: Int
    /// SETTINGS_MAX_CONCURRENT_STREAMS advertised (APNs: 1000 as of 2021–2026). Token connections still get 1
    /// until their first good token.
    public var maxConcurrentStreams: UInt32
    /// Where one JSON line per answered notification goes (1 = stdout); nil: no log.
    public var logDescriptor: Int32?
    /// Called on an event-loop thread for every answer queued, in answer order per connection: tests count answers
    /// per device to prove nothing answered was sent twice. Keep it short; nil (the default) costs nothing.
    public var onAnswer: (@Sendable (MockAnswer) -> Void)?
    /// Where broadcast channels are kept across restarts (`channels.json` in the state dir); nil: in memory only.
    public var channelsFile: String? = nil
    /// Channels per app and environment before `CannotCreateChannelConfig` (APNs: 10,000; tests lower it).
    public var maxChannels: Int = Broadcast.maximumChannels

    public init(host: String = "127.0.0.1", port: Int = 0, identity: MockServerIdentity, rules: MockRules = MockRules(),
                faults: MockFaults = .none, threads: Int = 2, handshakeTimeoutMilliseconds: Int = 10_000,
                firstRequestTimeoutMilliseconds: Int = 10_000, maxConnections: Int = 10_000,
                maxConcurrentStreams: UInt32 = APNSLimit.observedMaxConcurrentStreams, errorCloseAfter: Int? = nil, logDescriptor: Int32? = nil,
                onAnswer: (@Sendable (MockAnswer) -> Void)? = nil) {
        self.host = host
        self.port = port
        self.identity = identity
        self.rules = rules
        self.faults = faults
        self.threads = max(1, threads)
        self.handshakeTimeoutMilliseconds = handshakeTimeoutMilliseconds
        self.firstRequestTimeoutMilliseconds = firstRequestTimeoutMilliseconds
        self.maxConnections = max(1, maxConnections)
        self.maxConcurrentStreams = max(1, maxConcurrentStreams)
        self.errorCloseAfter = errorCloseAfter.map { max(1, $0) }
        self.logDescriptor = logDescriptor
        self.onAnswer = onAnswer
    }
}

/// One answer the mock queued, for `MockConfiguration.onAnswer`.
public struct MockAnswer: Sendable, Equatable {
    /// 1-based accept number of the connection (the log's `connection`).
    public var connection: Int
    /// The HTTP/2 stream answered.
    public var streamID: Int32
    /// The device token from the path, as sent (nil when the path had none).
    public var device: String?
    /// 200, or the reason's status.
    public var status: Int
    /// nil for 200.
    public var reason: APNSReason?
    /// The `apns-id` answered.
    public var apnsID: String

    public init(connection: Int, streamID: Int32, device: String?, status: Int, reason: APNSReason?, apnsID: String) {
        self.connection = connection
        self.streamID = streamID
        self.device = device
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
    }
}
