/// Rules across keys that depend on the push type: background, alert, Live Activity, widgets and controls.
extension PayloadChecker {
    /// Runs the rules of the current push type over `aps` and its effective members.
    mutating func checkPushTypeRules(_ aps: JSONValue, members: [JSONMember]) {
        switch pushType {
        case .background: checkBackground(aps, members: members)
        case .alert: checkAlertPush(aps, members: members)
        case .liveactivity: checkLiveActivity(aps, members: members)
        case .widgets, .controls:
            if !members.contains(where: { $0.key == APSKey.contentChanged.rawValue }) {
                error(
                    "aps.content-changed", at: aps.start,
                    "\(pushType.rawValue) pushes need \"content-changed\": true in aps; add it")
            }
        case .voip, .pushtotalk, .complication, .fileprovider, .location, .mdm:
            break  // app-defined payloads
        }
    }

    /// Background: `aps` is exactly `{"content-available":1}`; nothing visible.
    private mutating func checkBackground(_ aps: JSONValue, members: [JSONMember]) {
        var sawFlag = false
        for m in members {
            let path = "aps." + m.key
            switch APSKey(rawValue: m.key) {
            case .contentAvailable?:
                sawFlag = true
                if let n = m.value.number, n.isIntegerLiteral, n.intValue == 0 {
                    error(path, at: m.value.start, "content-available is 0, but background pushes need 1; write 1")
                } else {
                    checkFlagOne(.contentAvailable, m.value)
                }
            case .alert?, .badge?, .sound?:
                error(
                    path, at: m.keyStart,
                    "background pushes cannot carry \(m.key); APNs may delay or drop them: remove it, or send an alert push (\(names.pushType) alert)"
                )
            case nil:
                break  // reported as an unknown key
            case let key?:
                warning(
                    path, at: m.keyStart,
                    "\(key.rawValue) has no effect on background pushes, whose aps holds only content-available: remove it"
                )
            }
        }
        if !sawFlag {
            error(
                "aps.content-available", at: aps.start, "background pushes need \"content-available\": 1 in aps; add it"
            )
        }
    }

    /// Alert: something must be visible or audible; a service extension needs a visible alert.
    private mutating func checkAlertPush(_ aps: JSONValue, members: [JSONMember]) {
        let has = { (key: APSKey) in members.contains { $0.key == key.rawValue } }
        if !APSKey.visibleKeys.contains(where: has) {
            // An empty aps beside the app's own keys is the shape of a PushKit payload sent without its type.
            let pushKit =
                members.isEmpty && hasOwnKeys
                ? "; an empty aps beside the app's own keys is how VoIP and push-to-talk payloads look: for one of "
                    + "those, give \(names.pushType) voip or pushtotalk" : ""
            // Already a background payload, judged as an alert because the type was given: the type is the slip.
            let background =
                members.count == 1 && members[0].key == APSKey.contentAvailable.rawValue
                && members[0].value.number?.isIntegerOne == true
            warning(
                "aps", at: aps.start,
                background
                    ? "an alert push with no alert, badge or sound shows nothing, and this aps holds only content-available: for a background push, give \(names.pushType) background (priority 5)"
                    : "an alert push with no alert, badge or sound shows nothing; add one, or send a background push (aps holding only \"content-available\": 1)"
                        + pushKit)
        }
        if !has(.alert), let m = members.last(where: { $0.key == APSKey.mutableContent.rawValue }),
            m.value.number?.isIntegerOne == true
        {
            warning(
                "aps.mutable-content", at: m.value.start,
                "mutable-content 1 without an alert: the notification service extension runs only for visible alerts; add aps.alert"
            )
        }
    }

