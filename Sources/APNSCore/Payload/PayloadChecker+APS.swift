/// The `aps` dictionary: each known key's type and value, unknown keys with "did you mean",
/// and keys that mean nothing for the push type at hand.
extension PayloadChecker {
    /// Checks `aps` (an object) whose effective members are `members`.
    mutating func checkAPS(_ aps: JSONValue, members: [JSONMember]) {
        let names = APSKey.allCases.map(\.rawValue)
        var lastUnknown = aps.start
        for member in members {
            guard let key = APSKey(rawValue: member.key) else {
                lastUnknown = max(lastUnknown, member.keyStart)
                // An alert's or a critical sound's key one level too high: moved to the top level it still shows
                // nothing, so the advice is where it belongs.
                // (In any letter case: `Title` is the alert's `title` too, spelt as it is written there.)
                let lower = member.key.lowercased()
                let home =
                    APSKey.alertKeys.first { $0 == lower }.map {
                        "; it belongs in aps.alert: {\"aps\":{\"alert\":{\(JSONWriter.quoted($0)):…}}}"
                    }
                    ?? APSKey.soundKeys.first { $0 == lower }.map {
                        "; it belongs in aps.sound, a critical alert's sound: {\"aps\":{\"sound\":{\(JSONWriter.quoted($0)):…}}}"
                    }
                let quoted = JSONWriter.quoted(member.shownKey)
                warning(
                    "aps." + member.shownKey, at: member.keyStart,
                    "unknown aps key \(quoted) is ignored by APNs"
                        + (home
                            ?? Suggestion.closest(to: member.key, among: names).map {
                                "; did you mean \(JSONWriter.quoted($0))?"
                            }
                            ?? "; put custom data beside \"aps\", at the top level"))
                continue
            }
            checkApplicability(key, member)
            checkValue(key, member.value)
        }
        reportUnlistedKeys(
            of: aps, path: "aps", at: lastUnknown, what: "unknown aps keys",
            advice: "APNs ignores them: put custom data beside \"aps\", at the top level")
        checkPushTypeRules(aps, members: members)
    }

    /// A key Apple defines for other push types has no effect here (background is stricter: see its rules).
    private mutating func checkApplicability(_ key: APSKey, _ member: JSONMember) {
        let types = key.pushTypes
        guard !types.contains(pushType), pushType != .background else { return }
        let laOnly = types == [.liveactivity]
        switch pushType {
        case .alert, .liveactivity, .widgets, .controls: break
        default: guard laOnly else { return }  // app-defined payloads: only Live Activity keys are suspicious
        }
        let advice: String
        if laOnly {
            advice = "it is a Live Activity key: send with \(names.pushType) liveactivity, or remove it"
        } else if pushType == .liveactivity && key == .sound {
            advice = "a Live Activity plays the sound named in aps.alert.sound"
        } else if pushType == .widgets || pushType == .controls {
            advice = "\(pushType.rawValue) pushes carry only content-changed: remove it"
        } else {
            advice = "it is for \(types.map(\.rawValue).sorted().joined(separator: " and ")) pushes: remove it"
        }
        warning(
            "aps." + key.rawValue, at: member.keyStart,
            "\(key.rawValue) has no effect on \(pushType.rawValue) pushes; \(advice)")
    }

