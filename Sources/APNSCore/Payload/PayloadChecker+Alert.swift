/// `aps.alert` (string or dictionary) and `aps.sound` (string or critical-alert dictionary).
extension PayloadChecker {
    /// Checks `aps.alert`; Live Activity alerts may hold `{"loc-key","loc-args"}` objects and a `sound`.
    mutating func checkAlert(_ value: JSONValue) {
        let path = "aps.alert"
        switch value.kind {
        case .string(let s):
            if s.isEmpty {
                warning(
                    path, at: value.start,
                    "alert is an empty string, so nothing is shown; give the text to show, or remove alert")
            } else if pushType == .liveactivity {
                // Apple documents only the object (ActivityKit's AlertConfiguration: title, body, sound).
                warning(
                    path, at: value.start,
                    "a Live Activity's alert is an object with title, body and sound; Apple documents no string "
                        + "form: write the text as {\"title\": …, \"body\": …}")
            }
        case .object(let all):
            if all.isEmpty {
                warning(
                    path, at: value.start, "alert is an empty object, so nothing is shown; add \"title\" and \"body\"")
                return
            }
            let members = JSONValue.effectiveMembers(all)
            for m in members { checkAlertMember(m, in: members) }
            reportUnlistedKeys(
                of: value, path: path, at: lastUnknownKey(members, known: Self.knownAlertKeys, after: value.start),
                what: "unknown alert keys",
                advice: "they are ignored; alert keys are \(APSKey.alertKeys.joined(separator: ", "))")
            let shown = ["title", "subtitle", "body", "title-loc-key", "subtitle-loc-key", "loc-key"]
            let present = members.filter { shown.contains($0.key) }
            if present.isEmpty {
                warning(
                    path, at: value.start,
                    "alert has no title, subtitle, body or loc-key, so nothing is shown; add \"body\"")
            } else if present.allSatisfy({ $0.value.string?.isEmpty == true }) {
                // `{"body":""}`: as empty as `"alert":""`.
                let names = present.map(\.key).joined(separator: " and ")
                warning(
                    path, at: value.start,
                    "alert's \(names) \(present.count == 1 ? "is" : "are") empty, so nothing is shown; give the text to show"
                )
            }
        default:
            error(
                path, at: value.start, "alert must be a string or an object with title and body, found \(value.summary)"
            )
        }
    }

    private mutating func checkAlertMember(_ m: JSONMember, in members: [JSONMember]) {
        let path = "aps.alert." + m.shownKey
        let isLiveActivity = pushType == .liveactivity
        switch m.key {
        case "title", "subtitle", "body":
            if m.value.string != nil { return }
            if isLiveActivity, let loc = m.value.members {
                checkLocalizedText(m.value, members: JSONValue.effectiveMembers(loc), path: path)
                return
            }
            let alternative = isLiveActivity ? " or an object with loc-key and loc-args" : ""
            error(
                path, at: m.value.start,
                "\(m.key) must be a string\(alternative), found \(m.value.summary)\(quoteHint(m.value))")
        case "launch-image", "title-loc-key", "subtitle-loc-key", "loc-key":
            checkString(m.value, path: path, name: m.key)
        case "title-loc-args", "subtitle-loc-args", "loc-args":
            checkStringArray(m.value, path: path)
            let keyName = String(m.key.dropLast("-args".count)) + "-key"
            if !members.contains(where: { $0.key == keyName }) {
                warning(
                    path, at: m.keyStart,
                    "\(m.key) without \(keyName) has no effect; add \"\(keyName)\" naming the format string, or remove \(m.key)"
                )
            }
        case "sound" where isLiveActivity:
            checkString(m.value, path: path, name: "alert.sound")
        case "sound":
            warning(
                path, at: m.keyStart, "alert.sound has no effect outside a Live Activity; put the sound in aps.sound")
        case _ where APSKey.legacyAlertKeys.contains(m.key):
            warning(
                path, at: m.keyStart,
                "\(m.key) is a legacy alert key Apple no longer documents; the device may ignore it: remove it")
        default:
            let candidates = APSKey.alertKeys + (isLiveActivity ? ["sound"] : [])
            let mean =
                Suggestion.closest(to: m.key, among: candidates)
                .map { "; did you mean \(JSONWriter.quoted($0))?" }
                ?? "; alert keys are \(APSKey.alertKeys.joined(separator: ", "))"
            warning(path, at: m.keyStart, "unknown alert key \(JSONWriter.quoted(m.shownKey)) is ignored\(mean)")
        }
    }

