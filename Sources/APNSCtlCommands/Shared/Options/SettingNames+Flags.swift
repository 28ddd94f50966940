import APNSCore

extension SettingNames {
    /// apnsctl's flags, so validation advice reads "use --priority 5" in `validate` and `send`.
    static let apnsctl = SettingNames(
        pushType: "--push-type", priority: "--priority", topic: "--topic",
        sizeLimit: "--size-limit", minify: "--minify", device: "--device",
        freshTimestamp: "send it with --timestamp now", laterStaleDate: "send it with a later --stale-date (1h, say)",
        laterDismissalDate:
            "send it with a later --dismissal-date (1h, say), or --dismissal-date now to remove it at once")
}
