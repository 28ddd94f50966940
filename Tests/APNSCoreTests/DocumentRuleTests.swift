import APNSPlatform
import APNSTestSupport
import Testing

@testable import APNSCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-payload rules: empty, not JSON, not an object, duplicate keys, strict mode, problem order.
@Suite struct DocumentRuleTests {
    @Test func emptyPayloadIsAnError() {
        let r = check("")
        #expect(
            r.problems.map(\.message) == [
                "payload is empty (APNs answers 400 PayloadEmpty); give a JSON object such as {\"aps\":{\"alert\":\"Hello\"}}"
            ])
        #expect(r.problems.first?.path == "(root)" && r.size == 0)
    }

    /// `echo > payload.json` (a line break), CRLF or spaces: empty, not a JSON syntax error at the end of input.
    @Test func aWhitespaceOnlyPayloadIsEmpty() {
        for text in ["\n", "\r\n", "  \t\n\n"] {
            let r = check(text)
            #expect(
                r.problems.map(\.message) == [
                    "payload is empty (only whitespace); give a JSON object such as {\"aps\":{\"alert\":\"Hello\"}}"
                ], "\(text.debugDescription)")
            #expect(r.problems.first?.line == 1 && r.problems.first?.column == 1)
        }
    }

    @Test func syntaxErrorsCarryTheReaderPosition() throws {
        let r = check("{\n  \"aps\": {\n    \"alert\": \"x\",\n  }\n}")
        let p = try #require(r.problems.first)
        #expect(r.problems.count == 1)
        #expect(p.path == "(root)" && p.line == 3 && p.column == 17)
        #expect(p.message == "not valid JSON: trailing comma before '}'; remove the comma")
        #expect(r.pushType == .alert, "not JSON infers alert")
    }

    @Test func topLevelMustBeAnObject() {
        for (json, found) in [("[1]", "array"), ("\"x\"", "string \"x\""), ("  42", "number 42"), ("null", "null")] {
            let r = check(json)
            #expect(
                r.at("(root)").map(\.message) == [
                    "the payload must be a JSON object, found \(found); write {\"aps\":{…}}"
                ])
        }
        #expect(check("  [1]").problems.first?.column == 3)
    }

    @Test func duplicateKeysWarnEverywhereWithBothPositions() {
        let r = check("{\"aps\":{\"alert\":\"a\",\"alert\":\"b\"},\"x\":[{\"k\":1,\"k\":2}],\"x\":0}")
        #expect(
            r.hasWarning(
                "aps.alert",
                "duplicate key \"alert\" (first at line 1, column 9); JSON parsers disagree on which copy wins: keep one"
            ))
        #expect(r.hasWarning("x[0].k", "duplicate key \"k\""))
        #expect(r.hasWarning("x", "duplicate key \"x\""))
        #expect(!r.hasErrors)
    }

    /// A repeated top-level aps: parsers disagree on which copy wins, so every copy's errors count (an invalid first
    /// copy passed with only the duplicate warning). Valid copies add nothing; either order is an error.
    @Test func everyCopyOfARepeatedAPSIsChecked() {
        let first = check(#"{"aps":{"badge":"five"},"aps":{"alert":"Hi"}}"#)
        #expect(first.hasWarning("aps", "duplicate key \"aps\""), "\(first.listing)")
        #expect(
            first.hasError("aps.badge", "badge must be a non-negative integer")
                && first.hasError("aps.badge", "(in an earlier copy of the repeated aps)"), "\(first.listing)")
        #expect(
            (first.problems.first { $0.severity == .error }?.column ?? 99) < 24, "at the first copy: \(first.listing)")
        let last = check(#"{"aps":{"alert":"Hi"},"aps":{"badge":"five"}}"#)
        #expect(last.hasError("aps.badge", "badge must be a non-negative integer"), "\(last.listing)")
        #expect(!last.problems.contains { $0.message.contains("earlier copy") }, "\(last.listing)")
        let valid = check(#"{"aps":{"alert":"Hi"},"aps":{"alert":"Ho"}}"#)
        #expect(!valid.hasErrors, "\(valid.listing)")
    }

    @Test func controlCharactersInKeysCannotForgeOutput() {
        let r = check("{\"aps\":{\"alert\":\"x\",\"a\\n\\u001b[31mb\\u0085\":1}}")
        // The path as written: each printer escapes it (text `\u{1B}`, JSON `\u001b`; see PrintedTextTests).
        #expect(r.problems.map(\.path) == ["aps.a\n\u{1B}[31mb\u{85}"])
        #expect(
            r.problems.first?.message.contains("\"a\\n\\u001b[31mb\\u0085\"") == true, "messages quote keys as JSON")
    }

    @Test func theLastCopyOfADuplicateIsTheOneChecked() {
        #expect(check("{\"aps\":{\"badge\":\"x\",\"badge\":1}}").errors.isEmpty)
        #expect(check("{\"aps\":{\"badge\":1,\"badge\":\"x\"}}").hasError("aps.badge", "found string \"x\""))
    }

    @Test func strictTurnsWarningsIntoErrors() {
        let json = "{\"aps\":{\"alert\":\"x\",\"bagde\":1}}"
        #expect(!check(json).hasErrors)
        let strict = check(json, ValidationOptions(strict: true))
        #expect(strict.hasErrors)
        #expect(strict.problems.allSatisfy { $0.severity == .error })
        #expect(check("{\"aps\":{\"alert\":\"x\"}}", ValidationOptions(strict: true)).problems.isEmpty)
    }

    @Test func problemsAreInSourceOrder() {
        let r = check("{\"aps\":{\"sound\":1,\"badge\":\"x\",\"alert\":2}}")
        #expect(r.problems.map(\.path) == ["aps.sound", "aps.badge", "aps.alert"])
        let columns = r.problems.map(\.column)
        #expect(columns == columns.sorted())
    }

    @Test func loadReadsFilesAndReportsMissingOnes() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("p.json", "{\"aps\":{\"alert\":\"x\"}}\n")
        let payload = try Payload.load(path: path)
        #expect(payload.body.count == 22 && !payload.isAPNSFile)
        #expect(throws: FileSystem.Failure.missing(path: dir.file("nope.json"))) {
            try Payload.load(path: dir.file("nope.json"))
        }
        #expect(throws: FileSystem.Failure.isDirectory(path: dir.path)) { try Payload.load(path: dir.path) }
    }
}

