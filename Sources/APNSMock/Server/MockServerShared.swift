import APNSCore
import APNSCrypto
import APNSPlatform

/// What every event loop of one server shares: configuration, TLS contexts, the listener, the stop pipe,
/// and the few counters that need a lock (accept numbers, open connections for the cap).
final class MockServerShared: Sendable {
    let configuration: MockConfiguration
    let checker: RequestChecker
    /// Broadcast sends and channel management, with the channels every loop shares.
    let broadcastChecker: BroadcastChecker
    let context: TLSContext
    /// The HTTP/1.1-only context, when that fault is configured.
    let http1Context: TLSContext?
    let listener: Socket
    let stop: WakePipe
    /// Writes the notification log off the event loops; nil without a log descriptor.
    let logWriter: MockLogWriter?
    private let counters = LockedValue(Counters())

    /// What the event loops change as they run.
    private struct Counters: Sendable {
        /// Connections admitted so far (closed at once over the cap do not count): the next one's accept number.
        var accepted = 0
        var open = 0
        /// Connections closed at once because `maxConnections` were open, since the last warning.
        var refused = 0
        var lastCapWarning: UInt64?
        var warnedAboutDescriptors = false
    }

    init(configuration: MockConfiguration, listener: Socket, stop: WakePipe) throws(MockServerError) {
        self.configuration = configuration
        self.checker = RequestChecker(rules: configuration.rules)
        self.broadcastChecker = BroadcastChecker(
            rules: configuration.rules,
            store: ChannelStore(
                directory: configuration.channelsDirectory, limit: configuration.maxChannels,
                warnings: configuration.warningDescriptor))
        self.listener = listener
        self.stop = stop
        self.logWriter = configuration.logDescriptor.map { MockLogWriter(fd: $0) }
        let id = configuration.identity
        do {
            context = try TLSContext.server(
                certificate: id.certificate, key: id.key, chain: id.chain, clientCA: id.clientCA)
            http1Context =
                configuration.faults.http1Only
                ? try TLSContext.server(
                    certificate: id.certificate, key: id.key, chain: id.chain, clientCA: id.clientCA,
                    speakHTTP1Only: true)
                : nil
        } catch {
            throw .tls(error)
        }
    }

    /// Counts a new connection in, with its accept number (0-based) and whether the faults apply to it; nil when
    /// `maxConnections` are open, and then stderr says so (at most every 10 s, with how many were closed).
    func admitConnection() -> (number: Int, faulty: Bool)? {
        let cap = configuration.maxConnections
        let verdict = counters.withLock { c -> (admitted: Int?, warn: Int?) in
            guard c.open < cap else {
                c.refused += 1
                let now = SystemClock.monotonicNanoseconds()
                guard c.lastCapWarning.map({ now - $0 >= 10_000_000_000 }) ?? true else { return (nil, nil) }
                c.lastCapWarning = now
                defer { c.refused = 0 }
                return (nil, c.refused)
            }
            c.open += 1
            c.accepted += 1
            return (c.accepted - 1, nil)
        }
        if let count = verdict.warn {
            MockServer.warnWithoutBlocking(
                "apnsctl mock: \(cap) connections are open, the most it serves at once; closed \(count) new connection\(count == 1 ? "" : "s") (clients must reconnect later\(configuration.connectionCapAdvice.map { "; " + $0 } ?? ""))",
                to: configuration.warningDescriptor)
        }
        guard let n = verdict.admitted else { return nil }
        return (n, configuration.faults.applies(toConnection: n))
    }

    /// A connection admitted by `admitConnection` has closed.
    func connectionClosed(count: Int = 1) {
        counters.withLock { $0.open -= count }
    }

    /// Connections admitted and not yet closed.
    var openConnections: Int { counters.withLock { $0.open } }

    /// Says once, on stderr, that connections are waiting because the process has no descriptor left.
    func noteAcceptFailure(_ why: String) {
        let first = counters.withLock { c -> Bool in
            defer { c.warnedAboutDescriptors = true }
            return !c.warnedAboutDescriptors
        }
        guard first else { return }
        MockServer.warnWithoutBlocking(
            "apnsctl mock: cannot accept more connections (\(why)); new clients wait until others disconnect (raise the limit with ulimit -n)",
            to: configuration.warningDescriptor)
    }

    /// Reads what the mock needs from a client certificate.
    func describe(_ certificate: X509Certificate, trusted: Bool) -> PresentedCertificate {
        MockCertificateReader.read(certificate, trusted: trusted)
    }
}

/// Per-iteration values an event loop hands to its connections.
final class LoopContext {
    /// Decrypted bytes land here before HTTP/2 sees them (one buffer per loop).
    var readBuffer = [UInt8](repeating: 0, count: 32 * 1024)
    var nowSeconds: Int64 = 0
    /// Fresh `apns-id`/`apns-unique-id` values.
    var ids = MockIDGenerator()
    let log: MockLog
    /// `MockConfiguration.onAnswer`, copied here so the hot path reads one optional.
    let onAnswer: (@Sendable (MockAnswer) -> Void)?

    init(log: MockLog, onAnswer: (@Sendable (MockAnswer) -> Void)?) {
        self.log = log
        self.onAnswer = onAnswer
    }
}