    /// A Live Activity's localized `title`/`body`: `{"loc-key": "…", "loc-args": ["…"]}`.
    private mutating func checkLocalizedText(_ value: JSONValue, members: [JSONMember], path: String) {
        if !members.contains(where: { $0.key == "loc-key" }) {
            error(
                path, at: value.start,
                "a localized \(lastComponent(path)) needs \"loc-key\" naming the format string; add it")
        }
        for m in members {
            switch m.key {
            case "loc-key": checkString(m.value, path: path + ".loc-key", name: "loc-key")
            case "loc-args": checkStringArray(m.value, path: path + ".loc-args")
            default:
                warning(
                    path + "." + m.shownKey, at: m.keyStart,
                    "unknown key \(JSONWriter.quoted(m.shownKey)) is ignored\(Suggestion.didYouMean(m.key, among: ["loc-key", "loc-args"]))"
                )
            }
        }
        reportUnlistedKeys(
            of: value, path: path, at: lastUnknownKey(members, known: ["loc-key", "loc-args"], after: value.start),
            what: "unknown keys",
            advice: "they are ignored; a localized \(lastComponent(path)) holds loc-key and loc-args")
    }

    /// Every key `checkAlertMember` knows (the others are warned about as unknown).
    static let knownAlertKeys = APSKey.alertKeys + APSKey.legacyAlertKeys + ["sound"]

    /// Where the last member of `members` not in `known` starts (`start` when none): the count of the unknown keys
    /// not listed follows it.
    func lastUnknownKey(_ members: [JSONMember], known: [String], after start: Int) -> Int {
        members.reduce(start) { known.contains($1.key) ? $0 : max($0, $1.keyStart) }
    }

    /// Checks `aps.sound`: a file name (or `"default"`), or for critical alerts `{critical, name, volume}`.
    mutating func checkSound(_ value: JSONValue) {
        let path = "aps.sound"
        switch value.kind {
        case .string(let s):
            if s.isEmpty {
                warning(
                    path, at: value.start,
                    "sound is empty, so no sound plays; use \"default\" or a sound file in the app bundle, or remove it"
                )
            }
        case .object(let all):
            let members = JSONValue.effectiveMembers(all)
            // APNS.md §4: the object is for critical alerts only; without `critical` it is one by accident.
            if !members.contains(where: { $0.key == "critical" }) {
                warning(
                    path, at: value.start,
                    "a sound object is for critical alerts, and this one has no \"critical\": 1; use a plain sound name (\"sound\": \"default\"), or add \"critical\": 1 for a critical alert"
                )
            }
            if !members.contains(where: { $0.key == "name" }) {
                warning(
                    path + ".name", at: value.start,
                    "critical-alert sound has no \"name\", so no sound plays; add \"name\": \"default\"")
            }
            for m in members {
                let p = path + "." + m.shownKey
                switch m.key {
                case "critical":
                    // APNS.md §4: 1 is a critical alert, 0 is allowed but pointless, anything else is an error.
                    if let n = m.value.number, n.isIntegerLiteral, n.intValue == 0 {
                        warning(
                            p, at: m.value.start,
                            "critical 0 is not a critical alert; use a plain sound name (\"sound\": \"default\"), or 1 for a critical alert"
                        )
                    } else if m.value.number?.isIntegerOne != true {
                        error(
                            p, at: m.value.start,
                            "critical must be the number 1 for a critical alert (or 0), found \(m.value.summary)\(unquoteHint(m.value))"
                        )
                    }
                case "name":
                    checkString(m.value, path: p, name: "sound.name")
                case "volume":
                    guard let n = m.value.number else {
                        error(
                            p, at: m.value.start,
                            "volume must be a number from 0 (silent) to 1 (full), found \(m.value.summary)\(unquoteHint(m.value))"
                        )
                        continue
                    }
                    let v = n.doubleValue
                    if !(v >= 0 && v <= 1) {
                        error(p, at: m.value.start, "volume must be from 0 (silent) to 1 (full), found \(n.literal)")
                    }
                default:
                    let mean =
                        Suggestion.closest(to: m.key, among: APSKey.soundKeys)
                        .map { "; did you mean \(JSONWriter.quoted($0))?" } ?? "; sound keys are critical, name, volume"
                    warning(p, at: m.keyStart, "unknown sound key \(JSONWriter.quoted(m.shownKey)) is ignored\(mean)")
                }
            }
            reportUnlistedKeys(
                of: value, path: path, at: lastUnknownKey(members, known: APSKey.soundKeys, after: value.start),
                what: "unknown sound keys", advice: "they are ignored; sound keys are critical, name, volume")
        default:
            error(
                path, at: value.start,
                "sound must be a string (a sound file name or \"default\") or, for critical alerts, an object, found \(value.summary)"
            )
        }
    }
}
