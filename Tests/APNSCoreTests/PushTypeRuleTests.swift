import Testing

@testable import APNSCore

/// Rules across keys that depend on the push type (APNS.md §3 and §4).
@Suite struct PushTypeRuleTests {
    @Test func backgroundIsContentAvailableOnly() {
        #expect(check("{\"aps\":{\"content-available\":1},\"custom\":{\"a\":1}}", type(.background)).problems.isEmpty)
        for key in ["alert", "badge", "sound"] {
            let r = check("{\"aps\":{\"content-available\":1,\"\(key)\":\"x\"}}", type(.background))
            #expect(
                r.hasError("aps.\(key)", "background pushes cannot carry \(key); APNs may delay or drop them"),
                "\(r.listing)")
        }
        let extra = check("{\"aps\":{\"content-available\":1,\"thread-id\":\"t\"}}", type(.background))
        #expect(extra.hasWarning("aps.thread-id", "thread-id has no effect on background pushes"))
        #expect(!extra.hasErrors)
        #expect(
            check("{\"aps\":{}}", type(.background)).hasError(
                "aps.content-available", "background pushes need \"content-available\": 1 in aps"))
        #expect(
            check("{\"aps\":{\"content-available\":0}}", type(.background)).hasError(
                "aps.content-available", "content-available is 0, but background pushes need 1"))
        #expect(
            check("{\"aps\":{\"content-available\":\"1\"}}", type(.background)).hasError(
                "aps.content-available", "must be the number 1"))
    }

    @Test func alertPushNeedsSomethingVisible() {
        #expect(check("{\"aps\":{\"badge\":0}}").problems.isEmpty)
        #expect(check("{\"aps\":{\"sound\":\"default\"}}").problems.isEmpty)
        let r = check("{\"aps\":{\"thread-id\":\"t\"}}")
        #expect(r.hasWarning("aps", "an alert push with no alert, badge or sound shows nothing"))
        #expect(!r.hasErrors)
        #expect(!r.listing.contains("VoIP"), "\(r.listing)")
        // Already a background payload, judged as an alert (the type given): the advice is the type, not the payload.
        let background = check("{\"aps\":{\"content-available\":1}}", type(.alert))
        #expect(
            background.hasWarning(
                "aps",
                "shows nothing, and this aps holds only content-available: for a background push, give apns-push-type background (priority 5)"
            ), "\(background.listing)")
        // An empty aps beside keys of the app's own: a VoIP or push-to-talk payload sent without its type.
        let voip = check("{\"aps\":{},\"call-id\":\"42\"}")
        #expect(
            voip.hasWarning(
                "aps",
                "; an empty aps beside the app's own keys is how VoIP and push-to-talk payloads look: for one of those, give apns-push-type voip or pushtotalk"
            ), "\(voip.listing)")
        #expect(!check("{\"aps\":{}}").listing.contains("VoIP"))
        #expect(check("{\"aps\":{},\"call-id\":\"42\"}", type(.voip)).problems.isEmpty)
        // Apple's own keys and slips are not the app's: no VoIP hint for them. An aps key at the top level is
        // ignored by the device, and said.
        for other in ["\"mdm\":\"m\"", "\"apss\":{}"] {
            #expect(!check("{\"aps\":{},\(other)}").listing.contains("VoIP"), "\(other)")
        }
        let misplaced = check("{\"aps\":{},\"alert\":\"Hi\"}")
        #expect(!misplaced.listing.contains("VoIP"), "\(misplaced.listing)")
        #expect(
            misplaced.hasWarning(
                "alert",
                "alert is outside aps, where iOS does not act on it (the app only receives it as its own key); if it is meant for iOS, move it into aps"
            ), "\(misplaced.listing)")
        // An app's own key that shares an aps key's name (event, category) is the app's; so is an alert key
        // beside aps.alert, and a PushKit payload's.
        for own in [
            "{\"aps\":{\"alert\":\"x\"},\"event\":\"shipped\"}", "{\"aps\":{\"alert\":\"x\"},\"category\":\"news\"}",
            "{\"aps\":{\"alert\":\"x\"},\"alert\":\"mine\"}",
        ] {
            #expect(!check(own).listing.contains("outside aps"), "\(own)")
        }
        #expect(!check("{\"aps\":{},\"alert\":\"Hi\"}", type(.voip)).listing.contains("outside aps"))
        // No aps at all, only the app's own keys: the same hint beside the error.
        let bare = check("{\"call-id\":\"42\"}")
        #expect(
            bare.hasError(
                "aps",
                "; or, for a payload of the app's own keys alone, give apns-push-type with its type (voip, pushtotalk, complication, fileprovider or location)"
            ), "\(bare.listing)")
    }

    @Test func mutableContentNeedsAnAlert() {
        #expect(check("{\"aps\":{\"alert\":\"a\",\"mutable-content\":1}}").problems.isEmpty)
        #expect(
            check("{\"aps\":{\"badge\":1,\"mutable-content\":1}}").hasWarning(
                "aps.mutable-content", "the notification service extension runs only for visible alerts"))
    }

    @Test func liveActivityRequiredFields() {
        let update = "{\"aps\":{\"event\":\"update\",\"timestamp\":1,\"content-state\":{\"a\":1}}}"
        #expect(check(update, type(.liveactivity)).problems.isEmpty)
        let missing = check("{\"aps\":{}}", type(.liveactivity))
        #expect(missing.hasError("aps.event", "Live Activity pushes need \"event\""))
        #expect(missing.hasError("aps.timestamp", "Live Activity pushes need \"timestamp\""))
        #expect(missing.hasError("aps.content-state", "Live Activity pushes need \"content-state\""))
        let start =
            "{\"aps\":{\"event\":\"start\",\"timestamp\":1,\"content-state\":{},\"alert\":{\"title\":\"t\",\"body\":\"b\"},\"attributes-type\":\"A\",\"attributes\":{}}}"
        #expect(check(start, type(.liveactivity)).problems.isEmpty)
        let bareStart = check(
            "{\"aps\":{\"event\":\"start\",\"timestamp\":1,\"content-state\":{}}}", type(.liveactivity))
        #expect(bareStart.hasError("aps.alert", "a Live Activity start needs \"alert\""))
        #expect(bareStart.hasError("aps.attributes-type", "a Live Activity start needs \"attributes-type\""))
        #expect(bareStart.hasError("aps.attributes", "a Live Activity start needs \"attributes\""))
        // An empty type name matches no ActivityAttributes type: the start fails as without the key.
        let emptyType = check(
            start.replacing(#""attributes-type":"A""#, with: #""attributes-type":"""#),
            type(.liveactivity))
        #expect(
            emptyType.hasError(
                "aps.attributes-type", "attributes-type is empty; give your ActivityAttributes type's name"))
        // A value no Swift type is named by (quotes kept from a paste, a blank, `()`, `.self`): the same failure.
        for bad in [#"\"MatchAttributes\""#, "Match Attributes", "MatchAttributes()", "MatchAttributes.self"] {
            let r = check(
                start.replacing(#""attributes-type":"A""#, with: #""attributes-type":"# + JSONWriter.quoted(bad)),
                type(.liveactivity))
            #expect(r.hasError("aps.attributes-type", "is no Swift type name"), "\(bad): \(r.listing)")
        }
        for good in [
            "MatchAttributes", "Outer.MatchAttributes", "Attributes_2", "🏈Attributes", "Spiel·Info", "Match<Int>",
        ] {
            let r = check(
                start.replacing(#""attributes-type":"A""#, with: #""attributes-type":"# + JSONWriter.quoted(good)),
                type(.liveactivity))
            #expect(!r.hasErrors, "\(good): \(r.listing)")
        }
        // Where the key does nothing (an alert push, an update) an empty one is only the key Apple ignores.
        #expect(!check(#"{"aps":{"alert":"hi","attributes-type":""}}"#, type(.alert)).hasErrors)
    }

    @Test func liveActivityEventSpecificKeys() {
        let update = check(
            "{\"aps\":{\"event\":\"update\",\"timestamp\":1,\"content-state\":{},\"attributes-type\":\"A\",\"attributes\":{},\"dismissal-date\":2}}",
            type(.liveactivity))
        #expect(update.hasWarning("aps.attributes-type", "attributes-type is used only when event is start"))
        #expect(update.hasWarning("aps.attributes", "attributes is used only when event is start"))
        #expect(update.hasWarning("aps.dismissal-date", "dismissal-date is used only when event is end"))
        #expect(!update.hasErrors)
        let end = check(
            "{\"aps\":{\"event\":\"end\",\"timestamp\":1,\"content-state\":{},\"dismissal-date\":2}}",
            type(.liveactivity))
        #expect(end.problems.isEmpty)
        #expect(
            check(
                "{\"aps\":{\"event\":\"update\",\"timestamp\":1762166400000,\"content-state\":{}}}", type(.liveactivity)
            )
            .hasWarning("aps.timestamp", "timestamp 1762166400000 looks like milliseconds"))
    }

    @Test(arguments: [PushType.widgets, .controls])
    func widgetsAndControlsNeedContentChanged(pushType: PushType) {
        #expect(check("{\"aps\":{\"content-changed\":true}}", type(pushType)).problems.isEmpty)
        #expect(
            check("{\"aps\":{}}", type(pushType)).hasError(
                "aps.content-changed", "\(pushType.rawValue) pushes need \"content-changed\": true in aps"))
        #expect(
            check("{\"aps\":{\"content-changed\":false}}", type(pushType)).hasError(
                "aps.content-changed", "content-changed must be true, found boolean false"))
        #expect(
            check("{\"aps\":{\"content-changed\":true,\"badge\":1}}", type(pushType)).hasWarning(
                "aps.badge", "\(pushType.rawValue) pushes carry only content-changed"))
    }

    @Test func mdmCarriesPushMagicAndNoAPS() {
        #expect(check("{\"mdm\":\"magic\"}", type(.mdm)).problems.isEmpty)
        #expect(check("{}", type(.mdm)).hasError("mdm", "mdm pushes need \"mdm\": \"<PushMagic>\""))
        #expect(check("{\"mdm\":1}", type(.mdm)).hasError("mdm", "mdm must be the PushMagic string"))
        #expect(check("{\"mdm\":\"\"}", type(.mdm)).hasError("mdm", "mdm is empty; it must be the PushMagic string"))
        #expect(check("{\"mdm\":\"m\",\"aps\":{}}", type(.mdm)).hasWarning("aps", "mdm pushes carry no aps"))
    }

    /// The types whose payload APNS.md calls app-defined take the app's own keys alone (a File Provider push is
    /// `container-identifier` and `domain`): a warning, not a refusal.
    @Test func missingAPSIsAnErrorExceptForMDMAndAppDefinedPayloads() {
        for t in [PushType.alert, .background, .liveactivity, .widgets, .controls] {
            #expect(check("{\"x\":1}", type(t)).hasError("aps", "aps is missing"), "\(t)")
        }
        for t in [PushType.voip, .pushtotalk, .complication, .fileprovider] {
            let r = check("{\"container-identifier\":\"NSFileProviderWorkingSetContainerItemIdentifier\"}", type(t))
            #expect(r.hasWarning("aps", "no aps dictionary; PushKit hands the whole payload to the app"), "\(t)")
            #expect(!r.hasErrors, "\(t)")
        }
        let location = check("{\"query\":\"where\"}", type(.location))
        #expect(location.hasWarning("aps", "no aps dictionary; the app's location push service extension gets"))
        #expect(!location.hasErrors)
    }

    @Test func missingAPSHints() {
        #expect(check("{\"APS\":{\"alert\":\"x\"}}").hasError("aps", "did you mean \"aps\" instead of \"APS\"?"))
        #expect(check("{\"badge\":1}").hasError("aps", "\"badge\" belongs inside aps"))
        #expect(
            check("{\"aps\":\"hello\"}").hasError(
                "aps", "aps must be an object holding Apple's keys, found string \"hello\""))
    }
}
