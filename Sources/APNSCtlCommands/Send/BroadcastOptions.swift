import ArgumentParser

/// `send`'s broadcast flags (iOS 18 Live Activities): the channels to broadcast to instead of devices,
/// and the `apns-request-id`.
struct BroadcastOptions: ParsableArguments {
    @Option(
        name: .customLong("channel"),
        help: ArgumentHelp(
            "Broadcast to this channel instead of devices (repeatable; the id channel create printed). Push type liveactivity, expiration 0 and priority 10 by default, no apns-topic; the payload must be a Live Activity update or end, at most 5120 bytes.",
            valueName: "id"))
    var channels: [String] = []

    @Option(
        name: .customLong("request-id"),
        help: ArgumentHelp(
            "apns-request-id of the broadcast (one --channel only): a canonical UUID. Default: a fresh lowercase one per channel.",
            valueName: "uuid"))
    var requestID: String?

    /// Whether `send` broadcasts instead of pushing to devices.
    var isGiven: Bool { !channels.isEmpty || requestID != nil }
}
