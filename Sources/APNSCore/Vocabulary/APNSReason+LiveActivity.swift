/// Token reasons read differently for Live Activity pushes: three kinds of token exist (push-to-start, activity
/// update, device), an activity token ends with its activity, and iOS replaces a push-to-start token once used.
extension APNSReason {
    /// `meaning`, told for `pushType` where the token kind changes it (CLI.md: results name what the token is).
    public func meaning(for pushType: PushType?) -> String {
        guard pushType == .liveactivity else { return meaning }
        switch self {
        case .unregistered:
            return
                "The token is no longer active for this topic: an activity update token stops working when its activity ends, and a push-to-start token once iOS has used it."
        case .badDeviceToken:
            return "The token is not valid for this topic and environment, or it is not a Live Activity token."
        case .deviceTokenNotForTopic:
            return "The token belongs to another app or topic; a device token is not a Live Activity token."
        default:
            return meaning
        }
    }
}
