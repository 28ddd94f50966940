/// Turns `send`'s payload flags into payload bytes: a pure function of the flags, an optional PAYLOAD and the
/// clock (CLI.md, "Live Activities and widgets"). Without PAYLOAD it writes the whole payload; with one it sets
/// or replaces the flags' keys in its `aps` through `JSONObjectEditor`, so custom keys, untouched keys and their
/// order stay as written and a payload file can be sent again with a fresh timestamp.
public enum PayloadBuilder {
    /// What the flags build.
    public enum Kind: Sendable, Equatable {
        /// An ordinary alert from the alert fields (or the default one).
        case alert
        /// A Live Activity push (an event, a payload with `aps.event`, or the liveactivity push type).
        case liveActivity
        /// `{"aps":{"content-changed":true}}` for widgets and controls.
        case contentChanged
    }

    /// The order of CLI.md's table: keys are written (and new keys added to a PAYLOAD) in this order.
    static let liveActivityKeyOrder: [APSKey] = [
        .event, .timestamp, .contentState, .attributesType, .attributes, .alert,
        .staleDate, .dismissalDate, .relevanceScore, .inputPushToken, .inputPushChannel,
    ]

    /// The PAYLOAD the flags edit: its body, parsed once for every question the builder asks of it.
    public struct Base: Sendable {
        public let bytes: [UInt8]
        /// The body's JSON; nil when it is not JSON (the flags then leave it as it is, for the validator to explain).
        let root: JSONValue?

        public init(_ bytes: [UInt8]) {
            self.bytes = bytes
            root = try? JSONReader.parse(bytes)
        }
    }

    /// What `flags` build, given the push type the user chose (`--push-type` or the topic's suffix) and the PAYLOAD.
    public static func kind(of flags: PayloadFlags, pushType: PushType?, base: Base?) -> Kind {
        if flags.contentChanged { return .contentChanged }
        if flags.liveActivity != nil || pushType == .liveactivity { return .liveActivity }
        if let aps = base?.root?["aps"], aps["event"] != nil { return .liveActivity }
        return .alert
    }

