import APNSCore

/// One answer the mock queued, for `MockConfiguration.onAnswer`.
public struct MockAnswer: Sendable, Equatable {
    /// 1-based accept number of the connection (the log's `connection`).
    public var connection: Int
    /// The HTTP/2 stream answered.
    public var streamID: Int32
    /// The device token from the path, as sent (nil when the path had none).
    public var device: String?
    /// 200, or the reason's status.
    public var status: Int
    /// nil for 200.
    public var reason: APNSReason?
    /// The `apns-id` answered.
    public var apnsID: String

    public init(connection: Int, streamID: Int32, device: String?, status: Int, reason: APNSReason?, apnsID: String) {
        self.connection = connection
        self.streamID = streamID
        self.device = device
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
    }
}
