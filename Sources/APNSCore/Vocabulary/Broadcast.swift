/// The broadcast push vocabulary of APNS.md §11 beyond `APNSHeader`, `APNSPath` and `APNSLimit` (headers,
/// the send path, the 5120-byte limit): channel management paths and body fields, the channel limit, channel
/// id syntax. Defined once so the client, the validator and the mock build and check the same requests.
public enum Broadcast {
    /// The only push type a broadcast may have (`apns-push-type`).
    public static let pushType = PushType.liveactivity
    /// How a channel's push type is spelt in the create body and in read answers.
    public static let channelPushType = "LiveActivity"
    /// Create body field: 0 No Message Stored, 1 Most Recent Message Stored.
    public static let storagePolicyField = "message-storage-policy"
    /// Create body and read answer field naming the push type.
    public static let pushTypeField = "push-type"
    /// List answer field: the array of channel ids.
    public static let channelsField = "channels"
    /// Channels per app and environment; `CannotCreateChannelConfig` beyond.
    public static let maximumChannels = 10_000
    /// `/1/apps/<bundle id>/channels`: create (POST), read (GET), delete (DELETE).
    public static func channelsPath(bundleID: String) -> String { APNSPath.channelsPrefix + bundleID + "/channels" }
    /// `/1/apps/<bundle id>/all-channels`: list (GET).
    public static func allChannelsPath(bundleID: String) -> String {
        APNSPath.channelsPrefix + bundleID + "/all-channels"
    }

    /// A channel id as APNs makes them: non-empty standard base64 with its padding, so a whole number of 4-character
    /// groups (its length is not fixed): one cut at a `+`, `/` or `=` by a double-click is not one.
    public static func isChannelIDSyntax(_ id: String) -> Bool {
        let u = Array(id.utf8)
        guard !u.isEmpty, u.count <= 1024 else { return false }
        var padding = 0
        for c in u {
            if c == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0 else { return false }
            let ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 43 || c == 47
            if !ok { return false }
        }
        return padding <= 2 && u.count % 4 == 0
    }

    /// The bundle id for broadcast paths: `topic` without any push-type suffix (`.voip`, `.push-type.liveactivity`).
    public static func bundleID(fromTopic topic: String) -> String {
        guard let type = PushType.inferred(fromTopic: topic) else { return topic }
        return String(topic.dropLast(type.topicSuffix.utf8.count))
    }
}

/// A channel's message storage policy (`message-storage-policy`).
public enum ChannelStorage: Int, CaseIterable, Sendable {
    /// No Message Stored (0): the larger publishing budget; only `apns-expiration: 0` when sending.
    case none = 0
    /// Most Recent Message Stored (1): the newest message is kept up to 8 hours.
    case mostRecent = 1

    /// `none` or `most-recent`, as `--storage` and JSON output spell it.
    public var name: String { self == .none ? "none" : "most-recent" }

    /// From `--storage`: `none` or `most-recent` (also `0`, `1`, `most_recent`, any case).
    public init?(name: String) {
        switch name.lowercased() {
        case "none", "0", "no-message-stored": self = .none
        case "most-recent", "most_recent", "mostrecent", "1": self = .mostRecent
        default: return nil
        }
    }
}

extension APNSEnvironment {
    /// Apple's channel management host and port for this environment (APNS.md §11).
    public var channelManagementHost: (host: String, port: Int) {
        switch self {
        case .sandbox: return ("api-manage-broadcast.sandbox.push.apple.com", 2195)
        case .production: return ("api-manage-broadcast.push.apple.com", 2196)
        }
    }
}
