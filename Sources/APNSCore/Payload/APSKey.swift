/// Every key Apple documents inside `aps`, and the push types it means something for.
/// Defined once here so the validator, `send` and the mock share one list (APNS.md §4).
public enum APSKey: String, CaseIterable, Sendable {
    case alert
    case badge
    case sound
    case threadID = "thread-id"
    case category
    case contentAvailable = "content-available"
    case mutableContent = "mutable-content"
    case targetContentID = "target-content-id"
    case interruptionLevel = "interruption-level"
    case relevanceScore = "relevance-score"
    case filterCriteria = "filter-criteria"
    case urlArgs = "url-args"
    case contentChanged = "content-changed"
    case event
    case timestamp
    case contentState = "content-state"
    case staleDate = "stale-date"
    case dismissalDate = "dismissal-date"
    case attributesType = "attributes-type"
    case attributes
    case inputPushToken = "input-push-token"
    case inputPushChannel = "input-push-channel"

    /// The key named `key`, looked up only when its length and first byte are those of a key: most of a
    /// payload's custom keys are told apart by them, without the string lookup (a payload of millions of them).
    static func named(_ key: String) -> APSKey? {
        let utf8 = key.utf8
        guard let first = utf8.first, utf8.count < 64, shapes.lengths & (1 << UInt64(utf8.count)) != 0,
            shapes.firstBytes[Int(first >> 6)] & (1 << UInt64(first & 63)) != 0
        else { return nil }
        return APSKey(rawValue: key)
    }

    /// The lengths and first bytes of the keys, as bit sets.
    private static let shapes: (lengths: UInt64, firstBytes: [UInt64]) = {
        var (lengths, firstBytes) = (UInt64(0), [UInt64](repeating: 0, count: 4))
        for key in allCases {
            let utf8 = key.rawValue.utf8
            lengths |= 1 << UInt64(utf8.count)
            if let first = utf8.first { firstBytes[Int(first >> 6)] |= 1 << UInt64(first & 63) }
        }
        return (lengths, firstBytes)
    }()

    /// The push types for which APNs or the device acts on this key.
    public var pushTypes: Set<PushType> {
        switch self {
        case .alert: return [.alert, .liveactivity]
        case .relevanceScore: return [.alert, .liveactivity]
        case .contentAvailable: return [.alert, .background]
        case .badge, .sound, .threadID, .category, .mutableContent, .targetContentID,
            .interruptionLevel, .filterCriteria, .urlArgs:
            return [.alert]
        case .contentChanged: return [.widgets, .controls]
        case .event, .timestamp, .contentState, .staleDate, .dismissalDate, .attributesType,
            .attributes, .inputPushToken, .inputPushChannel:
            return [.liveactivity]
        }
    }

    /// The keys that make an alert push visible or audible; a background push may carry none of them.
    public static let visibleKeys: [APSKey] = [.alert, .badge, .sound]

    /// The values `interruption-level` accepts.
    public static let interruptionLevels = ["passive", "active", "time-sensitive", "critical"]

    /// The values `event` accepts in a Live Activity push.
    public static let liveActivityEvents = ["start", "update", "end"]

    /// Keys of the `aps.alert` dictionary (APNS.md §4), legacy ones excluded.
    public static let alertKeys = [
        "title", "subtitle", "body", "launch-image", "title-loc-key", "title-loc-args",
        "subtitle-loc-key", "subtitle-loc-args", "loc-key", "loc-args",
    ]

    /// Alert keys that still work in old libraries but left Apple's list.
    public static let legacyAlertKeys = ["action", "action-loc-key", "summary-arg", "summary-arg-count"]

    /// Keys of the critical-alert `aps.sound` dictionary.
    public static let soundKeys = ["critical", "name", "volume"]
}
