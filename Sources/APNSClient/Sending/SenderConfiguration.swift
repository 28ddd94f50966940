import APNSCore
import APNSCrypto
import APNSPlatform

/// Which server certificates the sender trusts.
public enum ServerTrust: Sendable, Equatable {
    /// The system trust store, where the plan says it is (APNs' roots change; OS updates carry the next one).
    case systemStore(SystemTrust)
    /// This CA bundle only (the mock, a proxy under test).
    case caFile(String)
    /// No verification at all (the CLI warns).
    case insecure
}

/// How the sender connects and how patient it is: plain values, so callers never build TLS objects.
public struct SenderConfiguration: Sendable {
    /// Where to connect (Apple for `--env`, or `--endpoint`).
    public var endpoint: PushEndpoint
    /// The environment `endpoint` plays, stamped on every result with the endpoint; nil leaves them unset.
    public var environment: APNSEnvironment? = nil
    /// Which server certificates to trust.
    public var trust: ServerTrust
    /// The proxy to tunnel through (`ProxySelection` decides it); nil connects directly.
    public var proxy: ProxyServer?
    /// How host names are looked up: the system resolver, or what a command's world gives in its place.
    public var nameLookup: NameLookup = .system
    /// The client certificate and key for certificate auth; nil for token auth.
    public var identity: PushIdentity?
    /// Bounds each connect, each handshake and each wait for an answer, in seconds.
    public var timeout: Double
    /// `--concurrency`; nil means the server's limit. Always at most `maximumConcurrency`.
    public var concurrency: Int?
    /// New connections in a row without any answer (a failed reconnect counts) before giving up (CLI.md: 3).
    public var maxResendsWithoutProgress: Int
    /// Sends of one request whose stream was reset on a live connection before it counts as failed.
    public var maxAttemptsPerDevice: Int
    /// After SIGINT/SIGTERM, how long answers in flight are awaited (CLI.md: 2 s).
    public var interruptGrace: Double
    /// Also send again what may have been delivered (at least once instead of at most once).
    public var resendUnknown = false
    /// After giving up, read the rest of the list to fail each device (a file); false leaves it unread (a pipe,
    /// which may never end).
    public var readsListAfterGivingUp = true
    /// Waits before the tries that follow a connection without progress, in seconds (CLI.md: 0.25, 0.5, 1).
    public var backoff: [Double] = [0.25, 0.5, 1]
    /// With token auth, how the provider token is renewed in a run that outlasts it; nil keeps the requests' own.
    public var tokenRenewal: ProviderTokenRenewal? = nil
    /// Called on the sender's thread before it waits for the next device of a list that has none ready (a pipe
    /// whose writer is slow): the caller makes the results printed so far visible, as a reader of its output
    /// expects them as they come, not at the end of the list.
    public var whileWaitingForInput: (@Sendable () -> Void)? = nil

    /// The ceiling on streams in flight, whatever the server allows: no more than APNs was ever seen to allow.
    public static let maximumConcurrency = Int(APNSLimit.observedMaxConcurrentStreams)

    /// A configuration with CLI.md's defaults.
    public init(
        endpoint: PushEndpoint, trust: ServerTrust = .systemStore(.current()), identity: PushIdentity? = nil,
        timeout: Double = 30,
        concurrency: Int? = nil, maxResendsWithoutProgress: Int = 3, maxAttemptsPerDevice: Int = 4,
        interruptGrace: Double = 2, proxy: ProxyServer? = nil
    ) {
        self.endpoint = endpoint
        self.trust = trust
        self.identity = identity
        self.timeout = timeout
        self.concurrency = concurrency
        self.maxResendsWithoutProgress = maxResendsWithoutProgress
        self.maxAttemptsPerDevice = maxAttemptsPerDevice
        self.interruptGrace = interruptGrace
        self.proxy = proxy
    }

    /// The TLS context for these settings; a CA file that cannot be read fails here, before any connection.
    public func makeContext() throws(TransportFailure) -> TLSContext {
        var caFile: String?
        var system: SystemTrust?
        switch trust {
        case .caFile(let path): caFile = path
        case .systemStore(let store): system = store
        case .insecure: break
        }
        do {
            return try TLSContext.client(
                caFile: caFile, verify: trust != .insecure, systemTrust: system,
                certificate: identity?.certificate, key: identity?.privateKey, chain: identity?.chain ?? [])
        } catch {
            throw .tls(error)
        }
    }

    /// The state machine's limits.
    var policy: DeliveryStateMachine<PushJob, HTTPResponse>.Policy {
        .init(
            timeoutNs: UInt64(max(0.001, timeout) * 1e9), concurrency: concurrency,
            maximumConcurrency: Self.maximumConcurrency, reconnectsWithoutProgress: maxResendsWithoutProgress,
            attemptsPerItem: maxAttemptsPerDevice, interruptGraceNs: UInt64(max(0, interruptGrace) * 1e9),
            resendUnknown: resendUnknown, backoffNs: backoff.map { UInt64(max(0, $0) * 1e9) },
            readsSourceAfterGivingUp: readsListAfterGivingUp)
    }
}
