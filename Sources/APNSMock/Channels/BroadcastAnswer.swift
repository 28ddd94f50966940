import APNSCore
import APNSHTTP2

/// What the mock decided about a broadcast or channel management request beyond the reason: which
/// operation, which channel, the `apns-request-id` answered, and the success answer (201 with the new id,
/// 200 with JSON, 204).
public struct BroadcastAnswer: Equatable, Sendable {
    /// The operation, as the log names it.
    public enum Operation: String, Sendable {
        case broadcast, create, read, delete, list
    }

    public var operation: Operation
    /// The channel sent in `apns-channel-id`, or the one created.
    public var channel: String?
    /// The request's `apns-request-id` when it is a UUID, else a fresh lowercase one (APNs always returns one).
    public var requestID: String
    /// 200, 201 (create) or 204 (delete).
    public var successStatus: Int = 200
    /// The JSON body of a read or list; empty otherwise.
    public var successBody: [UInt8] = []
    /// The `apns-channel-id` header of a 201.
    public var createdChannel: String? = nil
}

extension BroadcastAnswer {
    /// `apns-request-id` on every answer, and `apns-channel-id` on a 201.
    var responseHeaders: [HeaderField] {
        var h = [HeaderField(APNSHeader.requestID.name, requestID, neverIndex: true)]
        if let createdChannel { h.append(HeaderField(APNSHeader.channelID.name, createdChannel, neverIndex: true)) }
        return h
    }
}
