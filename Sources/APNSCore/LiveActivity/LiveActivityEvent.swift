/// The `event` of a Live Activity push (`--live-activity start|update|end`).
public enum LiveActivityEvent: String, CaseIterable, Sendable {
    /// Starts an activity by push (push-to-start token; iOS 17.2+).
    case start
    /// Updates a running activity (its activity update token, or a channel).
    case update
    /// Ends it; `dismissal-date` says when it leaves the Lock Screen.
    case end
}
