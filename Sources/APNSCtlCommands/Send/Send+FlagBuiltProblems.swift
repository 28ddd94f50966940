import APNSCore

/// A payload built from flags alone has no file the user wrote, so its problems name the flag that set the key
/// (`--content-state: eta: …`), and a key the payload lacks names the flag to add, rather than a line and
/// column of JSON nobody wrote.
extension APNSCtl.Send {
    /// The flag that writes an `aps` key (`content-state`, `alert.title`), what its value is called in advice,
    /// and whether it was given.
    private func writer(ofKey key: String, inner: String) -> (flag: String, value: String, given: Bool)? {
        // A channel takes no start (65): only the events a broadcast can carry are offered.
        let events = broadcast.channels.isEmpty ? "start|update|end" : "update|end"
        switch key {
        case "event": return ("--live-activity", events, liveActivity.event != nil)
        // Without an event, --live-activity is the flag to add: it sets the timestamp too.
        case "timestamp" where liveActivity.event == nil && liveActivity.timestamp == nil:
            return ("--live-activity", events, false)
        case "timestamp": return ("--timestamp", "now", liveActivity.timestamp != nil || liveActivity.event != nil)
        case "content-state": return ("--content-state", "JSON", liveActivity.contentState != nil)
        case "attributes-type": return ("--attributes-type", "NAME", liveActivity.attributesType != nil)
        case "attributes": return ("--attributes", "JSON", liveActivity.attributes != nil)
        case "stale-date": return ("--stale-date", "WHEN", liveActivity.staleDate != nil)
        case "dismissal-date": return ("--dismissal-date", "WHEN", liveActivity.dismissalDate != nil)
        case "relevance-score": return ("--relevance-score", "N", liveActivity.relevanceScore != nil)
        case "input-push-token": return ("--input-push-token", "", liveActivity.inputPushToken)
        case "input-push-channel": return ("--input-push-channel", "ID", liveActivity.inputPushChannel != nil)
        case "content-changed": return ("--content-changed", "", liveActivity.contentChanged)
        case "badge": return ("--badge", "N", request.badge != nil)
        case "sound": return ("--sound", "NAME", request.sound != nil)
        case "alert":
            switch inner {
            case "title": return ("--title", "TEXT", request.title != nil)
            case "sound": return ("--sound", "NAME", request.sound != nil)
            case "", "body":
                // A problem of the whole alert is the title's when --title alone made it, the sound's when --sound
                // alone did (a Live Activity's alert).
                let flag =
                    request.alert != nil || !inner.isEmpty
                    ? "--alert" : request.title != nil ? "--title" : request.sound != nil ? "--sound" : "--alert"
                return (flag, "TEXT", request.alert != nil || request.title != nil || request.sound != nil)
            default: return nil
            }
        case "content-available": return ("--content-available", "", request.contentAvailable)
        case "mutable-content": return ("--mutable-content", "", request.mutableContent)
        default:
            // Keys of the quick alert flags that share their key's name (`--category`, `--thread-id`, …).
            return key.allSatisfy { $0.isLetter || $0 == "-" } ? ("--" + key, "", true) : nil
        }
    }

    /// How `send` prints problem `p` of a PAYLOAD the flags edited, at a key a given flag wrote: named by the flag,
    /// as for a payload the flags built (its line and column are in the edited bytes, not in the file); nil for the
    /// file's own keys.
    func flagEditedLine(_ p: ValidationProblem) -> String? {
        guard let (key, inner) = Self.apsKey(of: p.path) else { return nil }
        // Only the keys the edit writes; the quick alert flags' other keys never edit a PAYLOAD (64).
        guard Self.editedKeys.contains(key), let writer = writer(ofKey: key, inner: inner), writer.given else {
            return nil
        }
        return "\(writer.flag): \(inner.isEmpty || key == "alert" ? "" : inner + ": ")\(Self.flagMessage(p.message))"
    }

    /// A problem's message as a flag's: a position in the payload the flags built or edited (`first at line 1,
    /// column 66`) is in text the user never saw, and is left out; a key to add into an alert the flags wrote is the
    /// flag that writes it.
    static func flagMessage(_ message: String) -> String {
        for (key, flag) in [("\"title\" and \"body\"", "--title TEXT and --alert TEXT"), ("\"body\"", "--alert TEXT")]
        where message.hasPrefix("alert ") && message.hasSuffix("; add " + key) {
            return message.dropLast(key.count) + flag
        }
        guard message.hasPrefix("duplicate key "), let open = message.firstRange(of: " (first at line "),
            let close = message[open.upperBound...].firstIndex(of: ")")
        else { return message }
        return String(message[..<open.lowerBound]) + String(message[message.index(after: close)...])
    }

    /// The `aps` key a problem's path is under and the rest of the path (`aps.alert.title`: `alert`, `title`); nil
    /// outside `aps`.
    private static func apsKey(of path: String) -> (key: String, inner: String)? {
        guard path.hasPrefix("aps.") else { return nil }
        let rest = path.dropFirst(4)
        let key = String(rest.prefix { $0 != "." && $0 != "[" })
        var inner = String(rest.dropFirst(key.count))
        if inner.hasPrefix(".") { inner.removeFirst() }
        return (key, inner)
    }

    /// The `aps` keys payload flags write into a PAYLOAD (a Live Activity's, and a widgets push's).
    private static let editedKeys: Set<String> = [
        "event", "timestamp", "content-state", "attributes-type", "attributes", "stale-date", "dismissal-date",
        "relevance-score", "input-push-token", "input-push-channel", "content-changed", "alert",
    ]

    /// How `send` prints problem `p` of a payload built from flags alone (`builtName`, which names them); nil leaves
    /// it under that name (whole-payload problems, keys no flag writes).
    func flagBuiltLine(_ p: ValidationProblem, builtName: String) -> String? {
        guard let (key, inner) = Self.apsKey(of: p.path) else { return nil }
        guard let writer = writer(ofKey: key, inner: inner) else { return nil }
        let missingSuffix = " in aps; add it"
        if !writer.given, p.message.hasSuffix(missingSuffix) {
            let need = p.message.dropLast(missingSuffix.count)
            let built = liveActivity.event.map { "--live-activity \($0)" } ?? builtName
            let add =
                key == "alert"
                ? "--title TEXT and --alert TEXT"
                : writer.value.isEmpty ? writer.flag : "\(writer.flag) \(writer.value)"
            return "\(built): \(need); add \(add)"
        }
        return "\(writer.flag): \(inner.isEmpty || key == "alert" ? "" : inner + ": ")\(Self.flagMessage(p.message))"
    }
}
