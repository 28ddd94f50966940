import APNSCore
import ArgumentParser

/// `send`'s Live Activity and widget flags (CLI.md, "Live Activities and widgets"): they build the payload, or
/// bring a Live Activity payload file up to date, with `PayloadBuilder`. Values stay strings here so every bad
/// value becomes one usage error naming its flag.
struct LiveActivityOptions: ParsableArguments {
    @Option(
        name: .customLong("live-activity"),
        help: ArgumentHelp(
            "Build a Live Activity push: aps.event and aps.timestamp (now); the push type is liveactivity and the topic gets .push-type.liveactivity. Priority 10 (the default) updates count against an hourly budget on the device; --priority 5 ones do not.",
            valueName: "start|update|end"), completion: .list(LiveActivityEvent.allCases.map(\.rawValue)))
    var event: String?

    @Option(
        name: .customLong("content-state"),
        help: ArgumentHelp(
            "aps.content-state: a JSON object, @FILE, or @- for standard input. Swift Date fields want seconds since 2001, not UNIX time or an ISO 8601 string.",
            valueName: "json|@file"), completion: .file())
    var contentState: String?

    @Option(
        name: .customLong("attributes-type"),
        help: ArgumentHelp("aps.attributes-type: your ActivityAttributes type name (start).", valueName: "name"))
    var attributesType: String?

    @Option(
        name: .customLong("attributes"),
        help: ArgumentHelp(
            "aps.attributes: the static attributes as a JSON object, @FILE or @- (start).", valueName: "json|@file"),
        completion: .file())
    var attributes: String?

    @Option(
        name: .customLong("stale-date"),
        help: ArgumentHelp(
            "aps.stale-date: now, a UNIX time, an ISO 8601 date-time (2026-11-28T18:30:00Z), or a duration from now such as 15m, 4h.",
            valueName: "when"))
    var staleDate: String?

    @Option(
        name: .customLong("dismissal-date"),
        help: ArgumentHelp(
            "aps.dismissal-date (end): now, a UNIX time, an ISO 8601 date-time, or a duration from now such as 1h (not negative: for a time already past, now).",
            valueName: "when"))
    var dismissalDate: String?

    @Option(
        name: .customLong("relevance-score"),
        help: ArgumentHelp(
            "aps.relevance-score: a number (the highest Live Activity gets the Dynamic Island; alerts take 0 to 1).",
            valueName: "n"))
    var relevanceScore: String?

    @Flag(
        name: .customLong("input-push-token"),
        help: "aps.input-push-token: 1 (start: ask iOS for an activity update token).")
    var inputPushToken = false

    @Option(
        name: .customLong("input-push-channel"),
        help: ArgumentHelp("aps.input-push-channel (start: join this broadcast channel).", valueName: "id"))
    var inputPushChannel: String?

    @Option(
        name: .customLong("timestamp"),
        help: ArgumentHelp(
            "aps.timestamp: now, a UNIX time in seconds or an ISO 8601 date-time (default with --live-activity: now). apnsctl send update.json --timestamp now sends a saved update again; one in milliseconds or more than 10 minutes ahead is refused (iOS would drop every later update).",
            valueName: "now|unix|date"))
    var timestamp: String?

    @Flag(
        name: .customLong("content-changed"),
        help:
            "A widgets or controls push: {\"aps\":{\"content-changed\":true}}; give --push-type widgets or controls (the topic gets its suffix). No apns-priority or apns-expiration is sent unless given."
    )
    var contentChanged = false
}
