/// The request paths of the APNs HTTP/2 API (APNS.md §1, §11), defined once for the sender and the mock.
public enum APNSPath {
    /// Device push: `POST /3/device/<hex token>`.
    public static let devicePrefix = "/3/device/"
    /// Broadcast push: `POST /4/broadcasts/apps/<bundle id>`.
    public static let broadcastPrefix = "/4/broadcasts/apps/"
    /// Channel management: `/1/apps/<bundle id>/channels` and `/1/apps/<bundle id>/all-channels`.
    public static let channelsPrefix = "/1/apps/"

    /// `/3/device/<hex>` for a token already in APNs' lowercase hex.
    public static func device(_ hex: String) -> String { devicePrefix + hex }

    /// The token part of a device path: `"abcd"` for `/3/device/abcd`, `""` for `/3/device/` or `/3/device`
    /// (400 `MissingDeviceToken`), nil for any other path (404 `BadPath`).
    public static func deviceToken(inPath path: String) -> Substring? {
        if path.hasPrefix(devicePrefix) { return path.dropFirst(devicePrefix.utf8.count) }
        return path == String(devicePrefix.dropLast()) ? "" : nil
    }

    /// `/4/broadcasts/apps/<bundle id>`.
    public static func broadcast(bundleID: String) -> String { broadcastPrefix + bundleID }
}
