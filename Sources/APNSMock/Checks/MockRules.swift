import APNSCore
import APNSHTTP2
import APNSPlatform

/// A bearer token's verdict as the mock needs it: who signed it and when, or the APNs reason to answer.
public enum ProviderTokenCheck: Equatable, Sendable {
    case valid(keyID: String, teamID: String, issuedAt: Int64)
    case rejected(APNSReason)
}

/// Verifies provider tokens (signature, key id, team id, age). Injected so the request checks stay pure
/// and testable without keys; the engine uses the state dir's `.p8` public key.
public protocol ProviderTokenChecking: Sendable {
    /// Judges `token` (the JWT after `bearer `) at `now` (epoch seconds).
    func check(_ token: String, now: Int64) -> ProviderTokenCheck
}

/// What the client certificate of a connection says, read once after the handshake.
public struct PresentedCertificate: Equatable, Sendable {
    /// Whether it chains to the mock's CA (else 403 `BadCertificate`).
    public var trusted: Bool
    /// Topics it may push to (Apple's topic extension, else its bundle id).
    public var topics: [String]
    /// Environments its Apple extensions grant (else 403 `BadCertificateEnvironment`).
    public var environments: Set<APNSEnvironment>

    public init(trusted: Bool, topics: [String], environments: Set<APNSEnvironment>) {
        self.trusted = trusted
        self.topics = topics
        self.environments = environments
    }
}

/// The mock's fixed behaviour: the environment it plays and the per-token answers users asked for.
public struct MockRules: Sendable {
    /// The environment the mock plays: certificates must carry its OID; `apns-unique-id` only in sandbox.
    public var environment: APNSEnvironment
    /// Lowercase hex tokens answered with 410 `Unregistered`.
    public var unregistered: Set<String>
    /// Lowercase hex token → the reason to answer with (its documented status).
    public var rejections: [String: APNSReason]
    /// The 410 `timestamp` (ms since the epoch): when the mock "found" the tokens invalid.
    public var unregisteredSince: Int64
    /// Bearer token verification; nil means no key is known, so every token is `InvalidProviderToken`.
    public var tokenChecker: (any ProviderTokenChecking)?
    /// `--key-environment`: the one environment the signing keys are limited to (Apple's team-scoped keys since
    /// 2025); nil: keys for both. Tokens that verify on a mock playing the other environment get 403
    /// `BadEnvironmentKeyIdInToken`.
    public var keyEnvironment: APNSEnvironment? = nil
    /// Test-only fault (`--fault-accept-probe`): answer the all-zero device token 200 instead of
    /// `BadDeviceToken`, a server that accepts what APNs never would (`apnsctl doctor` must fail on it).
    public var acceptsZeroToken = false
    /// Called with every device-push request the checks judged and their decision (tests read what a client
    /// sent: body and headers); nil (the default) costs nothing.
    public var onRequest: (@Sendable (HTTP2ServerRequest, MockDecision) -> Void)? = nil

    public init(
        environment: APNSEnvironment = .sandbox, unregistered: Set<String> = [], rejections: [String: APNSReason] = [:],
        unregisteredSince: Int64 = SystemClock.nowMilliseconds(), tokenChecker: (any ProviderTokenChecking)? = nil
    ) {
        self.environment = environment
        self.unregistered = Set(unregistered.map { $0.lowercased() })
        self.rejections = Dictionary(
            rejections.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.unregisteredSince = unregisteredSince
        self.tokenChecker = tokenChecker
    }
}
