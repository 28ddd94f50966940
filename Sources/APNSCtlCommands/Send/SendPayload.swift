import APNSCore

/// The payload `send` sends and the name its problems are reported under: PAYLOAD's file name, `(inline)`, or
/// the flags that built it (`the payload built from --alert and --title`).
struct SendPayload {
    let payload: Payload
    let name: String
    /// Whether the flags built the whole payload (no PAYLOAD was given; none at all builds the default one).
    var isBuiltFromFlags = false
    /// Whether payload flags edited PAYLOAD (a fresh timestamp, a Live Activity key set): the keys they wrote have
    /// no line and column in the file.
    var editedByFlags = false
    /// PAYLOAD as read, when the flags edited it: where the file's own keys are (the edited bytes' lines are not the
    /// file's).
    var original: Payload? = nil

    /// The name problems of a payload built from `flags` alone are reported under: the flags, since it has no
    /// file, line or column the user wrote.
    static func builtName(_ flags: [String]) -> String {
        if flags.isEmpty { return "the default payload" }
        let list =
            flags.count < 2
            ? flags.joined() : flags.dropLast().joined(separator: ", ") + " and " + flags[flags.count - 1]
        return "the payload built from \(list)"
    }

    /// `read` (PAYLOAD, if given) with the payload `flags` applied (CLI.md, "Live Activities and widgets"):
    /// `type.given` decides whether the alert flags build a Live Activity alert. Without payload flags PAYLOAD is
    /// returned byte for byte; a flag's bad value or combination is a usage error (64). Pure: nothing is read here.
    static func applying(
        _ flags: PayloadFlags, to read: SendPayload?, type: PushDescription.RequestedType,
        now: Int64
    ) throws(CLIError) -> SendPayload {
        if let read, flags.isEmpty { return read }
        let base = read.map { PayloadBuilder.Base($0.payload.body) }
        let kind = PayloadBuilder.kind(of: flags, pushType: type.given, base: base)
        if let read, kind == .alert, let first = flags.alertFields.first {
            let instead = first.keyPath.map { "set \($0) in the payload, or " } ?? ""
            throw CLIError.usage(
                "\(first.flag): the quick payload flags build a payload, but PAYLOAD \(read.name) was given too (and is not a Live Activity); \(instead)leave PAYLOAD out"
            )
        }
        let body: [UInt8]
        do { body = try PayloadBuilder.build(flags, pushType: type.given, base: base, now: now) } catch {
            throw CLIError.usage(error.message)
        }
        guard let read else {
            let fields =
                (flags.liveActivity == nil ? [] : [PayloadField.liveActivity]) + flags.alertFields
                + flags.liveActivityOnlyFields + (flags.contentChanged ? [.contentChanged] : [])
            let names = fields.map(\.flag)
            return SendPayload(payload: Payload(bytes: body), name: Self.builtName(names), isBuiltFromFlags: true)
        }
        return SendPayload(
            payload: Payload(built: body, from: read.payload), name: read.name, editedByFlags: true,
            original: read.payload)
    }
}
