/// The numeric limits APNs enforces on a request and a connection (APNS.md §1, §2, §6), besides the payload
/// sizes, which depend on the push type (`SizeLimit`, `PushType.defaultSizeLimit`).
public enum APNSLimit {
    /// `apns-collapse-id` bytes (UTF-8 bytes, not characters); over it is 400 `BadCollapseId`.
    public static let collapseIDBytes = 64
    /// A provider token older than this (seconds) is 403 `ExpiredProviderToken`.
    public static let providerTokenMaximumAge: Int64 = 60 * 60
    /// A new provider token on a connection sooner than this (seconds) after the previous one is 429
    /// `TooManyProviderTokenUpdates`.
    public static let providerTokenMinimumInterval: Int64 = 20 * 60
    /// `SETTINGS_MAX_CONCURRENT_STREAMS` APNs was seen to advertise (2021–2026): what the mock advertises, and the
    /// most streams apnsctl ever keeps in flight; a client still obeys the limit the server sends.
    public static let observedMaxConcurrentStreams: UInt32 = 1000
    /// Broadcast payload bytes (Apple: "5 KB").
    public static let broadcastPayloadBytes = 5120
}
