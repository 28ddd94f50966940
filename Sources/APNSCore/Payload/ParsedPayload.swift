/// A payload read once: its JSON (or why it is not JSON) and its repeated keys. `send` infers the push type
/// it needs for the default topic and validates every rule from this one parse.
public struct ParsedPayload {
    /// The payload as loaded.
    public let payload: Payload
    /// The document, duplicates collapsed to their last copy, top-level members only those `RootMembersRead`
    /// keeps; nil when empty or not JSON.
    let root: JSONValue?
    let duplicates: JSONDuplicateKeys
    let syntaxError: JSONSyntaxError?

    /// Parses `payload` as `PayloadDocument` does, or takes the reading its loading made (a `.apns` file).
    public init(_ payload: Payload) {
        self.payload = payload
        let document = payload.document ?? PayloadDocument(reading: payload.source)
        (root, duplicates, syntaxError) = (document.root, document.duplicates, document.syntaxError)
    }

    /// The push type `send` would infer (`PayloadValidator.inferPushType`): the topic's suffix, then the payload.
    public func inferredPushType(topic: String?) -> PushType {
        PayloadValidator.inferPushType(root: root, topic: topic)
    }

    /// `aps.event` when it is a string: the Live Activity event a payload file carries.
    public var liveActivityEvent: String? { root?["aps"]?["event"]?.string }

    /// Whether `aps` holds only `content-changed: true`, the payload widgets and controls pushes share.
    public var apsHoldsOnlyContentChanged: Bool {
        guard let aps = root?["aps"]?.members else { return false }
        return PayloadValidator.isContentChangedOnly(JSONValue.effectiveMembers(aps))
    }
}
