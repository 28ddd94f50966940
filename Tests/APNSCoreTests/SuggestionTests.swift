import Testing

@testable import APNSCore

/// "Did you mean" finds plausible typos and nothing else.
@Suite struct SuggestionTests {
    let keys = APSKey.allCases.map(\.rawValue)

    @Test(arguments: [
        ("bagde", "badge"), ("Badge", "badge"), ("contentAvailable", "content-available"),
        ("content_available", "content-available"), ("mutable_content", "mutable-content"),
        ("sond", "sound"), ("alret", "alert"), ("thread_id", "thread-id"), ("catgory", "category"),
        ("interuption-level", "interruption-level"), ("relevance_score", "relevance-score"),
    ])
    func suggestsTheIntendedKey(typo: String, intended: String) {
        #expect(Suggestion.closest(to: typo, among: keys) == intended)
    }

    @Test(arguments: ["custom", "x", "userInfo", "", String(repeating: "a", count: 200)])
    func staysQuietForUnrelatedWords(word: String) {
        #expect(Suggestion.closest(to: word, among: keys) == nil)
    }

    @Test func distanceCountsTranspositionsOnce() {
        #expect(Suggestion.distance(Array("ab".utf8), Array("ba".utf8)) == 1)
        #expect(Suggestion.distance(Array("kitten".utf8), Array("sitting".utf8)) == 3)
        #expect(Suggestion.distance([], Array("abc".utf8)) == 3)
    }

    /// The bounded distance (which stops early) agrees with the full table on every pair of short words.
    @Test func theBoundedDistanceAgreesWithTheFullOne() {
        var words: [[UInt8]] = [[]]
        for length in 1...4 {
            var next: [[UInt8]] = []
            for w in words where w.count == length - 1 { for c in Array("abc".utf8) { next.append(w + [c]) } }
            words += next
        }
        var disagreements: [String] = []
        for a in words {
            for b in words {
                let full = Suggestion.distance(a, b)
                for limit in 0...5 where Suggestion.distance(a, b, atMost: limit) != (full <= limit ? full : nil) {
                    disagreements.append(
                        "\(String(decoding: a, as: UTF8.self)) \(String(decoding: b, as: UTF8.self)) \(limit)")
                }
            }
        }
        #expect(words.count == 121)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    /// A near miss among thousands of names of the same length is found, and the closest one wins.
    /// iOS names a device with a typographic apostrophe; people type a straight one, or none.
    @Test func aStraightApostropheFindsATypographicOne() {
        let names = ["Ada\u{2019}s iPhone", "qa-ipad"]
        #expect(Suggestion.closest(to: "Ada's iPhone", among: names) == "Ada\u{2019}s iPhone")
        #expect(Suggestion.closest(to: "Adas iPhone", among: names) == "Ada\u{2019}s iPhone")
        #expect(Suggestion.closest(to: "Ada's iPhon", among: names) == "Ada\u{2019}s iPhone")
        #expect(Suggestion.closest(to: "Bob's iPad", among: names) == nil)
    }

    @Test func manyCandidatesOfOneLength() {
        let names = (0..<5000).map { "device-\($0 + 10000)" }
        #expect(Suggestion.closest(to: "devixe-12345", among: names) == "device-12345")
        #expect(Suggestion.closest(to: "Device_12345", among: names) == "device-12345")
        #expect(Suggestion.closest(to: "phone-12345", among: names) == nil)
    }

    /// Case is ignored on both sides: a candidate spelled in CamelCase (APNs reasons) is found from a
    /// lower-case typo, as a lower-case candidate is from a CamelCase one.
    @Test(arguments: [
        ("baddevicetokn", "BadDeviceToken"), ("BadDeviceTokn", "BadDeviceToken"), ("unregisterd", "Unregistered"),
        ("TopicDisalowed", "TopicDisallowed"), ("bagde", "badge"), ("Sound", "sound"),
    ])
    func aTypoFindsItsCandidateInAnyCase(_ typo: String, _ meant: String) {
        let candidates = ["BadDeviceToken", "Unregistered", "TopicDisallowed", "badge", "sound"]
        #expect(Suggestion.closest(to: typo, among: candidates) == meant)
    }

    @Test func aWordFarFromEveryCandidateGetsNone() {
        #expect(Suggestion.closest(to: "Nope", among: ["BadDeviceToken", "Unregistered"]) == nil)
        #expect(Suggestion.closest(to: "bdt", among: ["BadDeviceToken"]) == nil)
    }
}
