import APNSCore
import APNSCrypto
import APNSPlatform

/// The TLS identity the mock presents and the CA it trusts for client certificates.
public struct MockServerIdentity: Sendable {
    public var certificate: X509Certificate
    public var key: PrivateKey
    public var chain: [X509Certificate]
    /// Client certificates must chain to this CA (else 403 `BadCertificate`).
    public var clientCA: X509Certificate

    public init(certificate: X509Certificate, key: PrivateKey, chain: [X509Certificate] = [], clientCA: X509Certificate)
    {
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
    /// A connection that has not completed a request this long after its handshake, or after its last request,
    /// gets GOAWAY `{"reason":"IdleTimeout"}` and is closed (milliseconds), so silent clients cannot pile up.
    public var firstRequestTimeoutMilliseconds: Int
    /// Connections open at once at most; beyond it new ones are closed at once and stderr says so.
    public var maxConnections: Int
    /// Added to that warning to say how to raise the limit (the CLI names its flag); nil: nothing.
    public var connectionCapAdvice: String? = nil
    /// SETTINGS_MAX_CONCURRENT_STREAMS advertised (APNs: 1000 as of 2021–2026). Token connections still get 1
    /// until their first good token.
    public var maxConcurrentStreams: UInt32
    /// Where one JSON line per answered notification goes (1 = stdout); nil: no log.
    public var logDescriptor: Int32?
    /// Where warnings go (2 = stderr), each only if it can be written at once.
    public var warningDescriptor: Int32 = 2
    /// Called on an event-loop thread for every answer queued, in answer order per connection: tests count answers
    /// per device to prove nothing answered was sent twice. Keep it short; nil (the default) costs nothing.
    public var onAnswer: (@Sendable (MockAnswer) -> Void)?
    /// The state dir broadcast channels are kept in across restarts (its `channels.json`); nil: in memory only.
    public var channelsDirectory: PrivateDirectory? = nil
    /// Channels per app and environment before `CannotCreateChannelConfig` (APNs: 10,000; tests lower it).
    public var maxChannels: Int = Broadcast.maximumChannels
    /// The wall clock provider tokens are dated against (UNIX seconds): tests move it an hour on in a second.
    public var clock: @Sendable () -> Int64 = { SystemClock.now() }

    public init(
        host: String = "127.0.0.1", port: Int = 0, identity: MockServerIdentity, rules: MockRules = MockRules(),
        faults: MockFaults = .none, threads: Int = 2, handshakeTimeoutMilliseconds: Int = 10_000,
        firstRequestTimeoutMilliseconds: Int = 10_000, maxConnections: Int = 10_000,
        maxConcurrentStreams: UInt32 = APNSLimit.observedMaxConcurrentStreams, errorCloseAfter: Int? = nil,
        logDescriptor: Int32? = nil,
        onAnswer: (@Sendable (MockAnswer) -> Void)? = nil
    ) {
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