    /// The type and value rules of one known key.
    private mutating func checkValue(_ key: APSKey, _ value: JSONValue) {
        let path = "aps." + key.rawValue
        switch key {
        case .alert:
            checkAlert(value)
        case .sound:
            checkSound(value)
        case .badge:
            checkBadge(value, path: path)
        case .contentAvailable, .mutableContent:
            if pushType == .background && key == .contentAvailable { return }  // stricter rule in checkBackground
            checkFlagOne(key, value)
        case .inputPushChannel:
            checkChannelID(value, path: path)
        case .threadID, .category, .targetContentID, .filterCriteria, .attributesType:
            checkString(value, path: path, name: key.rawValue)
            // Empty, as an unset shell variable makes it (`--category "$CATEGORY"`): it does nothing, which is not
            // what was meant.
            if value.string?.isEmpty == true, key == .category || key == .threadID {
                let effect =
                    key == .category
                    ? "no notification category (and none of its actions) is chosen"
                    : "the notification is grouped with the app's other notifications, as without it"
                warning(path, at: value.start, "\(key.rawValue) is empty, so \(effect); give a value, or remove it")
            }
        case .interruptionLevel:
            checkOneOf(value, path: path, name: key.rawValue, allowed: APSKey.interruptionLevels)
        case .event:
            checkOneOf(value, path: path, name: key.rawValue, allowed: APSKey.liveActivityEvents)
        case .relevanceScore:
            guard let n = value.number else {
                error(
                    path, at: value.start,
                    "relevance-score must be a number, found \(value.summary)\(unquoteHint(value))")
                return
            }
            let score = n.doubleValue
            if pushType != .liveactivity, !(score >= 0 && score <= 1) {
                error(
                    path, at: value.start,
                    "relevance-score must be between 0 and 1 for \(pushType.rawValue) pushes, found \(n.literal)")
            }
        case .urlArgs:
            checkStringArray(value, path: path)
        case .contentChanged:
            if value.bool != true {
                error(
                    path, at: value.start,
                    "content-changed must be true, found \(value.summary); write \"content-changed\": true")
            }
        case .timestamp, .staleDate, .dismissalDate:
            checkSeconds(value, path: path, name: key.rawValue)
        case .contentState, .attributes:
            if !value.isObject {
                error(
                    path, at: value.start,
                    "\(key.rawValue) must be an object, found \(value.summary); it is decoded into your ActivityAttributes\(key == .contentState ? ".ContentState" : "")"
                )
            }
        case .inputPushToken:
            if value.number?.isIntegerOne != true {
                error(
                    path, at: value.start,
                    "input-push-token must be the number 1 (asks for an update token), found \(value.summary)")
            }
        }
    }

    private mutating func checkBadge(_ value: JSONValue, path: String) {
        let base = "badge must be a non-negative integer, found \(value.summary)"
        guard let n = value.number else {
            if let s = value.wholeString, let i = Int(s), i >= 0 {
                error(path, at: value.start, base + "; write \(i) without quotes")
            } else {
                error(path, at: value.start, base + "; use a count such as 1, or 0 to remove the badge")
            }
            return
        }
        guard n.isIntegerLiteral else {
            let d = n.doubleValue
            let example = d >= 0 && d < 1e15 ? " such as \(Int(d.rounded(.down)))" : ""
            error(path, at: value.start, base + "; use a whole number\(example)")
            return
        }
        guard let i = n.intValue else {
            error(path, at: value.start, "badge \(n.literal) is too large; use a count the app can show")
            return
        }
        if i < 0 { error(path, at: value.start, base + "; use 0 to remove the badge") }
    }

    /// `content-available` and `mutable-content`: the number 1 does something, 0 does nothing, anything else is wrong.
    mutating func checkFlagOne(_ key: APSKey, _ value: JSONValue) {
        let path = "aps." + key.rawValue
        if value.number?.isIntegerOne == true { return }
        if let n = value.number, n.isIntegerLiteral, n.intValue == 0 {
            warning(path, at: value.start, "\(key.rawValue) 0 has no effect; use 1 or remove the key")
            return
        }
        let fix =
            value.bool == true || value.wholeString == "1" || value.number?.doubleValue == 1
            ? "; write 1" : "; use 1 or remove the key"
        error(path, at: value.start, "\(key.rawValue) must be the number 1, found \(value.summary)\(fix)")
    }

    /// A key whose value must be a string.
    mutating func checkString(_ value: JSONValue, path: String, name: String) {
        if value.string == nil {
            error(path, at: value.start, "\(name) must be a string, found \(value.summary)\(quoteHint(value))")
        }
    }

    /// A key whose value must be one of `allowed`, with "did you mean" for near misses.
    mutating func checkOneOf(_ value: JSONValue, path: String, name: String, allowed: [String]) {
        if let s = value.wholeString, allowed.contains(s) { return }
        let mean = value.wholeString.map { Suggestion.didYouMean($0, among: allowed) } ?? ""
        error(
            path, at: value.start,
            "\(name) must be one of \(allowed.joined(separator: ", ")), found \(value.summary)\(mean)")
    }

