/// The header names of the APNs HTTP/2 API (APNS.md §2, §5, §11), defined once so the sender, the mock and
/// the dry-run printer cannot spell one differently. HTTP/2 header names are lowercase on the wire.
public enum APNSHeader: String, CaseIterable, Sendable {
    /// Request: the notification's UUID (optional); response: the same, or the one APNs made.
    case id = "apns-id"
    /// Response, sandbox only: the Push Notifications Console's delivery-log id.
    case uniqueID = "apns-unique-id"
    /// The bundle id, with the push type's suffix.
    case topic = "apns-topic"
    /// One of `PushType`'s raw values.
    case pushType = "apns-push-type"
    /// `10`, `5` or `1` (`Priority`).
    case priority = "apns-priority"
    /// UNIX seconds after which APNs stops trying; `0` = once.
    case expiration = "apns-expiration"
    /// Groups notifications; at most `APNSLimit.collapseIDBytes` bytes.
    case collapseID = "apns-collapse-id"
    /// Broadcast: the channel (base64).
    case channelID = "apns-channel-id"
    /// Broadcast and channel management: the request's UUID, echoed back.
    case requestID = "apns-request-id"
    /// `bearer <provider token>` on token connections.
    case authorization = "authorization"
    /// `application/json` on error answers.
    case contentType = "content-type"

    /// Every APNs-specific header starts with this; one sent twice is 400 `DuplicateHeaders`.
    public static let apnsPrefix = "apns-"

    /// The name as sent on the wire.
    public var name: String { rawValue }
}
