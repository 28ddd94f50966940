/// The payload flags of `send` as the user wrote them (CLI.md, "Live Activities and widgets" and the quick
/// payload): values stay text so that `PayloadBuilder` can name the flag of every bad value. JSON values
/// given as `@FILE` or `@-` arrive already read (`FlagJSON`): the core reads no files.
public struct PayloadFlags: Sendable {
    /// `--live-activity start|update|end`.
    public var liveActivity: LiveActivityEvent?
    /// `--content-state JSON|@FILE`.
    public var contentState: FlagJSON?
    /// `--attributes-type NAME`.
    public var attributesType: String?
    /// `--attributes JSON|@FILE`.
    public var attributes: FlagJSON?
    /// `--title TEXT` (alerts and Live Activities).
    public var title: String?
    /// `--alert TEXT`: the alert's body.
    public var alert: String?
    /// `--sound NAME` (`aps.sound`, or `aps.alert.sound` for a Live Activity).
    public var sound: String?
    /// `--badge N` (alerts only).
    public var badge: String?
    /// `--stale-date WHEN`.
    public var staleDate: String?
    /// `--dismissal-date WHEN`.
    public var dismissalDate: String?
    /// `--relevance-score N`.
    public var relevanceScore: String?
    /// `--input-push-token`.
    public var inputPushToken = false
    /// `--input-push-channel ID`.
    public var inputPushChannel: String?
    /// `--timestamp now|UNIX`.
    public var timestamp: String?
    /// `--content-changed` (widgets and controls).
    public var contentChanged = false

    public init() {}

    /// The flags that only a Live Activity push can carry, by name, in the order of CLI.md's table.
    public var liveActivityOnlyFlags: [String] {
        var names: [String] = []
        if contentState != nil { names.append("--content-state") }
        if attributesType != nil { names.append("--attributes-type") }
        if attributes != nil { names.append("--attributes") }
        if staleDate != nil { names.append("--stale-date") }
        if dismissalDate != nil { names.append("--dismissal-date") }
        if inputPushToken { names.append("--input-push-token") }
        if inputPushChannel != nil { names.append("--input-push-channel") }
        if timestamp != nil { names.append("--timestamp") }
        return names
    }

    /// The quick alert flags that were given (`--alert`, `--title`, `--badge`, `--sound`, `--relevance-score`).
    public var alertFlags: [String] {
        var names: [String] = []
        if alert != nil { names.append("--alert") }
        if title != nil { names.append("--title") }
        if badge != nil { names.append("--badge") }
        if sound != nil { names.append("--sound") }
        if relevanceScore != nil { names.append("--relevance-score") }
        return names
    }

    /// Whether any payload flag at all was given.
    public var isEmpty: Bool {
        liveActivity == nil && liveActivityOnlyFlags.isEmpty && alertFlags.isEmpty && !contentChanged
    }
}

/// A JSON value given to a flag: inline text, or the bytes of `@FILE` (`@-`: standard input).
public struct FlagJSON: Sendable {
    /// The flag (`--content-state`).
    public let flag: String
    /// The file it was read from (`-` for standard input), nil for inline text.
    public let file: String?
    /// The JSON text.
    public let bytes: [UInt8]

    public init(flag: String, file: String? = nil, bytes: [UInt8]) {
        self.flag = flag
        self.file = file
        self.bytes = bytes
    }

    /// How messages name it: `--content-state`, or `--content-state @state.json`.
    public var label: String { file.map { "\(flag) @\($0 == "-" ? "-" : $0)" } ?? flag }
}

/// A payload flag whose value or combination is wrong: a usage error (exit 64) whose message names the flag.
public struct PayloadFlagProblem: Error, Equatable, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
