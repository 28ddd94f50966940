import APNSHistory
import APNSSettings
import ArgumentParser

/// `send`'s history flags: replay an entry, or leave this run out of the history, and how much it keeps.
struct SendHistoryOptions: ParsableArguments {
    @Option(
        name: .customLong("replay"),
        help: ArgumentHelp(
            "Send again what history entry ID (or last) sent: its payload byte for byte (a Live Activity's timestamp set to now), headers (a given --apns-id or --request-id too), topic, environment, endpoint and devices (by name while the settings name the same token), channels or simulator. Credentials are resolved as usual; every flag given replaces the entry's (a quick payload flag, its payload).",
            valueName: "id|last"))
    var replay: String?

    @Flag(
        name: .setting(.noHistory),
        help: "Do not record this send in the history (also APNSCTL_NO_HISTORY=1, or history = false in a profile).")
    var noHistory = false

    @Option(
        name: .setting(.historyDays),
        help: ArgumentHelp("The history keeps entries this many days (default 30).", valueName: "n"),
        transform: SettingArgument.transform(.historyDays, .send))
    var historyDays: SettingValue?

    @Option(
        name: .setting(.historyEntries),
        help: ArgumentHelp("The history keeps this many entries at most (default 1000).", valueName: "n"),
        transform: SettingArgument.transform(.historyEntries, .send))
    var historyEntries: SettingValue?

    /// What a replay took from its entry (not flags: set by the replay, never parsed). One property of one type, so
    /// the argument parser's walk of this group meets one type that is no option, not four.
    var replayed = ReplayedEntry()

    /// `entry` saying whether its push type was given as the replayed entry said, when it was taken from there
    /// (as a `--push-type` value, it would otherwise read as given).
    func withPushTypeOrigin(_ entry: HistoryEntry) -> HistoryEntry {
        guard replayed.pushType.taken else { return entry }
        var entry = entry
        entry.pushTypeGiven = replayed.pushType.given
        return entry
    }

    /// The flags only: `replayed` is never parsed.
    private enum CodingKeys: String, CodingKey {
        case replay, noHistory, historyDays, historyEntries
    }
}

/// What `--replay` took from the history entry it sends again.
struct ReplayedEntry {
    /// The entry's payload bytes, sent byte for byte.
    var payload: [UInt8]? = nil
    /// Which credential the entry was sent with (`certificate CN=…, SHA-256 …`), for the advice when none
    /// resolves now: the history keeps no credential.
    var credential: String? = nil
    /// The request values taken from the entry, as their flags would give them (`--push-type background`), for
    /// a refusal to say where a value the user never typed came from.
    var values: [String] = []
    /// The server values taken from the entry (`--env`, `--endpoint`, `--ca-file`), for a replay that cannot reach
    /// that server or read that file to say they were the entry's.
    var connection: [String] = []
    /// Set when the push type was taken from the entry: whether that entry's was given (nil: not known), for the
    /// replay's own entry to keep, so a replay of the replay reads it as the first send's.
    var pushType: (taken: Bool, given: Bool?) = (false, nil)
}
