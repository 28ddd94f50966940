import APNSCore
import APNSCrypto
import APNSTestSupport
import Testing

@testable import APNSClient

/// CLI.md's header defaults, case by case.
@Suite struct RequestDefaultsTests {
    static let credentials: TestCredentials? = try? TestCredentials()

    struct TopicCase: Sendable, CustomStringConvertible {
        let explicit: String?
        let simulator: String?
        let useCertificate: Bool
        let pushType: PushType?
        let expected: String?
        var description: String {
            "\(explicit ?? "-")/\(simulator ?? "-")/\(useCertificate)/\(pushType?.rawValue ?? "-")"
        }
    }

    static let topicCases: [TopicCase] = [
        TopicCase(explicit: "com.x", simulator: "com.sim", useCertificate: true, pushType: .voip, expected: "com.x"),
        TopicCase(explicit: nil, simulator: "com.sim", useCertificate: true, pushType: nil, expected: "com.sim"),
        TopicCase(explicit: nil, simulator: nil, useCertificate: true, pushType: nil, expected: "com.example.demo"),
        TopicCase(explicit: nil, simulator: nil, useCertificate: true, pushType: .alert, expected: "com.example.demo"),
        TopicCase(
            explicit: nil, simulator: nil, useCertificate: true, pushType: .voip, expected: "com.example.demo.voip"),
        TopicCase(
            explicit: nil, simulator: nil, useCertificate: true, pushType: .complication,
            expected: "com.example.demo.complication"),
        // Not in the certificate's topic list: the bare bundle id (the validator then reports the missing suffix).
        TopicCase(
            explicit: nil, simulator: nil, useCertificate: true, pushType: .widgets, expected: "com.example.demo"),
        TopicCase(explicit: nil, simulator: nil, useCertificate: false, pushType: .alert, expected: nil),
        TopicCase(
            explicit: nil, simulator: "com.example.demo", useCertificate: true, pushType: .voip,
            expected: "com.example.demo.voip"),
    ]

    @Test(arguments: topicCases)
    func topic(_ c: TopicCase) throws {
        let creds = try #require(Self.credentials)
        let topic = RequestDefaults.topic(
            explicit: c.explicit, simulatorTargetBundle: c.simulator,
            certificate: c.useCertificate ? creds.push.info : nil, pushType: c.pushType)
        #expect(topic == c.expected)
    }

    @Test(
        arguments: [
            (nil, "com.x", "{\"aps\":{\"alert\":\"hi\"}}", PushType.alert),
            (nil, "com.x", "{\"aps\":{\"content-available\":1}}", .background),
            (nil, "com.x.voip", "{\"aps\":{\"alert\":\"hi\"}}", .voip),
            (nil, "com.x.voip-ptt", "{}", .pushtotalk),
            (nil, "com.x.push-type.liveactivity", "{}", .liveactivity),
            (PushType.location, "com.x", "{}", .location),
            (nil, nil, "not json", .alert),
        ] as [(PushType?, String?, String, PushType)])
    func pushType(_ explicit: PushType?, _ topic: String?, _ body: String, _ expected: PushType) {
        // `send` takes the push type the validator judged the payload as: given, else inferred.
        let parsed = ParsedPayload(Payload(bytes: Array(body.utf8)))
        #expect(
            PayloadValidator.validate(parsed, options: ValidationOptions(pushType: explicit, topic: topic)).pushType
                == expected)
    }

    @Test func priority() {
        #expect(RequestDefaults.priority(explicit: nil, pushType: .alert) == .immediate)
        #expect(RequestDefaults.priority(explicit: nil, pushType: .background) == .powerAware)
        #expect(RequestDefaults.priority(explicit: .low, pushType: .alert) == .low)
        #expect(RequestDefaults.priority(explicit: .immediate, pushType: .background) == .immediate)
        // Widgets and controls send none unless given, as Apple's sample does.
        #expect(RequestDefaults.priority(explicit: nil, pushType: .widgets) == nil)
        #expect(RequestDefaults.priority(explicit: nil, pushType: .controls) == nil)
        #expect(RequestDefaults.priority(explicit: .powerAware, pushType: .widgets) == .powerAware)
        #expect(RequestDefaults.priority(explicit: nil, pushType: .liveactivity) == .immediate)
    }

    @Test func builderTopicsGetTheirSuffixOnce() {
        #expect(RequestDefaults.suffixed("com.x", for: .liveactivity) == "com.x.push-type.liveactivity")
        #expect(
            RequestDefaults.suffixed("com.x.push-type.liveactivity", for: .liveactivity)
                == "com.x.push-type.liveactivity")
        #expect(RequestDefaults.suffixed("com.x", for: .controls) == "com.x.push-type.controls")
        // Another type's suffix is kept for the topic rule to refuse, never doubled.
        #expect(RequestDefaults.suffixed("com.x.push-type.widgets", for: .controls) == "com.x.push-type.widgets")
        #expect(
            RequestDefaults.suffixed("com.x.push-type.liveactivity", for: .widgets) == "com.x.push-type.liveactivity")
        // A bundle id may end like an older type's suffix (com.acme.voip): it gets the suffix.
        #expect(RequestDefaults.suffixed("com.x.voip", for: .widgets) == "com.x.voip.push-type.widgets")
        #expect(RequestDefaults.suffixed("com.x.complication", for: .voip) == "com.x.complication.voip")
        // The suffix in other letter case is the suffix (Apple's pages spell it several ways), and so is another
        // type's.
        #expect(
            RequestDefaults.suffixed("com.x.push-type.LiveActivity", for: .liveactivity)
                == "com.x.push-type.liveactivity")
        #expect(RequestDefaults.suffixed("com.x.push-type.Widgets", for: .controls) == "com.x.push-type.Widgets")
    }

    @Test func requestWithoutPriorityHasNoPriorityHeader() {
        let request = PushRequest(
            topic: "com.x.push-type.widgets", pushType: .widgets, priority: nil, payload: Array("{}".utf8))
        #expect(!request.commonHeaders.contains { $0.name == "apns-priority" })
        #expect(!request.commonHeaders.contains { $0.name == "apns-expiration" })
    }

    @Test func environment() throws {
        let creds = try #require(Self.credentials)
        let production = try CredentialGenerator.makePushCertificate(ca: creds.ca, bundleID: "com.p", kind: .production)
        let development = try CredentialGenerator.makePushCertificate(
            ca: creds.ca, bundleID: "com.d", kind: .development)
        #expect(RequestDefaults.environment(explicit: nil, certificate: nil) == .sandbox)
        #expect(RequestDefaults.environment(explicit: nil, certificate: creds.push.info) == .sandbox)
        #expect(RequestDefaults.environment(explicit: nil, certificate: production.info) == .production)
        #expect(RequestDefaults.environment(explicit: nil, certificate: development.info) == .sandbox)
        #expect(RequestDefaults.environment(explicit: .production, certificate: development.info) == .production)
    }

    @Test(
        arguments: [
            ("0", 0), ("1800000000", 1_800_000_000), ("45s", 1_000_045), ("30m", 1_001_800), ("1h", 1_003_600),
            ("2d", 1_172_800), ("1H", 1_003_600),
        ] as [(String, Int64)])
    func expiration(_ text: String, _ expected: Int64) throws {
        #expect(try RequestDefaults.expiration(text, now: 1_000_000) == expected)
    }

    @Test(arguments: ["", "soon", "-5", "1.5h", "h", "3600", "12x", "99999999999999999"])
    func badExpiration(_ text: String) {
        #expect(throws: TimeValue.Problem.self) { try RequestDefaults.expiration(text, now: 1_000_000) }
    }
}
