/// Reasons whose advice differs for broadcasts and channel requests: the same wire string, but the
/// flag to change is another one (a nonzero `apns-expiration` is refused on a No Message Stored channel).
extension APNSReason {
    /// The hint for a broadcast or channel request where it differs from the device-push one, else `hint`.
    public func hint(broadcast: Bool) -> String {
        guard broadcast else { return hint }
        switch self {
        case .badExpirationDate:
            return "A No Message Stored channel (--storage none) takes only --expiration 0 (the default); send without --expiration, or use a most-recent channel."
        case .invalidPushType: return "Broadcasts take only --push-type liveactivity (the default with --channel)."
        case .badPath: return "Check --endpoint: it should be https://host:port with no path."
        case .topicDisallowed:
            return "The bundle id (from --topic or the certificate) must be the app's, without a push-type suffix."
        case .payloadTooLarge: return "Shrink the payload to 5120 bytes or less; try --minify."
        case .payloadEmpty: return "Give a Live Activity update or end payload."
        case .badPriority: return "Use --priority 10, 5 or 1."
        default: return hint
        }
    }
}
