import APNSCore

/// What happened to one device (or broadcast channel): APNs' answer, or the transport failure that
/// left it unanswered. A rejection is a result, not an error (as in apns2); every target gets exactly one.
public struct PushResult: Sendable, Equatable {
    /// How the CLI classifies a result (and so the exit code: 0, 1 or 69).
    public enum Outcome: Sendable, Equatable { case accepted, rejected, failed }

    /// The device or channel the request was for.
    public let target: PushTarget
    /// HTTP status; nil when there was no answer.
    public let status: Int?
    public let apnsID: String?
    public let apnsUniqueID: String?
    /// The JSON `reason` as received; nil on success or when the body had none.
    public let reason: String?
    /// The body as text when it held no JSON `reason` (a proxy's HTML page, plain text).
    public let bodyText: String?
    /// A 410's `timestamp`: milliseconds since the epoch.
    public let timestamp: Int64?
    /// Why there was no answer (transport failure); nil when the server answered.
    public let error: String?
    /// From submitting the request to its answer (or failure).
    public let durationMs: Double
    /// The environment whose server answered (or failed), when the sender was told it.
    public var environment: APNSEnvironment? = nil
    /// The server that answered (or failed).
    public var endpoint: PushEndpoint? = nil
    /// `--env auto`: the environment that answered `BadDeviceToken` before this one was tried.
    public var badDeviceTokenIn: APNSEnvironment? = nil

    /// A result built field by field (tests, and the sender's failure path).
    public init(target: PushTarget, status: Int?, apnsID: String? = nil, apnsUniqueID: String? = nil,
                reason: String? = nil, bodyText: String? = nil, timestamp: Int64? = nil, error: String? = nil,
                durationMs: Double) {
        self.target = target
        self.status = status
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.reason = reason
        self.bodyText = bodyText
        self.timestamp = timestamp
        self.error = error
        self.durationMs = durationMs
    }

    /// Interprets an HTTP/2 answer as APNs documents it (§5): `apns-id`, `apns-unique-id`, and for
    /// errors a JSON body with `reason` (and `timestamp` on 410). Non-JSON bodies are kept as text.
    public init(target: PushTarget, response: APNSResponse, durationMs: Double) {
        var reason: String? = nil
        var bodyText: String? = nil
        var timestamp: Int64? = nil
        if response.status != 200 && !response.body.isEmpty {
            reason = APNSErrorBody.reason(in: response.body)
            if reason == nil {
                let text = APNSErrorBody.printable(response.body)
                bodyText = text.isEmpty ? nil : text
            }
            timestamp = APNSErrorBody.timestamp(in: response.body)
        }
        self.init(target: target, status: response.status,
                  apnsID: response.headers.value(of: "apns-id").map { APNSErrorBody.printable(Array($0.utf8), limit: 64) },
                  apnsUniqueID: response.headers.value(of: "apns-unique-id").map { APNSErrorBody.printable(Array($0.utf8), limit: 64) },
                  reason: reason, bodyText: bodyText, timestamp: timestamp, error: nil, durationMs: durationMs)
    }

    /// A target that got no answer.
    public init(target: PushTarget, failure: String, durationMs: Double) {
        self.init(target: target, status: nil, error: failure, durationMs: durationMs)
    }

    /// The device, for device pushes (nil for a broadcast's channel).
    public var device: DeviceToken? { target.device }

    /// Accepted (200), rejected (any other status) or failed (no answer).
    public var outcome: Outcome {
        guard let status else { return .failed }
        return status == 200 ? .accepted : .rejected
    }

    /// The documented reason, when the server sent one APNs defines.
    public var knownReason: APNSReason? { reason.flatMap { APNSReason(rawValue: $0) } }
}
