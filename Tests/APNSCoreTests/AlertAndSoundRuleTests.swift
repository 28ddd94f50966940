import Testing

@testable import APNSCore

/// `aps.alert` as string or dictionary, and `aps.sound` as name or critical-alert dictionary.
@Suite struct AlertAndSoundRuleTests {
    func alert(_ value: String, _ options: ValidationOptions = ValidationOptions(pushType: .alert)) -> ValidationReport
    {
        check("{\"aps\":{\"alert\":\(value)}}", options)
    }

    func sound(_ value: String) -> ValidationReport { check("{\"aps\":{\"alert\":\"x\",\"sound\":\(value)}}") }

    @Test func alertStringOrDictionaryPasses() {
        #expect(alert("\"Hello\"").problems.isEmpty)
        let full =
            "{\"title\":\"t\",\"subtitle\":\"s\",\"body\":\"b\",\"launch-image\":\"l\",\"title-loc-key\":\"T\",\"title-loc-args\":[\"a\"],\"subtitle-loc-key\":\"S\",\"subtitle-loc-args\":[],\"loc-key\":\"L\",\"loc-args\":[\"x\",\"y\"]}"
        let r = alert(full)
        #expect(r.problems.isEmpty, "\(r.listing)")
    }

    @Test func alertWrongTypeIsAnError() {
        #expect(
            alert("5").hasError("aps.alert", "alert must be a string or an object with title and body, found number 5"))
        #expect(alert("[\"a\"]").hasError("aps.alert", "found array"))
    }

    @Test func emptyAlertWarns() {
        #expect(alert("\"\"").hasWarning("aps.alert", "alert is an empty string, so nothing is shown"))
        #expect(alert("{}").hasWarning("aps.alert", "alert is an empty object, so nothing is shown"))
        #expect(
            alert("{\"launch-image\":\"x\"}").hasWarning("aps.alert", "alert has no title, subtitle, body or loc-key"))
        #expect(!alert("{}").hasErrors)
        // Shown keys that are all empty show nothing either; one with text is shown.
        #expect(alert("{\"body\":\"\"}").hasWarning("aps.alert", "alert's body is empty, so nothing is shown"))
        #expect(
            alert("{\"title\":\"\",\"body\":\"\"}").hasWarning(
                "aps.alert", "alert's title and body are empty, so nothing is shown"))
        #expect(alert("{\"title\":\"\",\"body\":\"hi\"}").at("aps.alert").isEmpty)
    }

    @Test func alertFieldsHaveTypes() {
        #expect(
            alert("{\"title\":5,\"body\":\"b\"}").hasError(
                "aps.alert.title", "title must be a string, found number 5; put it in quotes"))
        #expect(
            alert("{\"body\":{\"loc-key\":\"X\"}}").hasError("aps.alert.body", "body must be a string, found object"),
            "localized objects are for Live Activities only")
        #expect(alert("{\"body\":\"b\",\"loc-key\":1}").hasError("aps.alert.loc-key", "loc-key must be a string"))
        #expect(
            alert("{\"loc-key\":\"K\",\"loc-args\":\"Ada\"}").hasError(
                "aps.alert.loc-args", "loc-args must be an array of strings, found string \"Ada\"; wrap it: [\"Ada\"]"))
        let r = alert("{\"loc-key\":\"K\",\"loc-args\":[\"Ada\",42,null]}")
        #expect(
            r.hasError("aps.alert.loc-args[1]", "every element must be a string, found number 42; put it in quotes"))
        #expect(r.hasError("aps.alert.loc-args[2]", "found null"))
    }

    /// An array of strings is walked in the source, not kept: each element that is not a string is described at its
    /// own index and position, whatever the whitespace and whatever it holds; the first 20, then a count.
    @Test func nonStringArrayElementsAreListedThenCounted() {
        let r = alert(#"{"loc-key":"K","loc-args":[ "a]" , {"x":[1,"]"]} ,[ ], true,-1.5e3 ,null]}"#)
        #expect(r.hasError("aps.alert.loc-args[1]", "found object"))
        #expect(r.hasError("aps.alert.loc-args[2]", "found array"))
        #expect(r.hasError("aps.alert.loc-args[3]", "found boolean true; put it in quotes"))
        #expect(r.hasError("aps.alert.loc-args[4]", "found number -1.5e3; put it in quotes"))
        #expect(r.hasError("aps.alert.loc-args[5]", "found null"))
        #expect(r.problems.count == 5, "\(r.listing)")
        #expect(r.at("aps.alert.loc-args[2]").first?.column == 67, "\(r.listing)")

        let many = alert(#"{"loc-key":"K","loc-args":["# + (0..<25).map(String.init).joined(separator: ",") + "]}")
        #expect(many.problems.count == 21, "\(many.listing)")
        #expect(many.hasError("aps.alert.loc-args[19]", "found number 19"))
        #expect(!many.hasError("aps.alert.loc-args[20]", "found number 20"))
        #expect(
            many.hasError(
                "aps.alert.loc-args",
                "5 more non-string elements not listed (25 in all); every element of loc-args must be a string"))
        let urlArgs = check(
            #"{"aps":{"alert":"hi","url-args":["# + (0..<21).map(String.init).joined(separator: ",") + "]}}")
        #expect(urlArgs.hasError("aps.url-args", "1 more non-string element"), "\(urlArgs.listing)")
    }

    @Test func locArgsWithoutTheirKeyWarn() {
        #expect(
            alert("{\"body\":\"b\",\"loc-args\":[\"a\"]}").hasWarning(
                "aps.alert.loc-args", "loc-args without loc-key has no effect"))
        #expect(
            alert("{\"body\":\"b\",\"title-loc-args\":[\"a\"]}").hasWarning(
                "aps.alert.title-loc-args", "title-loc-args without title-loc-key"))
        #expect(alert("{\"body\":\"b\",\"subtitle-loc-key\":\"S\",\"subtitle-loc-args\":[\"a\"]}").problems.isEmpty)
    }

    @Test func legacyAndUnknownAlertKeysWarn() {
        #expect(
            alert("{\"body\":\"b\",\"action-loc-key\":\"OPEN\"}").hasWarning(
                "aps.alert.action-loc-key", "legacy alert key"))
        #expect(
            alert("{\"titel\":\"t\",\"body\":\"b\"}").at("aps.alert.titel").map(\.message) == [
                "unknown alert key \"titel\" is ignored; did you mean \"title\"?"
            ])
        #expect(
            alert("{\"body\":\"b\",\"colour\":\"red\"}").hasWarning(
                "aps.alert.colour", "alert keys are title, subtitle, body"))
        #expect(
            alert("{\"body\":\"b\",\"sound\":\"a\"}").hasWarning(
                "aps.alert.sound", "alert.sound has no effect outside a Live Activity; put the sound in aps.sound"))
    }

    @Test func liveActivityAlertMayBeLocalizedObjects() {
        let base = "\"event\":\"update\",\"timestamp\":1,\"content-state\":{}"
        func la(_ alert: String) -> ValidationReport {
            check("{\"aps\":{\(base),\"alert\":\(alert)}}", type(.liveactivity))
        }
        #expect(
            la("{\"title\":{\"loc-key\":\"T %@\",\"loc-args\":[\"a\"]},\"body\":\"b\",\"sound\":\"s.caf\"}").problems
                .isEmpty)
        #expect(
            la("{\"title\":{\"loc-args\":[\"a\"]}}").hasError("aps.alert.title", "a localized title needs \"loc-key\""))
        #expect(
            la("{\"title\":{\"loc-key\":\"T\",\"loc-arg\":[]}}").hasWarning(
                "aps.alert.title.loc-arg", "did you mean \"loc-args\"?"))
        #expect(
            la("{\"title\":{\"loc-key\":\"T\",\"loc-args\":[1]}}").hasError(
                "aps.alert.title.loc-args[0]", "must be a string"))
        #expect(
            la("{\"title\":5}").hasError(
                "aps.alert.title", "title must be a string or an object with loc-key and loc-args, found number 5"))
        #expect(la("{\"body\":\"b\",\"sound\":1}").hasError("aps.alert.sound", "alert.sound must be a string"))
        // A string, which an ordinary alert may be, is a warning: Apple documents only the object for a Live
        // Activity (ActivityKit's AlertConfiguration).
        let string = la("\"Delivered\"")
        #expect(
            string.hasWarning(
                "aps.alert",
                "a Live Activity's alert is an object with title, body and sound; Apple documents no string form: write the text as {\"title\": …, \"body\": …}"
            ), "\(string.listing)")
        #expect(!string.hasErrors)
        #expect(alert("\"Delivered\"").problems.isEmpty)
    }

    @Test func soundNameOrCriticalDictionary() {
        #expect(sound("\"default\"").problems.isEmpty)
        #expect(sound("{\"critical\":1,\"name\":\"default\",\"volume\":0.5}").problems.isEmpty)
        #expect(
            sound("{\"critical\":0,\"name\":\"a.caf\",\"volume\":0}").hasWarning(
                "aps.sound.critical", "critical 0 is not a critical alert"))
        #expect(
            sound("{\"critical\":2,\"name\":\"a\"}").hasError(
                "aps.sound.critical", "critical must be the number 1 for a critical alert (or 0), found number 2"))
        #expect(sound("\"\"").hasWarning("aps.sound", "sound is empty, so no sound plays"))
        // An empty category or thread id (an unset variable given to the flag) does nothing: said, as for sound.
        let empty = check(#"{"aps":{"alert":"x","category":"","thread-id":""}}"#)
        #expect(empty.hasWarning("aps.category", "category is empty, so no notification category"), "\(empty.listing)")
        #expect(
            empty.hasWarning("aps.thread-id", "thread-id is empty, so the notification is grouped"), "\(empty.listing)")
        #expect(check(#"{"aps":{"alert":"x","category":"C","thread-id":"T"}}"#).problems.isEmpty)
        #expect(
            sound("1").hasError(
                "aps.sound",
                "sound must be a string (a sound file name or \"default\") or, for critical alerts, an object, found number 1"
            ))
        #expect(sound("{\"critical\":1}").hasWarning("aps.sound.name", "critical-alert sound has no \"name\""))
        // APNS.md: the object is for critical alerts only, so one without critical warns as critical 0 does.
        #expect(
            sound("{\"name\":\"a\"}").hasWarning(
                "aps.sound", "a sound object is for critical alerts, and this one has no \"critical\": 1"))
        #expect(!sound("{\"critical\":1,\"name\":\"a\"}").hasWarning("aps.sound", "a sound object is for critical"))
        #expect(
            sound("{\"critical\":true,\"name\":\"a\"}").hasError(
                "aps.sound.critical", "critical must be the number 1 for a critical alert (or 0), found boolean true"))
        #expect(sound("{\"critical\":1,\"name\":2}").hasError("aps.sound.name", "sound.name must be a string"))
        #expect(
            sound("{\"name\":\"a\",\"volume\":1.5}").hasError(
                "aps.sound.volume", "volume must be from 0 (silent) to 1 (full), found 1.5"))
        #expect(sound("{\"name\":\"a\",\"volume\":-1}").hasError("aps.sound.volume", "found -1"))
        #expect(
            sound("{\"name\":\"a\",\"volume\":\"1\"}").hasError(
                "aps.sound.volume",
                "volume must be a number from 0 (silent) to 1 (full), found string \"1\"; remove the quotes"))
        #expect(
            sound("{\"name\":\"a\",\"volum\":1}").hasWarning(
                "aps.sound.volum", "unknown sound key \"volum\" is ignored; did you mean \"volume\"?"))
    }
}
