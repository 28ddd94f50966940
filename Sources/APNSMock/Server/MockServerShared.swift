import APNSCore
import APNSCrypto

/// What every event loop of one server shares: configuration, TLS contexts, the listener, the stop pipe,
/// and the few counters that need a lock (accept numbers, per-loop load for balancing).
final class MockServerShared: Sendable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS advertised (APNs: 1000 as of 2021–2026).
    static let streamLimit: UInt32 = 1000

    let configuration: MockConfiguration
    let checker: RequestChecker
    let context: TLSContext
    /// The HTTP/1.1-only context, when that fault is configured.
    let http1Context: TLSContext?
    let listener: Socket
    let stop: WakePipe
    /// Writes the notification log off the event loops; nil without a log descriptor.
    let logWriter: MockLogWriter?
    private let counters: LockedValue<Counters>

    /// What the event loops change as they run.
    private struct Counters: Sendable {
        var accepted = 0
        /// Connections per loop.
        var loads: [Int]
        var warnedAboutDescriptors = false
    }

    init(configuration: MockConfiguration, listener: Socket, stop: WakePipe) throws(MockServerError) {
        self.configuration = configuration
        self.checker = RequestChecker(rules: configuration.rules)
        self.listener = listener
        self.stop = stop
        self.logWriter = configuration.logDescriptor.map { MockLogWriter(fd: $0) }
        let id = configuration.identity
        do {
            context = try TLSContext.server(certificate: id.certificate, key: id.key, chain: id.chain, clientCA: id.clientCA)
            http1Context = configuration.faults.http1Only
                ? try TLSContext.server(certificate: id.certificate, key: id.key, chain: id.chain, clientCA: id.clientCA,
                                        speakHTTP1Only: true)
                : nil
        } catch {
            throw .tls(error)
        }
        counters = LockedValue(Counters(loads: Array(repeating: 0, count: configuration.threads)))
    }

    /// The next accept number (0-based) and whether the faults apply to it.
    func nextConnectionNumber() -> (number: Int, faulty: Bool) {
        let n = counters.withLock { c -> Int in
            c.accepted += 1
            return c.accepted - 1
        }
        return (n, configuration.faults.applies(toConnection: n))
    }

    /// Whether loop `index` should accept now: only the least-loaded loops do, so connections spread out.
    func mayAccept(loop index: Int) -> Bool {
        counters.withLock { $0.loads[index] <= ($0.loads.min() ?? 0) }
    }

    /// Records loop `index`'s connection count.
    func setLoad(_ count: Int, loop index: Int) {
        counters.withLock { $0.loads[index] = count }
    }

    /// Says once, on stderr, that connections are waiting because the process has no descriptor left.
    func noteAcceptFailure(_ code: Int32) {
        let first = counters.withLock { c -> Bool in
            defer { c.warnedAboutDescriptors = true }
            return !c.warnedAboutDescriptors
        }
        guard first else { return }
        MockServer.warnWithoutBlocking("apnsctl mock: cannot accept more connections (\(FileSystem.errnoText(code))); new clients wait until others disconnect (raise the limit with ulimit -n)")
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

    init(log: MockLog) { self.log = log }
}
