/// What validation advice calls the request settings a caller can change ("use apns-priority 5"). The
/// library speaks of the APNs headers and its own options; apnsctl passes its flags (`--priority`), so the
/// validator names no command-line flag itself.
public struct SettingNames: Sendable, Equatable {
    /// Sets the push type (`apns-push-type`).
    public var pushType: String
    /// Sets the priority (`apns-priority`).
    public var priority: String
    /// Sets the topic (`apns-topic`).
    public var topic: String
    /// Sets a byte limit other than the push type's default (`ValidationOptions.sizeLimit`).
    public var sizeLimit: String
    /// Sends the payload without insignificant whitespace; read as "send it with …".
    public var minify: String
    /// Sends to one device rather than a broadcast channel; read as "send the start with …".
    public var device: String
    /// Refreshes a Live Activity's `aps.timestamp` to the current time; read as "refresh it: …".
    public var freshTimestamp: String
    /// Sets a later `aps.stale-date`; read as "…; X, or remove it".
    public var laterStaleDate: String
    /// Sets a later `aps.dismissal-date`; read as "…; X".
    public var laterDismissalDate: String

    public init(
        pushType: String, priority: String, topic: String, sizeLimit: String, minify: String, device: String,
        freshTimestamp: String = "set aps.timestamp to the current UNIX time",
        laterStaleDate: String = "set a later stale-date",
        laterDismissalDate: String = "set a later dismissal-date, or the timestamp to remove it at once"
    ) {
        (self.pushType, self.priority, self.topic) = (pushType, priority, topic)
        (self.sizeLimit, self.minify, self.device, self.freshTimestamp) = (sizeLimit, minify, device, freshTimestamp)
        (self.laterStaleDate, self.laterDismissalDate) = (laterStaleDate, laterDismissalDate)
    }

    /// The APNs header names and the library's option names.
    public static let headers = SettingNames(
        pushType: "apns-push-type", priority: "apns-priority", topic: "apns-topic",
        sizeLimit: "ValidationOptions.sizeLimit", minify: "minified JSON",
        device: "the device path \(APNSPath.devicePrefix)TOKEN")
}
