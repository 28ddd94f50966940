import APNSCore

/// One channel management request (APNS.md §11), sent to Apple's channel management host: create, read,
/// delete or list the broadcast channels of one app. The channel id travels in `apns-channel-id`, never
/// in the path.
public struct ChannelRequest: Sendable, Equatable {
    /// What to do.
    public enum Operation: Sendable, Equatable {
        /// `POST …/channels` with `{"message-storage-policy":n,"push-type":"LiveActivity"}`; 201 + `apns-channel-id`.
        case create(ChannelStorage)
        /// `GET …/channels`; 200 with the channel's policy and push type.
        case read(channel: String)
        /// `DELETE …/channels`; 204.
        case delete(channel: String)
        /// `GET …/all-channels`; 200 with `{"channels":[…]}`.
        case list
    }

    public var operation: Operation
    /// The app's bundle id, without any push-type suffix.
    public var bundleID: String
    /// `apns-request-id`: a canonical lowercase UUID.
    public var requestID: String
    /// The provider token (JWT) for token auth; nil with certificate auth.
    public var bearerToken: String?

    /// A request; `requestID` defaults to a fresh lowercase UUID.
    public init(
        _ operation: Operation, bundleID: String, requestID: String = APNSRequestID.fresh(), bearerToken: String? = nil
    ) {
        self.operation = operation
        self.bundleID = bundleID
        self.requestID = requestID
        self.bearerToken = bearerToken
    }

    /// The channel the operation names, if any.
    public var channel: String? {
        switch operation {
        case .read(let c), .delete(let c): return c
        case .create, .list: return nil
        }
    }

    /// The HTTP/2 request.
    public var request: APNSRequest {
        var h: [HeaderField] = []
        if let bearerToken { h.append(.bearer(bearerToken)) }
        h.append(HeaderField(APNSHeader.requestID.name, requestID, neverIndex: true))
        if let channel { h.append(HeaderField(APNSHeader.channelID.name, channel, neverIndex: true)) }
        switch operation {
        case .create(let storage):
            var w = JSONWriter()
            w.beginObject()
            w.field(Broadcast.storagePolicyField, storage.rawValue)
            w.field(Broadcast.pushTypeField, Broadcast.channelPushType)
            w.endObject()
            let body = w.bytes
            h.append(HeaderField(APNSHeader.contentType.name, "application/json"))
            h.append(HeaderField("content-length", String(body.count)))
            return APNSRequest(method: "POST", path: Broadcast.channelsPath(bundleID: bundleID), headers: h, body: body)
        case .read:
            return APNSRequest(method: "GET", path: Broadcast.channelsPath(bundleID: bundleID), headers: h, body: [])
        case .delete:
            return APNSRequest(method: "DELETE", path: Broadcast.channelsPath(bundleID: bundleID), headers: h, body: [])
        case .list:
            return APNSRequest(method: "GET", path: Broadcast.allChannelsPath(bundleID: bundleID), headers: h, body: [])
        }
    }

    /// The request as a job for the sender (its result is about `channel`, or "" for create and list).
    public var job: PushJob { PushJob(target: .channel(channel ?? ""), request: request) }
}
