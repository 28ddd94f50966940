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

    /// A top-level key that is `Simulator Target Bundle` spelt otherwise (`Simulator target bundle`), when the key
    /// as Xcode spells it is not there: the topic a `.apns` file was meant to give.
    public var misspeltSimulatorTargetBundleKey: String? {
        guard let members = root?.members,
            !members.contains(where: { $0.key == Payload.simulatorTargetBundleKey })
        else { return nil }
        return members.last { PayloadChecker.isSimulatorTargetBundleKey($0.key) }?.key
    }

    /// `aps.event` when it is a string: the Live Activity event a payload file carries.
    public var liveActivityEvent: String? { root?["aps"]?["event"]?.string }

    /// Whether `aps` holds an alert, a badge or a sound: what a user sees, which a VoIP push does not show.
    public var apsHasVisibleKeys: Bool {
        guard let aps = root?["aps"]?.members else { return false }
        let keys = Set(APSKey.visibleKeys.map(\.rawValue))
        return JSONValue.effectiveMembers(aps).contains { keys.contains($0.key) }
    }

    /// Whether `aps` holds only `content-changed`, the payload widgets and controls pushes share.
    public var apsHoldsOnlyContentChanged: Bool {
        guard let aps = root?["aps"]?.members else { return false }
        return PayloadValidator.isContentChangedOnly(JSONValue.effectiveMembers(aps))
    }
}
