/// One recorded `send`: what was sent, how and where (never a key, passphrase or token), and every target's
/// result. Plain values, so the store knows nothing of the client and the commands render it as `send` did.
public struct HistoryEntry: Sendable, Equatable {
    /// Whether `durationMs` is one a send could have taken (0 to about 30 years): anything else read back is damage.
    public static func isPlausible(durationMs: Double) -> Bool { durationMs >= 0 && durationMs < 1e12 }

    /// Whether `started` (UNIX seconds) is a time a send could record: from 1970 to the end of year 9999.
    public static func isPlausible(started: Int64) -> Bool { (0...253_402_300_799).contains(started) }

    /// What a send went to.
    public enum Kind: String, Sendable {
        case devices
        /// `send --channel`: broadcast channels.
        case broadcast
        /// `send --simulator`: one simulator, through `xcrun simctl push` (no server, no credential).
        case simulator
    }

    /// The entry's number (assigned when recorded; never reused).
    public var id: Int64 = 0
    /// When the send started, UNIX seconds.
    public var started: Int64
    public var durationMs: Double
    public var kind: Kind
    /// The environment as chosen: `sandbox`, `production` or `auto`.
    public var environment: String
    /// The servers, as `--endpoint` takes them: one URL, or `sandbox=URL` and `production=URL` for `auto`.
    public var endpoints: [String]
    /// `--ca-file` when one was used (a path, not a secret).
    public var caFile: String?
    public var topic: String?
    public var pushType: String?
    /// Whether the push type was given (`--push-type`, its variable or a profile) rather than taken from the
    /// payload and topic; nil for an entry written before this was kept.
    public var pushTypeGiven: Bool?
    public var priority: Int?
    /// `--expiration` as given (`1h`, `0`, a UNIX time), so a replay counts from its own now.
    public var expiration: String?
    public var collapseID: String?
    /// `--apns-id` as given (nil when APNs assigned one).
    public var apnsID: String?
    /// A broadcast's `--request-id` as given (nil when each request got a fresh one).
    public var requestID: String?
    /// The credential's kind and identity: a certificate's subject and SHA-256, or a key id and team id.
    public var credential: String
    /// The payload bytes as sent.
    public var payload: [UInt8]
    /// The entry this send replayed, if it was `send --replay`.
    public var replayOf: Int64?
    /// Whether SIGINT or SIGTERM stopped the send (the results are what was answered before), or its output
    /// could not be written (`outputLost`), which stops it the same way.
    public var interrupted: Bool
    /// The stop was for lost output (a closed pipe, a full disk), not a signal. Kept in the same column as
    /// `interrupted` (2 instead of 1), so older histories read as they were.
    public var outputLost = false
    /// How many targets got each outcome, and the summary's words for them.
    public var counts: HistoryCounts
    /// Every target's result, in the order they arrived; empty in a listing.
    public var results: [HistoryResult]

    public init(
        started: Int64, durationMs: Double, kind: Kind, environment: String, endpoints: [String],
        credential: String, payload: [UInt8], results: [HistoryResult]
    ) {
        self.started = started
        self.durationMs = durationMs
        self.kind = kind
        self.environment = environment
        self.endpoints = endpoints
        self.credential = credential
        self.payload = payload
        self.results = results
        interrupted = false
        counts = HistoryCounts()
    }
}

/// An entry's outcome at a glance: counts, and `2 accepted, 1 rejected (Unregistered 1)` as the summary said it.
public struct HistoryCounts: Sendable, Equatable {
    public var targets = 0
    public var accepted = 0
    public var rejected = 0
    public var failed = 0
    /// Targets never sent: those a failed run gave up on (they have a result, in `targets`) and those an interrupt
    /// left (they have none: `withoutResult`).
    public var neverSent = 0
    /// Targets an interrupt left never sent: they have no result, so only this says how many there were.
    public var withoutResult = 0
    /// Lines of the device list skipped as invalid: the send's summary line ends with them, and so does `show`'s.
    public var skippedLines = 0
    public var outcome = ""

    public init() {}
}

/// One target's outcome as the send printed it: the answer's status, ids, reason and body, or why there was none.
public struct HistoryResult: Sendable, Equatable {
    /// The device token (hex) or the broadcast channel id.
    public var target: String
    public var deviceName: String?
    /// HTTP status; nil when there was no answer.
    public var status: Int?
    /// The APNs reason (also kept inside `body`; here for searching).
    public var reason: String?
    public var apnsID: String?
    public var apnsUniqueID: String?
    public var apnsRequestID: String?
    /// A 410's timestamp, milliseconds since the epoch.
    public var timestamp: Int64?
    public var durationMs: Double
    /// The environment and server that answered, when the send named them per result (`--env auto`).
    public var environment: String?
    public var endpoint: String?
    /// `--env auto`: the environment that had answered `BadDeviceToken` first.
    public var badDeviceTokenIn: String?
    /// The answer's body as received (rejections only; at most `bodyLimit` bytes).
    public var body: [UInt8]
    /// Why there was no answer, as printed.
    public var error: String?
    /// The request was completely sent, then the connection ended: APNs may have delivered it.
    public var unknownOutcome: Bool
    /// Times its request was sent: 0 when it never left (the run stopped or gave up first), more than 1 after
    /// a refused stream or `--resend-unknown`; what `send` said of it (`never sent:`, `(sent 3 times)`).
    public var attempts: Int

    /// Bodies longer than this are cut: APNs' own are a few dozen bytes, and only the first 200 are printed.
    public static let bodyLimit = 1024

    /// Every field at once: a batch builds one a device, and setting fields one by one after a shorter init
    /// cost a copy of the whole result each time.
    public init(
        target: String, durationMs: Double, deviceName: String? = nil, status: Int? = nil, reason: String? = nil,
        apnsID: String? = nil, apnsUniqueID: String? = nil, apnsRequestID: String? = nil, timestamp: Int64? = nil,
        environment: String? = nil, endpoint: String? = nil, badDeviceTokenIn: String? = nil, body: [UInt8] = [],
        error: String? = nil, unknownOutcome: Bool = false, attempts: Int = 1
    ) {
        self.target = target
        self.durationMs = durationMs
        self.deviceName = deviceName
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.apnsRequestID = apnsRequestID
        self.timestamp = timestamp
        self.environment = environment
        self.endpoint = endpoint
        self.badDeviceTokenIn = badDeviceTokenIn
        self.body = body
        self.error = error
        self.unknownOutcome = unknownOutcome
        self.attempts = attempts
    }
}
