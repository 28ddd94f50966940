import APNSCore
import APNSPlatform

/// A broadcast to Live Activity channels (APNS.md §11) with every header settled: the same payload to
/// each channel, one `POST /4/broadcasts/apps/<bundle id>` per channel, the channel in `apns-channel-id`,
/// no `apns-topic`.
public struct BroadcastRequest: Sendable {
    /// The app's bundle id, without any push-type suffix.
    public var bundleID: String
    public var priority: Priority
    /// `apns-expiration`: 0 (the default; the only value a No Message Stored channel takes) or UNIX seconds.
    public var expiration: Int64
    /// The provider token (JWT) for token auth; nil with certificate auth.
    public var bearerToken: String?
    /// The body, byte for byte.
    public var payload: [UInt8]

    /// A broadcast with every header settled.
    public init(
        bundleID: String, priority: Priority = .immediate, expiration: Int64 = 0, bearerToken: String? = nil,
        payload: [UInt8]
    ) {
        self.bundleID = bundleID
        self.priority = priority
        self.expiration = expiration
        self.bearerToken = bearerToken
        self.payload = payload
    }

    /// The request to `channel`, named `requestID` (a lowercase UUID).
    public func request(channel: String, requestID: String) -> APNSRequest {
        var h: [HeaderField] = []
        if let bearerToken { h.append(.bearer(bearerToken)) }
        h.append(HeaderField(APNSHeader.channelID.name, channel, neverIndex: true))
        h.append(HeaderField(APNSHeader.pushType.name, Broadcast.pushType.rawValue))
        h.append(HeaderField(APNSHeader.expiration.name, String(expiration)))
        h.append(HeaderField(APNSHeader.priority.name, String(priority.rawValue)))
        h.append(HeaderField(APNSHeader.requestID.name, requestID, neverIndex: true))
        h.append(HeaderField(APNSHeader.contentType.name, "application/json"))
        h.append(HeaderField("content-length", String(payload.count)))
        return APNSRequest(method: "POST", path: APNSPath.broadcast(bundleID: bundleID), headers: h, body: payload)
    }

    /// One job per channel, in order; each request gets `requestID` when given, else a fresh lowercase UUID.
    public func jobs(channels: [String], requestID: String? = nil) -> [PushJob] {
        channels.map {
            PushJob(target: .channel($0), request: request(channel: $0, requestID: requestID ?? APNSRequestID.fresh()))
        }
    }
}

/// `apns-request-id` values: canonical lowercase UUIDs, as APNS.md §11 asks.
public enum APNSRequestID {
    /// A fresh random version-4 UUID in lower case.
    public static func fresh() -> String {
        var rng = SystemRandomNumberGenerator()
        return UUIDString.version4(high: rng.next(), low: rng.next(), uppercase: false)
    }
}

extension PushJob {
    /// The `apns-request-id` this job's request carries (broadcast and channel requests), nil for device pushes.
    var sentRequestID: String? {
        guard case .channel = target else { return nil }
        return request.headers.value(of: APNSHeader.requestID.name)
    }
}
