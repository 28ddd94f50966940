import APNSCore

/// The mock's answer to one request, plus what it learnt about the request for the log line.
/// Produced by `RequestChecker`; turned into HTTP/2 frames by the engine.
public struct MockDecision: Equatable, Sendable {
    /// nil: accepted (200).
    public var reason: APNSReason?
    /// The `apns-id` answered: the request's when it is a UUID, else a fresh uppercase one.
    public var apnsID: String
    /// For 410 answers: when the token became invalid (ms since the epoch).
    public var timestamp: Int64?
    /// The device token from the path (as sent), when there was one.
    public var device: String?
    /// The topic used (sent, or a single-topic certificate's default).
    public var topic: String?
    /// `apns-push-type` as sent (or the type inferred from the topic).
    public var pushType: String?
    /// `apns-priority` as sent, when it was a number.
    public var priority: Int?
    /// `apns-expiration` as sent, when it was (logged, so a test can see a client's expiry header).
    public var expiration: String? = nil
    /// A Live Activity push's `aps.event` (`start`, `update`, `end`), for the log line, when the body has one.
    public var liveActivityEvent: String? = nil
    /// How the connection authenticates.
    public var auth: MockAuthKind
    /// Body bytes received.
    public var payloadSize: Int
    /// True when this request's bearer token was the first accepted on its connection.
    public var firstTokenAccepted: Bool
    /// For broadcasts and channel management: the operation, its channel, request id and success answer.
    public var broadcast: BroadcastAnswer? = nil

    /// The HTTP status: 200 (201/204 for channel management), or the reason's documented status.
    public var status: Int { reason?.status ?? broadcast?.successStatus ?? 200 }

    /// `{"reason":"…"}` (with `"timestamp"` for 410s); empty for 200.
    public var body: [UInt8] {
        guard let reason else { return broadcast?.successBody ?? [] }
        var w = JSONWriter()
        w.beginObject()
        w.field("reason", reason.rawValue)
        if let timestamp { w.field("timestamp", Int(timestamp)) }
        w.endObject()
        return w.bytes
    }
}
