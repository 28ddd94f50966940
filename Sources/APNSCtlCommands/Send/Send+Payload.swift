import APNSCore
import APNSPlatform

/// The payload `send` sends: PAYLOAD as read, or built or brought up to date by the payload flags
/// (`PayloadBuilder`), with `@FILE`/`@-` values read here, at the edge.
extension APNSCtl.Send {
    /// The Live Activity flag `--live-activity`, checked.
    func parsedLiveActivityEvent() throws(CLIError) -> LiveActivityEvent? {
        guard let text = liveActivity.event else { return nil }
        guard let event = LiveActivityEvent(rawValue: text.lowercased()) else {
            let names = LiveActivityEvent.allCases.map(\.rawValue)
            throw .usage("--live-activity \(JSONWriter.quoted(text)): must be start, update or end\(Suggestion.closest(to: text.lowercased(), among: names).map { "; did you mean \($0)?" } ?? "")")
        }
        return event
    }

    /// The payload flags as `PayloadBuilder` takes them; `@FILE` and `@-` values are read (66 for a missing file;
    /// 64 when two inputs would read standard input).
    func payloadFlags(in world: CommandWorld) throws(CLIError) -> PayloadFlags {
        var stdinReaders: [String] = []
        if payload == "-" { stdinReaders.append("PAYLOAD -") }
        if devicesFile == "-" { stdinReaders.append("--devices -") }
        func json(_ text: String?, field: PayloadField) throws(CLIError) -> FlagJSON? {
            guard let text else { return nil }
            let flag = field.flag
            guard text.hasPrefix("@") else { return FlagJSON(field: field, bytes: Array(text.utf8)) }
            let path = String(text.dropFirst())
            if path == "-" {
                stdinReaders.append("\(flag) @-")
                if stdinReaders.count > 1 {
                    throw .usage("\(stdinReaders.joined(separator: " and ")) both read standard input; put one of them in a file")
                }
            }
            do { return FlagJSON(field: field, file: path, bytes: try FileSystem.read(path, standardInput: world.standardInput)) } catch {
                throw .inputMissing("\(flag) @\(path): \(error.message)")
            }
        }
        var f = PayloadFlags()
        f.liveActivity = try parsedLiveActivityEvent()
        f.contentState = try json(liveActivity.contentState, field: .contentState)
        f.attributes = try json(liveActivity.attributes, field: .attributes)
        f.attributesType = liveActivity.attributesType
        f.title = request.title
        f.alert = request.alert
        f.sound = request.sound
        f.badge = request.badge
        f.staleDate = liveActivity.staleDate
        f.dismissalDate = liveActivity.dismissalDate
        f.relevanceScore = liveActivity.relevanceScore
        f.inputPushToken = liveActivity.inputPushToken
        f.inputPushChannel = liveActivity.inputPushChannel
        f.timestamp = liveActivity.timestamp
        f.contentChanged = liveActivity.contentChanged
        if let channel = f.inputPushChannel { try HeaderValueCheck.check(channel, flag: "--input-push-channel") }
        return f
    }

    /// PAYLOAD (66 when unreadable) with the payload flags applied, and the name its problems are reported under.
    /// `pushType` is the type the user chose (`--push-type`, or the topic's suffix), which decides whether alert
    /// flags build a Live Activity alert. A PAYLOAD without payload flags is returned byte for byte.
    func loadPayload(pushType: PushType?, now: Int64, in world: CommandWorld) throws(CLIError) -> (payload: Payload, name: String) {
        let flags = try payloadFlags(in: world)
        let read: (payload: Payload, name: String)?
        if let payload {
            if payload.hasPrefix("{") {
                read = (Payload(bytes: Array(payload.utf8)), "(inline)")
            } else {
                do { read = (try Payload.load(path: payload, standardInput: world.standardInput), payload) } catch {
                    throw CLIError.inputMissing(error.message + "; give a payload file, - for standard input, or inline JSON starting with {")
                }
            }
        } else {
            read = nil
        }
        if let read, flags.isEmpty { return read }
        let kind = PayloadBuilder.kind(of: flags, pushType: pushType, base: read?.payload.body)
        if let read, kind == .alert, let first = flags.alertFlags.first {
            throw CLIError.usage("\(first): --alert, --title, --badge, --sound and --relevance-score build a payload, but PAYLOAD \(read.name) was given too (and is not a Live Activity); use one or the other")
        }
        let body: [UInt8]
        do { body = try PayloadBuilder.build(flags, pushType: pushType, base: read?.payload.body, now: now) } catch {
            throw CLIError.usage(error.message)
        }
        guard let read else { return (Payload(bytes: body), "(flags)") }
        return (Payload(built: body, from: read.payload), read.name)
    }
}
