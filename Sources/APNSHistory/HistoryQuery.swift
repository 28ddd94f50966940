/// Which entries `history list` shows: those with a result for a device (its token or its name), with a
/// reason, or started since a time; the newest `limit` of them.
public struct HistoryQuery: Sendable, Equatable {
    /// A token (hex) or a device name.
    public var device: String?
    /// An APNs reason, any case.
    public var reason: String?
    /// UNIX seconds.
    public var since: Int64?
    public var limit: Int?

    public init(device: String? = nil, reason: String? = nil, since: Int64? = nil, limit: Int? = nil) {
        (self.device, self.reason, self.since, self.limit) = (device, reason, since, limit)
    }
}
