/// The payload flags of `send` as the user wrote them (CLI.md, "Live Activities and widgets" and the quick
/// payload): values stay text so that `PayloadBuilder` can say which value is bad. JSON values
/// given as `@FILE` or `@-` arrive already read (`FlagJSON`): the core reads no files.
public struct PayloadFlags: Sendable {
    /// The Live Activity event (`aps.event`).
    public var liveActivity: LiveActivityEvent?
    /// `aps.content-state`, a JSON object.
    public var contentState: FlagJSON?
    /// `aps.attributes-type`.
    public var attributesType: String?
    /// `aps.attributes`, a JSON object.
    public var attributes: FlagJSON?
    /// The alert's title (alerts and Live Activities).
    public var title: String?
    /// The alert's subtitle (alerts only).
    public var subtitle: String?
    /// The alert's body.
    public var alert: String?
    /// `aps.sound`, or `aps.alert.sound` for a Live Activity.
    public var sound: String?
    /// `aps.badge`, a whole number as written (alerts only).
    public var badge: String?
    /// `aps.category`: the notification category (alerts only).
    public var category: String?
    /// `aps.thread-id`: the group the notification joins (alerts only).
    public var threadID: String?
    /// `aps.mutable-content: 1`: the notification service extension may change it.
    public var mutableContent = false
    /// `aps.content-available: 1`: wake the app; alone, a background push.
    public var contentAvailable = false
    /// `aps.stale-date`, a WHEN as written.
    public var staleDate: String?
    /// `aps.dismissal-date`, a WHEN as written.
    public var dismissalDate: String?
    /// `aps.relevance-score`, a number as written.
    public var relevanceScore: String?
    /// `aps.input-push-token`: ask for a push-to-start token.
    public var inputPushToken = false
    /// `aps.input-push-channel`: the channel id.
    public var inputPushChannel: String?
    /// `aps.timestamp`: `now` or UNIX seconds, as written.
    public var timestamp: String?
    /// `aps.content-changed` (widgets and controls).
    public var contentChanged = false

    public init() {}

    /// The fields that only a Live Activity push can carry, in the order of CLI.md's table.
    public var liveActivityOnlyFields: [PayloadField] {
        var fields: [PayloadField] = []
        if contentState != nil { fields.append(.contentState) }
        if attributesType != nil { fields.append(.attributesType) }
        if attributes != nil { fields.append(.attributes) }
        if staleDate != nil { fields.append(.staleDate) }
        if dismissalDate != nil { fields.append(.dismissalDate) }
        if inputPushToken { fields.append(.inputPushToken) }
        if inputPushChannel != nil { fields.append(.inputPushChannel) }
        if timestamp != nil { fields.append(.timestamp) }
        return fields
    }

    /// The quick payload fields that were given (alert, title, badge, sound, relevance score, and those of
    /// `notificationOnlyFields`).
    public var alertFields: [PayloadField] {
        var fields: [PayloadField] = []
        if alert != nil { fields.append(.alert) }
        if title != nil { fields.append(.title) }
        if badge != nil { fields.append(.badge) }
        if sound != nil { fields.append(.sound) }
        if relevanceScore != nil { fields.append(.relevanceScore) }
        return fields + notificationOnlyFields
    }

    /// The quick payload fields a Live Activity push cannot carry besides the badge: its alert has only a
    /// title, a body and a sound, and it neither wakes the app nor goes through a service extension.
    public var notificationOnlyFields: [PayloadField] {
        var fields: [PayloadField] = []
        if subtitle != nil { fields.append(.subtitle) }
        if category != nil { fields.append(.category) }
        if threadID != nil { fields.append(.threadID) }
        if mutableContent { fields.append(.mutableContent) }
        if contentAvailable { fields.append(.contentAvailable) }
        return fields
    }

    /// Whether any payload flag at all was given.
    public var isEmpty: Bool {
        liveActivity == nil && liveActivityOnlyFields.isEmpty && alertFields.isEmpty && !contentChanged
    }
}

/// Each value `PayloadFlags` carries, so that problems can say which one is wrong: the core knows no flag
/// names, the command line words them.
public enum PayloadField: Sendable, Equatable, CaseIterable {
    case liveActivity, contentState, attributesType, attributes, title, alert, sound, badge
    case staleDate, dismissalDate, relevanceScore, inputPushToken, inputPushChannel, timestamp, contentChanged
    case subtitle, category, threadID, mutableContent, contentAvailable
}

/// A JSON value given to a flag: inline text, or the bytes of `@FILE` (`@-`: standard input).
public struct FlagJSON: Sendable {
    /// Which value it is (`.contentState`).
    public let field: PayloadField
    /// The file it was read from (`-` for standard input), nil for inline text.
    public let file: String?
    /// The JSON text.
    public let bytes: [UInt8]

    public init(field: PayloadField, file: String? = nil, bytes: [UInt8]) {
        self.field = field
        self.file = file
        self.bytes = bytes
    }
}

/// A payload flag whose value or combination is wrong: a usage error (exit 64), which the command line words
/// with the flag's name.
public enum PayloadFlagProblem: Error, Equatable, Sendable {
    /// Content-changed builds a push whose aps holds nothing else, yet these were given too.
    case notWithContentChanged([PayloadField])
    /// `--content-changed` beside a PAYLOAD whose `aps` holds other keys (an alert, a background push): merged in,
    /// it would make that push another one.
    case contentChangedIntoAnotherPush
    /// A Live Activity value on an ordinary alert.
    case liveActivityOnly(PayloadField)
    /// A badge on a Live Activity, which shows none.
    case badgeOnLiveActivity
    /// A quick payload value only an ordinary notification carries (a subtitle, a category…), on a Live Activity.
    case notOnLiveActivity(PayloadField)
    /// A badge that is not a whole number, 0 or more.
    case badBadge(String)
    /// A JSON value (read from `file`, nil: given inline) that does not parse.
    case notJSON(PayloadField, file: String?, JSONSyntaxError)
    /// A JSON value that is not an object; `found` summarises what it is.
    case notAnObject(PayloadField, file: String?, found: String)
    /// An object that is a whole payload (it has `aps`) or the field's object wrapped in its own key
    /// (`{"content-state":{…}}`): nested as it is, the app could not decode it. `key` is the one found.
    case wrappedObject(PayloadField, file: String?, key: String)
    /// A stale or dismissal date that is not a WHEN.
    case badTime(PayloadField, TimeValue.Problem)
    /// A timestamp that is neither now nor a UNIX time.
    case badTimestamp(String)
    /// A relevance score that is not a number.
    case badRelevanceScore(String)
}
