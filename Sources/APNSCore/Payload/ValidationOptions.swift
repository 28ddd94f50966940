/// What a payload is checked against. `validate`, `send` and the mock fill it from their flags
/// or headers; nil fields mean "infer" or "not checked".
public struct ValidationOptions: Sendable {
    /// The push type; nil infers it from the topic suffix, then from the payload.
    public var pushType: PushType?
    /// Byte limit; nil takes the push type's default (4096, or 5120 for voip).
    public var sizeLimit: Int?
    /// The `apns-priority` to be sent; nil skips the priority rules.
    public var priority: Priority?
    /// The `apns-topic` to be sent; nil skips the topic-suffix rules.
    public var topic: String?
    /// Warnings count as errors (`validate --strict`).
    public var strict: Bool
    /// What advice calls the settings it suggests changing; the CLI passes its flags.
    public var settingNames: SettingNames
    /// A broadcast to channels (`send --channel`): Live Activity `update` or `end` only, broadcast size limit.
    public var broadcast: Bool = false
    /// The current time in UNIX seconds, for rules about "now" (a Live Activity `timestamp` more than an hour
    /// away); nil skips them. `send` and the mock pass their clock; `validate` checks files kept for later.
    public var now: Int64? = nil
    /// The payload is about to be sent (`send`), so a Live Activity `timestamp` that would stop every later
    /// update is an error, not a warning: one in milliseconds, or more than 10 minutes ahead of `now` (iOS keeps
    /// the highest timestamp it has seen). `validate` leaves it false: a file may be sent later.
    public var sending = false
    /// The size the body goes out at when it is not the bytes given (`send --minify`): the size rules count it.
    public var minifiedSize: Int? = nil

    /// Options with everything inferred and no header checks by default.
    public init(
        pushType: PushType? = nil, sizeLimit: Int? = nil, priority: Priority? = nil,
        topic: String? = nil, strict: Bool = false, settingNames: SettingNames = .headers
    ) {
        self.pushType = pushType
        self.sizeLimit = sizeLimit
        self.priority = priority
        self.topic = topic
        self.strict = strict
        self.settingNames = settingNames
    }

    /// The limit when none is given: the broadcast limit for broadcasts, else the push type's.
    public func defaultSizeLimit(for pushType: PushType) -> Int {
        broadcast ? APNSLimit.broadcastPayloadBytes : pushType.defaultSizeLimit
    }
}
