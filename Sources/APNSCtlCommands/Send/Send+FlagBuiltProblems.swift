import APNSCore

/// A payload built from flags alone has no file the user wrote, so its problems name the flag that set the key
/// (`--content-state: eta: …`), and a key the payload lacks names the flag to add, rather than a line and
/// column of JSON nobody wrote.
extension APNSCtl.Send {
    /// The flag that writes an `aps` key (`content-state`, `alert.title`), what its value is called in advice,
    /// and whether it was given.
    private func writer(ofKey key: String, inner: String) -> (flag: String, value: String, given: Bool)? {
        switch key {
        case "event": return ("--live-activity", "start|update|end", liveActivity.event != nil)
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
                return ("--alert", "TEXT", request.alert != nil || request.title != nil || request.sound != nil)
            default: return nil
            }
        default:
            // Keys of the quick alert flags that share their key's name (`--category`, `--thread-id`, …).
            return key.allSatisfy { $0.isLetter || $0 == "-" } ? ("--" + key, "", true) : nil
        }
    }

    /// How `send` prints problem `p` of a payload built from flags alone; nil leaves the usual `FILE:LINE:COLUMN`
    /// form (whole-payload problems, keys no flag writes).
    func flagBuiltLine(_ p: ValidationProblem) -> String? {
        guard p.path.hasPrefix("aps.") else { return nil }
        let rest = p.path.dropFirst(4)
        let key = String(rest.prefix { $0 != "." && $0 != "[" })
        var inner = String(rest.dropFirst(key.count))
        if inner.hasPrefix(".") { inner.removeFirst() }
        guard let writer = writer(ofKey: key, inner: inner) else { return nil }
        let missingSuffix = " in aps; add it"
        if !writer.given, p.message.hasSuffix(missingSuffix) {
            let need = p.message.dropLast(missingSuffix.count)
            let built = liveActivity.event.map { "--live-activity \($0)" } ?? "(flags)"
            let add = key == "alert" ? "--title TEXT and --alert TEXT" : "\(writer.flag) \(writer.value)"
            return "\(built): \(need); add \(add)"
        }
        return "\(writer.flag): \(inner.isEmpty || key == "alert" ? "" : inner + ": ")\(p.message)"
    }
}
