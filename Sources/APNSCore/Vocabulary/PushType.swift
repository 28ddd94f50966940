/// The value of the `apns-push-type` header. Defined once here so the validator,
/// the sender and the mock cannot disagree about suffixes, priorities or limits.
public enum PushType: String, CaseIterable, Sendable, Codable {
    case alert
    case background
    case location
    case voip
    case complication
    case fileprovider
    case mdm
    case liveactivity
    case pushtotalk
    case widgets
    case controls

    /// The suffix APNs expects on `apns-topic` for this type (empty: the bare bundle id).
    /// `mdm` topics are the certificate's UID, so they have no suffix either.
    public var topicSuffix: String {
        switch self {
        case .alert, .background, .mdm: return ""
        case .location: return ".location-query"
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .liveactivity: return ".push-type.liveactivity"
        case .pushtotalk: return ".voip-ptt"
        case .widgets: return ".push-type.widgets"
        case .controls: return ".push-type.controls"
        }
    }

    /// Priority sent when the user gives none: background pushes forbid 10.
    public var defaultPriority: Priority { self == .background ? .powerAware : .immediate }

    /// Payload byte limit of the HTTP/2 API for this type (VoIP gets 5 KB).
    public var defaultSizeLimit: Int { self == .voip ? SizeLimit.voip : SizeLimit.http2 }

    /// Whether APNs accepts this type with certificate auth at all (location needs a token).
    public var allowsCertificateAuth: Bool { self != .location }

    /// Whether APNs accepts this type with token auth (APNS.md §3: mdm is sent with the MDM push certificate).
    public var allowsTokenAuth: Bool { self != .mdm }

    /// The type whose topic suffix ends `topic`, longest suffix first (`.voip-ptt` before `.voip`).
    /// Returns nil for a bare bundle id, whose type depends on the payload.
    public static func inferred(fromTopic topic: String) -> PushType? {
        let suffixed = allCases.filter { !$0.topicSuffix.isEmpty }
            .sorted { $0.topicSuffix.utf8.count > $1.topicSuffix.utf8.count }
        return suffixed.first { topic.hasSuffix($0.topicSuffix) }
    }

    /// Parses a user-supplied name; case-insensitive, since users type `VoIP` or `liveActivity`.
    public init?(userValue: String) {
        self.init(rawValue: userValue.lowercased())
    }

    /// `alert, background, …` for help texts and error messages.
    public static var allNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// The value of the `apns-priority` header.
public enum Priority: Int, CaseIterable, Sendable, Codable {
    /// Deliver now (10).
    case immediate = 10
    /// Power-aware delivery (5): may be batched, throttled or dropped.
    case powerAware = 5
    /// Never wakes the device (1).
    case low = 1
}

extension PushType {
    /// A hand-written near miss of this type's topic suffix at the end of `topic`, and the topic before it: from a
    /// whole `push-type` part on (`….push-type.widget`), else a last part that is one of the suffix's words, its
    /// plural, or the start of one long enough not to be a name (`.location` for `.location-query`, not `.live`).
    /// Nil when there is none. One rule for send's warning and the validator's advice.
    public func nearMissOfSuffix(in topic: String) -> (ending: String, bare: String)? {
        guard !topicSuffix.isEmpty else { return nil }
        let parts = topic.split(separator: ".", omittingEmptySubsequences: false)
        let words = topicSuffix.split(separator: ".").map { $0.lowercased() }
        let cut: Int
        if let i = parts.firstIndex(where: { $0.lowercased() == "push-type" }), i > 0 {
            cut = i
        } else if parts.count > 1, let last = parts.last?.lowercased(),
            words.contains(where: { $0 == last || last == $0 + "s" || (last.count >= 5 && $0.hasPrefix(last)) })
        {
            cut = parts.count - 1
        } else {
            return nil
        }
        return ("." + parts[cut...].joined(separator: "."), parts[..<cut].joined(separator: "."))
    }
}
