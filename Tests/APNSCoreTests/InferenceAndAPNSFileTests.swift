import APNSTestSupport
import Testing

@testable import APNSCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Push-type inference as CLI.md defines it, and `.apns` files.
@Suite struct InferenceAndAPNSFileTests {
    func infer(_ json: String, topic: String? = nil) -> PushType {
        ParsedPayload(Payload(bytes: Array(json.utf8))).inferredPushType(topic: topic)
    }

    @Test func inference() {
        #expect(infer("{\"aps\":{\"content-available\":1}}") == .background)
        #expect(
            infer("{\"aps\":{\"content-available\":1},\"custom\":2}") == .background, "custom keys beside aps are fine")
        #expect(infer("{\"aps\":{\"content-available\":1,\"content-available\":1}}") == .background)
        #expect(infer("{\"aps\":{\"content-available\":1,\"badge\":1}}") == .alert)
        #expect(infer("{\"aps\":{\"content-available\":true}}") == .alert)
        #expect(infer("{\"aps\":{\"content-available\":1.0}}") == .alert)
        #expect(infer("{\"aps\":{\"content-available\":0}}") == .alert)
        #expect(infer("{\"aps\":{}}") == .alert)
        #expect(infer("not json") == .alert)
        #expect(infer("{\"aps\":{\"content-available\":1}}", topic: "com.x.voip") == .voip, "the topic decides first")
        #expect(infer("{\"aps\":{\"alert\":\"x\"}}", topic: "com.x.voip-ptt") == .pushtotalk)
        #expect(infer("{\"aps\":{\"content-available\":1}}", topic: "com.x") == .background)
        #expect(check("{\"aps\":{}}", ValidationOptions(topic: "com.x.complication")).pushType == .complication)
        #expect(check("{\"aps\":{\"content-available\":1}}", ValidationOptions(pushType: .alert)).pushType == .alert)
    }

    @Test func apnsFileBodyIsTheRestWrittenCompactly() {
        let text =
            "{\n  \"Simulator Target Bundle\": \"com.example.demo\",\n  \"aps\": { \"alert\": \"Hi there\", \"badge\": 1 },\n  \"x\": 1.0\n}\n"
        let p = Payload(bytes: Array(text.utf8), isAPNSFile: true)
        #expect(p.isAPNSFile && p.simulatorTargetBundle == "com.example.demo")
        #expect(String(decoding: p.body, as: UTF8.self) == "{\"aps\":{\"alert\":\"Hi there\",\"badge\":1},\"x\":1.0}")
        #expect(p.source == Array(text.utf8))
        let r = PayloadValidator.validate(p, options: ValidationOptions())
        #expect(r.problems.isEmpty && r.size == p.body.count)
    }

    @Test func apnsProblemsPointIntoTheFileAsWritten() throws {
        let text = "{\n  \"Simulator Target Bundle\": \"com.example.demo\",\n  \"aps\": { \"badge\": \"5\" }\n}"
        let r = check(text, apns: true)
        let p = try #require(r.at("aps.badge").first)
        #expect(p.line == 3 && p.column == 21)
    }

    @Test func apnsBundleKeyProblems() {
        #expect(
            check("{\"aps\":{\"alert\":\"x\"}}", apns: true).hasWarning("(root)", "no \"Simulator Target Bundle\" key"))
        #expect(
            check("{\"Simulator Target Bundle\":5,\"aps\":{\"alert\":\"x\"}}", apns: true).hasWarning(
                "Simulator Target Bundle", "must be the app's bundle id"))
        #expect(
            Payload(bytes: Array("{\"Simulator Target Bundle\":5}".utf8), isAPNSFile: true).simulatorTargetBundle == nil
        )
        let onlyBundle = check("{\"Simulator Target Bundle\":\"a.b\"}", apns: true)
        #expect(onlyBundle.size == 2 && onlyBundle.hasError("aps", "aps is missing"))
        // A near spelling is named (Xcode reads the key as spelt), instead of "no key".
        let miscased = check("{\"Simulator target bundle\":\"a.b\",\"aps\":{\"alert\":\"x\"}}", apns: true)
        #expect(
            miscased.hasWarning(
                "Simulator target bundle",
                "\"Simulator target bundle\" is not \"Simulator Target Bundle\": the simulator reads the key as spelt"))
        #expect(miscased.problems.count == 1, "\(miscased.problems)")
        // After the app's own keys too (only the first of those is kept for the rules).
        let late = check("{\"aps\":{\"alert\":\"x\"},\"x\":1,\"y\":2,\"Simulator target bundle\":\"a.b\"}", apns: true)
        #expect(late.hasWarning("Simulator target bundle", "the simulator reads the key as spelt"), "\(late.problems)")
        // A stray blank is a spelling too.
        for key in ["Simulator Target Bundle ", " Simulator Target Bundle", "Simulator  Target Bundle"] {
            let blank = check("{\"aps\":{\"alert\":\"x\"},\"\(key)\":\"a.b\"}", apns: true)
            #expect(blank.hasWarning(key, "the simulator reads the key as spelt"), "\(key): \(blank.problems)")
        }
        // The key outside a .apns file is sent as data: said, with what to do.
        let inJSON = check("{\"Simulator Target Bundle\":\"a.b\",\"aps\":{\"alert\":\"x\"}}", apns: false)
        #expect(
            inJSON.hasWarning(
                "Simulator Target Bundle",
                "\"Simulator Target Bundle\" is read only from a .apns file (Xcode's simulator format); here it is sent to the device as custom data: name the file .apns, or remove the key"
            ))
        #expect(check("{\"SimulatorTargetBundle\":1,\"aps\":{\"alert\":\"x\"}}", apns: false).problems.count == 1)
        #expect(check("{\"Simulator Target\":1,\"aps\":{\"alert\":\"x\"}}", apns: false).problems.isEmpty)
    }

    @Test func invalidAPNSFileStillLoadsAndReportsTheJSONError() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("broken.APNS", "{\"Simulator Target Bundle\": \"a\",\n \"aps\": {}")
        let p = try Payload.load(path: path)
        #expect(p.isAPNSFile && p.simulatorTargetBundle == nil && p.body == p.source)
        let r = PayloadValidator.validate(p, options: ValidationOptions())
        #expect(r.at("(root)").first?.message.hasPrefix("not valid JSON: expected ',' or '}'") == true)
        #expect(p.minified() == nil)
        #expect(!Payload.isAPNSPath("x.json") && !Payload.isAPNSPath(".apns") && Payload.isAPNSPath("dir/a.apns"))
    }

    @Test func minifiedKeepsEverythingButWhitespace() {
        let p = Payload(bytes: Array("{ \"aps\" : { \"alert\" : \"a b\" } }\n".utf8))
        #expect(p.minified().map { String(decoding: $0, as: UTF8.self) } == "{\"aps\":{\"alert\":\"a b\"}}")
    }
}
