import APNSCore
import Testing

@Suite struct VocabularyTests {
    @Test(arguments: APNSReason.allCases)
    func everyReasonHasStatusMeaningAndHint(reason: APNSReason) {
        #expect([400, 403, 404, 405, 410, 413, 429, 500, 503].contains(reason.status))
        #expect(reason.meaning.hasSuffix("."))
        #expect(reason.hint.count > 10)
    }

    @Test func topicSuffixInferencePrefersLongestSuffix() {
        #expect(PushType.inferred(fromTopic: "com.x.voip-ptt") == .pushtotalk)
        #expect(PushType.inferred(fromTopic: "com.x.voip") == .voip)
        #expect(PushType.inferred(fromTopic: "com.x.push-type.liveactivity") == .liveactivity)
        #expect(PushType.inferred(fromTopic: "com.x") == nil)
    }

    @Test(arguments: [("256", 256), ("2k", 2048), ("4K", 4096), ("5k", 5120), ("4096", 4096)])
    func sizeLimitParses(text: String, bytes: Int) { #expect(SizeLimit.parse(text) == bytes) }

    @Test(arguments: ["", "k", "-1", "0", "4x", "1.5k"])
    func sizeLimitRejects(text: String) { #expect(SizeLimit.parse(text) == nil) }

    @Test func deviceTokenNormalises() throws {
        let t = try DeviceToken(parsing: " <3F2A1B0C 9D8E7F6A> ")
        #expect(t.hex == "3f2a1b0c9d8e7f6a")
        #expect(t.looksTruncated)
    }

    @Test func deviceTokenRejectsWhatItCannotRepair() {
        #expect(throws: DeviceToken.Problem.oddLength(count: 3)) { try DeviceToken(parsing: "abc") }
        #expect(throws: DeviceToken.Problem.notHex(character: "g")) { try DeviceToken(parsing: "gg") }
        #expect(throws: DeviceToken.Problem.elidedDescription) {
            try DeviceToken(parsing: "{length = 32, bytes = 0x3f2a1b0c 9d8e7f6a ... 5b6c9c1d }")
        }
        #expect(throws: DeviceToken.Problem.empty) { try DeviceToken(parsing: "  ") }
    }

    @Test func uuidsAreCanonical() {
        let u = UUIDString.random()
        #expect(UUIDString.isCanonical(u))
        #expect(!UUIDString.isCanonical("not-a-uuid"))
        #expect(UUIDString.isCanonical("8a6c1f8e-1234-4abc-9def-0123456789ab"))
    }
}