    /// The payload bytes. `base` is the PAYLOAD (nil: build the whole payload); `now` is UNIX seconds.
    /// A flag whose value or combination is wrong throws a problem naming the flag (exit 64).
    public static func build(_ flags: PayloadFlags, pushType: PushType? = nil, base: Base?, now: Int64)
        throws(PayloadFlagProblem) -> [UInt8]
    {
        let kind = kind(of: flags, pushType: pushType, base: base)
        let members: [JSONObjectEditor.Member]
        switch kind {
        case .contentChanged:
            let others =
                flags.liveActivityOnlyFields + flags.alertFields + (flags.liveActivity == nil ? [] : [.liveActivity])
            if !others.isEmpty { throw .notWithContentChanged(others) }
            if let aps = base?.root?["aps"]?.members,
                JSONValue.effectiveMembers(aps).contains(where: { $0.key != APSKey.contentChanged.rawValue })
            {
                throw .contentChangedIntoAnotherPush
            }
            members = [JSONObjectEditor.Member(APSKey.contentChanged.rawValue, Array("true".utf8))]
        case .liveActivity:
            members = try liveActivityMembers(flags, base: base, now: now)
        case .alert:
            if let first = flags.liveActivityOnlyFields.first { throw .liveActivityOnly(first) }
            if base == nil && flags.alertFields.isEmpty {
                // A background push carries no alert: its default is the one key that wakes the app. A widgets or
                // controls push carries the one key those pushes are (an alert would be refused).
                if pushType == .background { return Array(#"{"aps":{"content-available":1}}"#.utf8) }
                if pushType == .widgets || pushType == .controls {
                    return Array(#"{"aps":{"content-changed":true}}"#.utf8)
                }
                return Array(#"{"aps":{"alert":"Hello from apnsctl"}}"#.utf8)
            }
            members = try alertMembers(flags)
        }
        guard let base else {
            return JSONObjectEditor.object([JSONObjectEditor.Member("aps", JSONObjectEditor.object(members))])
        }
        let bytes = base.bytes
        guard !members.isEmpty else { return bytes }
        // A PAYLOAD that is not a JSON object with an object aps is left as it is: the validator explains it.
        guard let root = base.root, root.isObject else { return bytes }
        guard let aps = root.member("aps")?.value else {
            return JSONObjectEditor.setting(
                [JSONObjectEditor.Member("aps", JSONObjectEditor.object(members))], in: root, of: bytes)
        }
        guard aps.isObject else { return bytes }
        return Array(bytes[..<aps.start]) + JSONObjectEditor.setting(members, in: aps, of: bytes)
            + Array(bytes[aps.end...])
    }

    /// The `aps` members of a Live Activity push, in CLI.md's order.
    private static func liveActivityMembers(_ flags: PayloadFlags, base: Base?, now: Int64) throws(PayloadFlagProblem)
        -> [JSONObjectEditor.Member]
    {
        if flags.badge != nil {
            throw PayloadFlagProblem.badgeOnLiveActivity
        }
        if let field = flags.notificationOnlyFields.first { throw PayloadFlagProblem.notOnLiveActivity(field) }
        var values: [APSKey: [UInt8]] = [:]
        if let event = flags.liveActivity { values[.event] = quoted(event.rawValue) }
        if let text = flags.timestamp {
            values[.timestamp] = Array(String(try timestamp(text, now: now)).utf8)
        } else if flags.liveActivity != nil {
            values[.timestamp] = Array(String(now).utf8)
        }
        if let json = flags.contentState { values[.contentState] = try object(json) }
        if let name = flags.attributesType { values[.attributesType] = quoted(name) }
        if let json = flags.attributes { values[.attributes] = try object(json) }
        if let alert = try liveActivityAlert(flags, base: base) { values[.alert] = alert }
        if let text = flags.staleDate { values[.staleDate] = try when(text, field: .staleDate, now: now) }
        if let text = flags.dismissalDate { values[.dismissalDate] = try when(text, field: .dismissalDate, now: now) }
        if let text = flags.relevanceScore { values[.relevanceScore] = try relevanceScore(text) }
        if flags.inputPushToken { values[.inputPushToken] = Array("1".utf8) }
        if let id = flags.inputPushChannel { values[.inputPushChannel] = quoted(id) }
        return liveActivityKeyOrder.compactMap { key in values[key].map { JSONObjectEditor.Member(key.rawValue, $0) } }
    }

    /// `alert` of a Live Activity: `{"title":…,"body":…,"sound":…}` with the parts given (the sound inside the alert,
    /// as in Apple's sample). A PAYLOAD's alert object keeps its other parts; a string alert stays the body.
    private static func liveActivityAlert(_ flags: PayloadFlags, base: Base?) throws(PayloadFlagProblem) -> [UInt8]? {
        var parts: [JSONObjectEditor.Member] = []
        if let title = flags.title { parts.append(JSONObjectEditor.Member("title", quoted(title))) }
        if let body = flags.alert { parts.append(JSONObjectEditor.Member("body", quoted(body))) }
        if let sound = flags.sound { parts.append(JSONObjectEditor.Member("sound", quoted(sound))) }
        guard !parts.isEmpty else { return nil }
        if let base, let existing = base.root?["aps"]?["alert"] {
            if existing.isObject { return JSONObjectEditor.setting(parts, in: existing, of: base.bytes) }
            if existing.string != nil, flags.alert == nil {
                let body = JSONObjectEditor.Member("body", Array(base.bytes[existing.start..<existing.end]))
                parts.insert(body, at: parts.first?.key == "title" ? 1 : 0)
            }
        }
        return JSONObjectEditor.object(parts)
    }

    /// The quick alert, in the order of Apple's table of `aps` keys: `alert` (a string, or
    /// `{"title":…,"subtitle":…,"body":…}` with a title or subtitle), `badge`, `sound`, `thread-id`, `category`,
    /// `content-available`, `mutable-content`, `relevance-score`.
    private static func alertMembers(_ flags: PayloadFlags) throws(PayloadFlagProblem) -> [JSONObjectEditor.Member] {
        var members: [JSONObjectEditor.Member] = []
        if flags.title != nil || flags.subtitle != nil {
            var parts: [JSONObjectEditor.Member] = []
            if let title = flags.title { parts.append(JSONObjectEditor.Member("title", quoted(title))) }
            if let subtitle = flags.subtitle { parts.append(JSONObjectEditor.Member("subtitle", quoted(subtitle))) }
            if let body = flags.alert { parts.append(JSONObjectEditor.Member("body", quoted(body))) }
            members.append(JSONObjectEditor.Member("alert", JSONObjectEditor.object(parts)))
        } else if let alert = flags.alert {
            members.append(JSONObjectEditor.Member("alert", quoted(alert)))
        }
        if let text = flags.badge { members.append(JSONObjectEditor.Member("badge", try badge(text))) }
        if let sound = flags.sound { members.append(JSONObjectEditor.Member("sound", quoted(sound))) }
        if let id = flags.threadID { members.append(JSONObjectEditor.Member(APSKey.threadID.rawValue, quoted(id))) }
        if let id = flags.category { members.append(JSONObjectEditor.Member(APSKey.category.rawValue, quoted(id))) }
        if flags.contentAvailable {
            members.append(JSONObjectEditor.Member(APSKey.contentAvailable.rawValue, Array("1".utf8)))
        }
        if flags.mutableContent {
            members.append(JSONObjectEditor.Member(APSKey.mutableContent.rawValue, Array("1".utf8)))
        }
        if let text = flags.relevanceScore {
            members.append(JSONObjectEditor.Member("relevance-score", try relevanceScore(text)))
        }
        return members
    }

    /// One flag's value checked as `build` checks it, without the rest of the push: advice that tells the user
    /// to write a value another way first asks whether the flag takes it. Fields whose value is any text, or
    /// JSON read from a file, have nothing to check here.
    public static func checkValue(_ text: String, of field: PayloadField, now: Int64) throws(PayloadFlagProblem) {
        switch field {
        case .badge: _ = try badge(text)
        case .staleDate, .dismissalDate: _ = try when(text, field: field, now: now)
        case .timestamp: _ = try timestamp(text, now: now)
        case .relevanceScore: _ = try relevanceScore(text)
        default: break
        }
    }

    /// The badge: a whole number, 0 or more (0 removes it).
    static func badge(_ text: String) throws(PayloadFlagProblem) -> [UInt8] {
        guard let n = Int(text), n >= 0 else { throw .badBadge(text) }
        return Array(String(n).utf8)
    }

    /// A JSON object given to a flag, compact; a syntax error carries the value (and file), line and column.
    static func object(_ json: FlagJSON) throws(PayloadFlagProblem) -> [UInt8] {
        let value: JSONValue
        do { value = try JSONReader.parse(json.bytes) } catch {
            throw .notJSON(json.field, file: json.file, error)
        }
        guard let members = value.members else {
            throw .notAnObject(json.field, file: json.file, found: value.summary)
        }
        // A saved payload given as the content state (`--content-state @update.json`: an `aps` object), or the
        // state wrapped in its own key, which no Swift property is named: sent nested, the device could not decode
        // it and dropped the update without a word. (An app's own `aps` number, or `attributes`, may be a property.)
        if members.contains(where: { $0.key == "aps" && $0.value.isObject }) {
            throw .wrappedObject(json.field, file: json.file, key: "aps")
        }
        let own = APSKey.contentState.rawValue
        if json.field == .contentState, members.count == 1, members[0].key == own {
            throw .wrappedObject(json.field, file: json.file, key: own)
        }
        return JSONCompactor.compact(value, in: json.bytes)
    }

    /// The stale or dismissal date: the expiration's WHEN (ISO 8601 date-times too) plus `now`, as UNIX seconds.
    static func when(_ text: String, field: PayloadField, now: Int64) throws(PayloadFlagProblem) -> [UInt8] {
        do {
            let seconds = try TimeValue.parse(text, now: now, as: .activityDate)
            return Array(String(seconds).utf8)
        } catch {
            throw .badTime(field, error)
        }
    }

    /// The timestamp, `now`, a UNIX time or an ISO 8601 date-time with a zone: UNIX seconds (a milliseconds value
    /// is let through for the validator to explain).
    static func timestamp(_ text: String, now: Int64) throws(PayloadFlagProblem) -> Int64 {
        if text.lowercased() == "now" { return now }
        if let date = ISO8601Date(text) {
            guard date.hasZone else { throw .badTimestamp(text) }
            return date.epochSeconds
        }
        guard !text.isEmpty, text.count <= 13, text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int64(text)
        else {
            throw .badTimestamp(text)
        }
        return n
    }

    /// The relevance score: a JSON number, written as given; `.5`, `5.` and `+0.5`, as people type
    /// numbers, are written as the JSON numbers they mean.
    static func relevanceScore(_ text: String) throws(PayloadFlagProblem) -> [UInt8] {
        let bytes = jsonNumberSpelling(of: Array(text.utf8))
        // A number too large for a double (1e999) is no score a device can read.
        guard let value = try? JSONReader.parse(bytes), let n = value.number, n.doubleValue.isFinite else {
            throw .badRelevanceScore(text)
        }
        return Array(n.literal.utf8)
    }

    /// Writes a number typed without a digit before or after its point (`.5`, `-.5`, `5.`) or with a plus sign
    /// the way JSON spells it; other text is left for the JSON reader to judge.
    static func jsonNumberSpelling(of typed: [UInt8]) -> [UInt8] {
        var digits = typed
        var sign: [UInt8] = []
        if digits.first == UInt8(ascii: "+") {
            digits.removeFirst()
        } else if digits.first == UInt8(ascii: "-") {
            digits.removeFirst()
            sign = [UInt8(ascii: "-")]
        }
        // A second sign (`+-1`) is no number: left for the reader to refuse.
        guard digits.first != UInt8(ascii: "+"), digits.first != UInt8(ascii: "-"),
            digits.contains(where: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return typed }
        if digits.first == UInt8(ascii: ".") { digits.insert(UInt8(ascii: "0"), at: 0) }
        if digits.last == UInt8(ascii: ".") { digits.append(UInt8(ascii: "0")) }
        return sign + digits
    }

    private static func quoted(_ text: String) -> [UInt8] { Array(JSONWriter.quoted(text).utf8) }
}
