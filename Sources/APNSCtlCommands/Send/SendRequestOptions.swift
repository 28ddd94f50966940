import APNSCore
import APNSPlatform
import APNSSettings
import ArgumentParser

/// `send`'s header and payload flags: what goes into each request besides the device.
/// The setting flags among them are checked as they are parsed, by the settings' own parser (a bad value is
/// one CLI.md-style usage error naming the flag, exit 64); the per-run values stay strings, checked when planned.
struct SendRequestOptions: ParsableArguments {
    @Option(
        name: [.customShort("t"), .setting(.topic)],
        help: ArgumentHelp(
            "apns-topic. Default: the .apns file's Simulator Target Bundle, else the certificate's bundle id (with the push type's suffix when the certificate lists that topic). Required with --auth-key.",
            valueName: "topic"))
    var topic: String?

    @Option(
        name: .setting(.app),
        help: ArgumentHelp(
            "The app build the tokens come from (.ipa, .app, .xcarchive or .mobileprovision): its bundle id is the default topic, its aps-environment the default --env; a credential for another team or bundle, or an --env the build's tokens do not belong to, is refused before connecting.",
            valueName: "path"), completion: .file())
    var app: String?

    @Option(
        name: .setting(.pushType),
        help: ArgumentHelp(
            "apns-push-type: \(PushType.allNames). Default: from the topic suffix, else background when aps holds only content-available: 1, else alert.",
            valueName: "type"), completion: .list(PushType.allCases.map(\.rawValue)),
        transform: SettingArgument.transform(.pushType, .send))
    var pushType: SettingValue?

    @Option(
        name: .setting(.priority),
        help: ArgumentHelp(
            "apns-priority: 10 (now), 5 (power-aware) or 1. Default 10, but 5 for background (which forbids 10).",
            valueName: "10|5|1"), completion: .list(["10", "5", "1"]),
        transform: SettingArgument.transform(.priority, .send))
    var priority: SettingValue?

    @Option(
        name: .setting(.expiration),
        help: ArgumentHelp(
            "apns-expiration: 0 (deliver once, never store), a UNIX time in seconds, an ISO 8601 date-time such as 2026-11-28T18:30:00Z, or a duration from now such as 45s, 30m, 1h, 2d. Default: none (APNs stores the push), but 0 for pushtotalk, as Apple asks.",
            valueName: "when"),
        transform: SettingArgument.transform(.expiration, .send))
    var expiration: SettingValue?

    @Option(
        name: .customLong("collapse-id"),
        help: ArgumentHelp(
            "apns-collapse-id: notifications with the same id replace each other; at most 64 bytes.", valueName: "id"))
    var collapseID: String?

    @Option(
        name: .customLong("apns-id"),
        help: ArgumentHelp(
            "apns-id: a canonical 8-4-4-4-12 UUID. Default: APNs assigns one and returns it.", valueName: "uuid"))
    var apnsID: String?

    @Option(
        name: .setting(.sizeLimit),
        help: ArgumentHelp(
            "Payload byte limit: a number, or 256, 2k, 4k, 5k. Default 4096, 5120 for voip.", valueName: "n"),
        completion: .list(["256", "2k", "4k", "5k"]),
        transform: SettingArgument.transform(.sizeLimit, .send))
    var sizeLimit: SettingValue?

    @Flag(
        name: .setting(.minify),
        help: "Send the payload with insignificant whitespace removed (otherwise bytes go exactly as read).")
    var minify = false

    @Option(
        name: .customLong("alert"),
        help: ArgumentHelp(
            "Quick payload: aps.alert text, the alert's body (without PAYLOAD, or with a Live Activity one).",
            valueName: "text"))
    var alert: String?

    @Option(
        name: .customLong("title"),
        help: ArgumentHelp(
            "Quick payload: the alert's title; aps.alert becomes {\"title\":…,\"body\":…} (alerts and Live Activities).",
            valueName: "text"))
    var title: String?

    @Option(
        name: .customLong("badge"),
        help: ArgumentHelp("Quick payload: aps.badge number (only without PAYLOAD).", valueName: "n"))
    var badge: String?

    @Option(
        name: .customLong("sound"),
        help: ArgumentHelp(
            "Quick payload: aps.sound name, e.g. default (a Live Activity's goes in aps.alert.sound).",
            valueName: "name"))
    var sound: String?

    @Option(
        name: .customLong("subtitle"),
        help: ArgumentHelp(
            "Quick payload: the alert's subtitle; aps.alert becomes {\"title\":…,\"subtitle\":…,\"body\":…}.",
            valueName: "text"))
    var subtitle: String?

    @Option(
        name: .customLong("category"),
        help: ArgumentHelp(
            "Quick payload: aps.category, the notification category whose actions the app registered.",
            valueName: "id"))
    var category: String?

    @Option(
        name: .customLong("thread-id"),
        help: ArgumentHelp(
            "Quick payload: aps.thread-id, the group the notification joins in Notification Center.", valueName: "id"))
    var threadID: String?

    @Flag(
        name: .customLong("mutable-content"),
        help: "Quick payload: aps.mutable-content 1, so the app's notification service extension may change it.")
    var mutableContent = false

    @Flag(
        name: .customLong("content-available"),
        help:
            "Quick payload: aps.content-available 1, to wake the app. Alone it builds a background push: push type background, priority 5, no alert."
    )
    var contentAvailable = false

    /// `--collapse-id`, checked against APNs' 64-byte limit.
    func parsedCollapseID() throws(CLIError) -> String? {
        guard let collapseID else { return nil }
        try HeaderValueCheck.check(collapseID, flag: "--collapse-id")
        let n = collapseID.utf8.count
        guard n > 0 else { throw .usage("--collapse-id: empty; give an id of 1 to 64 bytes, or leave the flag out") }
        guard n <= 64 else {
            throw .usage("--collapse-id: \(n) bytes; APNs allows 1 to 64 bytes (UTF-8), shorten it")
        }
        return collapseID
    }

    /// `--apns-id`, checked.
    func parsedAPNSID() throws(CLIError) -> String? {
        try HeaderValueCheck.canonicalUUID(apnsID, flag: "--apns-id")
    }
}