    /// Live Activity: `event`, `timestamp` and `content-state` always; `start` also needs `alert`,
    /// `attributes-type` and `attributes`; `dismissal-date` only matters on `end`.
    private mutating func checkLiveActivity(_ aps: JSONValue, members: [JSONMember]) {
        func member(_ key: APSKey) -> JSONMember? { members.last { $0.key == key.rawValue } }
        func require(_ needs: [(APSKey, String)], _ who: String) {
            for (key, what) in needs where member(key) == nil {
                // Reported at the missing key's own path, positioned at the object that lacks it.
                error("aps." + key.rawValue, at: aps.start, "\(who) \(what) in aps; add it")
            }
        }
        require(
            [
                (.event, "\"event\": \"start\", \"update\" or \"end\""),
                (.timestamp, "\"timestamp\" (UNIX seconds of this update; older updates are ignored)"),
                (.contentState, "\"content-state\" (the activity's ContentState as JSON)"),
            ],
            "Live Activity pushes need")
        if let timestamp = member(.timestamp) { checkTimestampDistance(timestamp.value) }
        if let stale = member(.staleDate) { checkStaleDate(stale.value, timestamp: member(.timestamp)?.value) }
        if let state = member(.contentState), state.value.isObject {
            checkContentStateDates(state.value, path: "aps.content-state")
        }
        guard let event = member(.event)?.value.string, APSKey.liveActivityEvents.contains(event) else { return }
        if event == "start" {
            require(
                [
                    (.alert, "\"alert\" (shown when the activity starts)"),
                    (.attributesType, "\"attributes-type\" (your ActivityAttributes type name)"),
                    (.attributes, "\"attributes\" (the activity's static attributes)"),
                ],
                "a Live Activity start needs")
            // No ActivityAttributes type has an empty name: the start fails on the device as without the key.
            if let m = member(.attributesType), let name = m.value.string, name.allSatisfy(\.isWhitespace) {
                error(
                    "aps.attributes-type", at: m.value.start,
                    "attributes-type is empty; give your ActivityAttributes type's name (for struct MatchAttributes: \"MatchAttributes\")"
                )
            } else if let m = member(.attributesType), let name = m.value.string,
                let odd = name.first(where: {
                    $0.isWhitespace || "\"'()".contains($0) || TypographicQuote.characters.contains($0)
                })
            {
                // What no type's name holds (Swift takes emoji, `·`, `Match<Int>`): quotes kept from a paste, a blank,
                // `()` or `.self`; the start fails on the device without a word.
                let kept = name.hasSuffix(".self") ? " (without .self)" : ""
                error(
                    "aps.attributes-type", at: m.value.start,
                    "attributes-type \(JSONWriter.quoted(name)) is no Swift type name (found \(JSONWriter.quoted(String(odd)))); give the ActivityAttributes type's name alone\(kept), such as \"MatchAttributes\""
                )
            } else if let m = member(.attributesType), let name = m.value.string, name.hasSuffix(".self") {
                error(
                    "aps.attributes-type", at: m.value.start,
                    "attributes-type \(JSONWriter.quoted(name)) is no Swift type name; give the type's name without .self, such as \"MatchAttributes\""
                )
            }
        } else {
            for key in [APSKey.attributesType, .attributes] {
                if let m = member(key) {
                    warning(
                        "aps." + key.rawValue, at: m.keyStart,
                        "\(key.rawValue) is used only when event is start; remove it")
                }
            }
        }
        checkPushInputs(members: members, event: event)
        if event != "end", let m = member(.dismissalDate) {
            warning("aps.dismissal-date", at: m.keyStart, "dismissal-date is used only when event is end; remove it")
        }
        // A saved end sent again with a fresh timestamp keeps its old dismissal date: "stay an hour" became "remove
        // now", on every activity of a channel. Earlier than the timestamp by a minute or more is said (a Date's
        // seconds since 2001 too); a tiny one (`1`, APNS.md's "past = now" written on purpose) is not.
        if event == "end", let d = member(.dismissalDate)?.value, let n = d.number,
            let t = member(.timestamp)?.value.number?.doubleValue, t.isFinite, t <= 1e11,
            case let seconds = n.doubleValue, seconds.isFinite, seconds >= 1e6, seconds <= t - 60
        {
            warning(
                "aps.dismissal-date", at: d.start,
                "dismissal-date \(n.literal) (\(ISO8601.format(epochSeconds: Int64(seconds)))) is \(Self.describe(distance: t - seconds)) before the timestamp, so the activity is removed the moment the end arrives; \(names.laterDismissalDate)"
            )
        }
    }
}