/// Header combinations checked as payload rules when the caller passes priority and topic.
@Suite struct HeaderRuleTests {
    let background = "{\"aps\":{\"content-available\":1}}"

    @Test func backgroundWithPriorityTenIsAnError() throws {
        let r = check(background, ValidationOptions(priority: .immediate))
        let p = try #require(r.at("(root)").first)
        #expect(p.severity == .error && p.line == 1 && p.column == 1)
        #expect(
            p.message
                == "background pushes must not use priority 10 (APNs rejects or drops them); use apns-priority 5 or leave it out"
        )
        #expect(check(background, ValidationOptions(priority: .powerAware)).problems.isEmpty)
        #expect(check(background).problems.isEmpty, "no priority given: not checked")
        #expect(check("{\"aps\":{\"alert\":\"x\"}}", ValidationOptions(priority: .immediate)).problems.isEmpty)
    }

    @Test func priorityOneWarnsForBackgroundAndLiveActivity() {
        #expect(
            check(background, ValidationOptions(priority: .low)).hasWarning(
                "(root)", "priority 1 never wakes the device"))
        #expect(check("{\"aps\":{\"alert\":\"x\"}}", ValidationOptions(priority: .low)).problems.isEmpty)
    }

    @Test func topicMustCarryThePushTypeSuffix() {
        let voip = "{\"aps\":{}}"
        #expect(check(voip, ValidationOptions(pushType: .voip, topic: "com.example.demo.voip")).problems.isEmpty)
        #expect(
            check(voip, ValidationOptions(pushType: .voip, topic: "com.example.demo")).at("(root)").map(\.message)
                == [
                    "topic \"com.example.demo\" lacks the \".voip\" suffix that voip pushes need; use apns-topic com.example.demo.voip"
                ])
        #expect(
            check(voip, ValidationOptions(pushType: .voip, topic: "com.example.demo.voip-ptt"))
                .hasError("(root)", "use apns-topic com.example.demo.voip"),
            "the other type's suffix is replaced in the hint")
        let la = "{\"aps\":{\"event\":\"update\",\"timestamp\":1,\"content-state\":{}}}"
        #expect(
            check(la, ValidationOptions(pushType: .liveactivity, topic: "com.x.push-type.liveactivity")).problems
                .isEmpty)
        #expect(
            check(la, ValidationOptions(pushType: .liveactivity, topic: "com.x")).hasError(
                "(root)", "lacks the \".push-type.liveactivity\" suffix"))
    }

    /// A suffix typed nearly (`.location`, `.pushkit`, `.complications`) or in another case (`.VoIP`): the advice
    /// does not add the suffix to the near miss alone.
    @Test func aNearMissOfTheTypesSuffixGetsAdviceThatFits() {
        let alert = #"{"aps":{"alert":"x"}}"#
        for (pushType, topic, advice) in [
            (
                PushType.location, "com.example.demo.location",
                "; use apns-topic com.example.demo.location-query if \".location\" was meant as the suffix, else com.example.demo.location.location-query"
            ),
            (
                .fileprovider, "com.example.demo.pushkit",
                "; use apns-topic com.example.demo.pushkit.fileprovider if \".pushkit\" was meant as the suffix, else com.example.demo.pushkit.pushkit.fileprovider"
            ),
            (
                .voip, "com.example.demo.VoIP",
                " (it ends with \".VoIP\", in another case); use apns-topic com.example.demo.voip"
            ),
            (.voip, "com.example.voipapp", "; use apns-topic com.example.voipapp.voip"),
            // A name that merely starts a suffix's word is a name; a `push-type` part anywhere is the suffix's start.
            (.liveactivity, "com.example.live", "; use apns-topic com.example.live.push-type.liveactivity"),
            (
                .widgets, "com.example.demo.push-type.widget",
                "; use apns-topic com.example.demo.push-type.widgets if \".push-type.widget\" was meant as the suffix, else com.example.demo.push-type.widget.push-type.widgets"
            ),
        ] {
            let r = check(alert, ValidationOptions(pushType: pushType, topic: topic))
            #expect(r.hasError("(root)", "pushes need" + advice), "\(topic): \(r.listing)")
        }
        // Another type's suffix in another case, on a push without one: the way to either, not a loop.
        let alertOnVoIP = check(alert, ValidationOptions(pushType: .alert, topic: "com.example.demo.VoIP"))
        #expect(
            alertOnVoIP.hasWarning(
                "(root)",
                "ends with \".VoIP\", the suffix of voip pushes in another case; for a voip push use apns-push-type voip and apns-topic com.example.demo.voip, else the bare bundle id"
            ), "\(alertOnVoIP.listing)")
    }

    @Test func bareTypeWithAnotherTypesSuffixWarns() {
        let r = check(
            "{\"aps\":{\"alert\":\"x\"}}", ValidationOptions(pushType: .alert, topic: "com.example.demo.voip"))
        #expect(r.hasWarning("(root)", "ends with \".voip\", the suffix of voip pushes, but this is an alert push"))
        #expect(
            check("{\"mdm\":\"m\"}", ValidationOptions(pushType: .mdm, topic: "com.apple.mgmt.External.x")).problems
                .isEmpty)
    }
}
