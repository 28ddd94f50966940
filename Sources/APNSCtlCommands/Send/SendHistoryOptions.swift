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

    /// The payload bytes of the entry `--replay` sends again, byte for byte (not a flag: set by the replay).
    var replayedPayload: [UInt8]? = nil
    /// Which credential the replayed entry was sent with (`certificate CN=…, SHA-256 …`), for the advice when
    /// none resolves now: the history keeps no credential (not a flag: set by the replay).
    var replayedCredential: String? = nil
    /// The request values the replay took from the entry, as their flags would give them (`--push-type
    /// background`), for a refusal to say where a value the user never typed came from (not a flag).
    var replayedValues: [String] = []
    /// Set by a replay that took the push type from its entry: whether that entry's was given (nil: not known), for
    /// the replay's own entry to keep, so a replay of the replay reads it as the first send's (not a flag).
    var replayedPushType: (taken: Bool, given: Bool?) = (false, nil)

    /// `entry` saying whether its push type was given as the replayed entry said, when it was taken from there
    /// (as a `--push-type` value, it would otherwise read as given).
    func withPushTypeOrigin(_ entry: HistoryEntry) -> HistoryEntry {
        guard replayedPushType.taken else { return entry }
        var entry = entry
        entry.pushTypeGiven = replayedPushType.given
        return entry
    }

    /// The flags only: `replayedPayload`, `replayedCredential`, `replayedValues` and `replayedPushType` are never
    /// parsed.
    private enum CodingKeys: String, CodingKey {
        case replay, noHistory, historyDays, historyEntries
    }
}