    /// A key whose value must be an array of strings; each bad element is reported at its own path, the first 20,
    /// then a count. The elements are walked in the source (`JSONChildScan`): the array is not kept, whatever its size.
    mutating func checkStringArray(_ value: JSONValue, path: String) {
        guard value.elements != nil else {
            let wrap = value.wholeString.map { "; wrap it: [\(JSONWriter.quoted($0))]" } ?? ""
            error(
                path, at: value.start,
                "\(lastComponent(path)) must be an array of strings, found \(value.summary)\(wrap)")
            return
        }
        var (index, count, lastListed) = (0, 0, value.start)
        JSONChildScan.forEachElement(in: source, array: value.start..<value.end) { range in
            defer { index += 1 }
            guard source[range.lowerBound] != UInt8(ascii: "\""), let element = Self.nonString(in: source, at: range)
            else { return }
            count += 1
            guard count <= JSONMemberFilter.listedLimit else { return }
            lastListed = range.lowerBound
            error(
                "\(path)[\(index)]", at: range.lowerBound,
                "every element must be a string, found \(element.summary)\(quoteHint(element))")
        }
        let unlisted = count - JSONMemberFilter.listedLimit
        if unlisted > 0 {
            error(
                path, at: lastListed,
                "\(unlisted) more non-string element\(unlisted == 1 ? "" : "s") not listed (\(count) in all); every element of \(lastComponent(path)) must be a string"
            )
        }
    }

    /// The element at `range` of `source` (valid JSON, not a string) as far as a message describes it: a number's
    /// or literal's value, an object's or array's kind and position.
    private static func nonString(in source: [UInt8], at range: Range<Int>) -> JSONValue? {
        var parser = JSONParser(bytes: source)
        parser.index = range.lowerBound
        switch source[range.lowerBound] {
        case UInt8(ascii: "{"): return JSONValue(kind: .object([]), start: range.lowerBound, end: range.upperBound)
        case UInt8(ascii: "["): return JSONValue(kind: .array([]), start: range.lowerBound, end: range.upperBound)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return (try? parser.parseNumber()).map {
                JSONValue(kind: .number($0), start: range.lowerBound, end: range.upperBound)
            }
        default:
            return try? parser.parseLiteral()
        }
    }

    /// UNIX seconds: a number; a value above 10^11 is almost surely milliseconds.
    private mutating func checkSeconds(_ value: JSONValue, path: String, name: String) {
        guard let n = value.number else {
            error(
                path, at: value.start,
                "\(name) must be a number of UNIX seconds, found \(value.summary)\(unquoteHint(value))")
            return
        }
        guard n.doubleValue > 1e11 else { return }
        // Up to 10^14 (the year 5138 in milliseconds) it is milliseconds; above, no time at all, which dividing by
        // 1000 would not mend.
        let milliseconds = n.doubleValue <= 1e14
        let what = milliseconds ? "looks like milliseconds" : "is no time (too large for seconds or milliseconds)"
        if name == APSKey.timestamp.rawValue && sending {
            error(
                path, at: value.start,
                "\(name) \(n.literal) \(what); iOS keeps the highest timestamp it has seen, so every later update with a timestamp in seconds would be dropped: \(names.freshTimestamp)"
            )
        } else {
            warning(
                path, at: value.start,
                "\(name) \(n.literal) \(what); APNs wants UNIX seconds"
                    + (milliseconds ? ": divide by 1000" : " (date +%s gives now)"))
        }
    }

    /// The members of `object` listed past `JSONMemberFilter.listedLimit` (`JSONValue.unlistedMembers`): one
    /// warning counting them, after the last one listed (`lastListed`), as duplicate keys are counted.
    mutating func reportUnlistedKeys(
        of object: JSONValue, path: String, at lastListed: Int, what: String, advice: String
    ) {
        let unlisted = object.unlistedMembers
        guard unlisted > 0 else { return }
        warning(
            path, at: lastListed,
            "\(unlisted) more \(what) not listed (\(unlisted + JSONMemberFilter.listedLimit) in all); \(advice)")
    }

    /// `; put it in quotes` for a number or boolean where a string was wanted.
    func quoteHint(_ value: JSONValue) -> String {
        switch value.kind {
        case .number, .bool: return "; put it in quotes"
        default: return ""
        }
    }

    /// `; remove the quotes` for a numeric string where a number was wanted.
    func unquoteHint(_ value: JSONValue) -> String {
        if let s = value.wholeString, Double(s) != nil { return "; remove the quotes" }
        return ""
    }

    /// The last component of a dotted path, for messages (`loc-args` from `aps.alert.loc-args`).
    func lastComponent(_ path: String) -> String {
        path.split(separator: ".").last.map(String.init) ?? path
    }
}
