import APNSCore

/// A Live Activity payload file sent with the bare bundle id as its topic: besides the suffixed topic, the advice
/// names `--live-activity`, which adds the suffix itself and refreshes the timestamp a saved file carries.
extension APNSCtl.Send {
    /// What to add to the validator's message for problem `p` about a header flag; empty for every other problem.
    func topicAdvice(_ p: ValidationProblem, pushType: PushType, _ parsed: ParsedPayload) -> String {
        guard pushType == .liveactivity, p.severity == .error, liveActivity.event == nil,
            p.flag?.hasPrefix(SettingNames.apnsctl.topic + " ") == true
        else { return "" }
        let event = parsed.liveActivityEvent.flatMap { LiveActivityEvent(rawValue: $0) }?.rawValue ?? "update"
        return
            ", or send it with --live-activity \(event), which adds the suffix (and sets the timestamp to now)"
    }
}
