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

    /// Parses `payload` (collapsed: a million copies of one key are checked in bounded memory; only the top-level
    /// members the rules read are kept, so a payload of millions of custom keys is too).
    public init(_ payload: Payload) {
        self.payload = payload
        var root: JSONValue? = nil
        var duplicates = JSONDuplicateKeys()
        var syntaxError: JSONSyntaxError? = nil
        if !payload.source.isEmpty {
            do { (root, duplicates) = try JSONReader.parseCollapsingDuplicates(payload.source, keeping: RootMembersRead.filter()) } catch { syntaxError = error }
        }
        (self.root, self.duplicates, self.syntaxError) = (root, duplicates, syntaxError)
    }

    /// The push type `send` would infer (`PayloadValidator.inferPushType`): the topic's suffix, then the payload.
    public func inferredPushType(topic: String?) -> PushType {
        PayloadValidator.inferPushType(root: root, topic: topic)
    }

    /// Whether `aps` holds only `content-changed: true`, the payload widgets and controls pushes share.
    public var apsHoldsOnlyContentChanged: Bool {
        guard let aps = root?["aps"]?.members else { return false }
        return PayloadValidator.isContentChangedOnly(JSONValue.effectiveMembers(aps))
    }
}
