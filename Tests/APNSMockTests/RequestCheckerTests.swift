import APNSCore
import APNSHTTP2
import APNSPlatform
import Testing

@testable import APNSMock

/// Token verdicts by token text, so the checks run without keys or clocks.
struct StubTokens: ProviderTokenChecking {
    var verdicts: [String: ProviderTokenCheck]
    func check(_ token: String, now: Int64) -> ProviderTokenCheck {
        verdicts[token] ?? .rejected(.invalidProviderToken)
    }
}

let now: Int64 = 1_800_000_000
let goodToken = String(repeating: "ab", count: 32)
let certificate = PresentedCertificate(
    trusted: true, topics: ["com.example.demo", "com.example.demo.voip", "com.example.demo.complication"],
    environments: [.sandbox, .production])
let tokens = StubTokens(verdicts: [
    "good": .valid(keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: now - 60),
    "later": .valid(keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: now - 60 + 25 * 60),
    "soon": .valid(keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: now),
    "other-key": .valid(keyID: "OTHER12345", teamID: "TEAM123456", issuedAt: now),
    "old": .valid(keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: now - 3601),
    "bad-signature": .rejected(.invalidProviderToken),
])

/// One request with exactly one fault (or none), and the reason the mock must answer.
struct CheckCase: Sendable, CustomTestStringConvertible {
    enum Credentials: Sendable {
        case certificate(PresentedCertificate)
        case token(String?)
    }
    var name: String
    var expected: APNSReason?
    var method = "POST"
    var path = "/3/device/" + goodToken
    var headers: [(String, String)] = [("apns-topic", "com.example.demo"), ("apns-push-type", "alert")]
    var body = #"{"aps":{"alert":"hi"}}"#
    var credentials = Credentials.certificate(certificate)

    var testDescription: String { name }

    init(_ name: String, _ expected: APNSReason?, _ change: (inout CheckCase) -> Void = { _ in }) {
        self.name = name
        self.expected = expected
        change(&self)
    }

    func request() -> HTTP2ServerRequest {
        var all = [HeaderField(":method", method), HeaderField(":path", path)]
        if case .token(let t?) = credentials { all.append(HeaderField("authorization", "bearer \(t)")) }
        all += headers.map { HeaderField($0.0, $0.1) }
        return HTTP2ServerRequest(streamID: 1, headers: all, body: Array(body.utf8), bodySize: body.utf8.count)
    }

    func auth() -> ConnectionAuthState {
        if case .certificate(let c) = credentials { return ConnectionAuthState(certificate: c) }
        return ConnectionAuthState(certificate: nil)
    }
}

let rules = MockRules(
    environment: .sandbox, unregistered: ["DEAD" + String(repeating: "00", count: 30)],
    rejections: [String(repeating: "cd", count: 32): .deviceTokenNotForTopic], unregisteredSince: 1_700_000_000_000,
    tokenChecker: tokens)

let checkCases: [CheckCase] = [
    CheckCase("valid certificate push", nil),
    CheckCase("valid token push", nil) { $0.credentials = .token("good") },
    CheckCase("GET", .methodNotAllowed) { $0.method = "GET" },
    CheckCase("other path", .badPath) { $0.path = "/2/device/" + goodToken },
    CheckCase("no token in path", .missingDeviceToken) { $0.path = "/3/device/" },
    CheckCase("apns-id twice", .duplicateHeaders) {
        $0.headers += [("apns-id", UUIDString.random()), ("apns-id", UUIDString.random())]
    },
    CheckCase("no cert, no bearer", .missingProviderToken) { $0.credentials = .token(nil) },
    CheckCase("bad signature", .invalidProviderToken) { $0.credentials = .token("bad-signature") },
    CheckCase("old token", .expiredProviderToken) { $0.credentials = .token("old") },
    CheckCase("untrusted certificate", .badCertificate) {
        $0.credentials = .certificate(
            PresentedCertificate(trusted: false, topics: certificate.topics, environments: [.sandbox]))
    },
    CheckCase("production-only certificate", .badCertificateEnvironment) {
        $0.credentials = .certificate(
            PresentedCertificate(trusted: true, topics: certificate.topics, environments: [.production]))
    },
    CheckCase("apns-id not a UUID", .badMessageId) { $0.headers.append(("apns-id", "1234")) },
    CheckCase("unknown push type", .invalidPushType) {
        $0.headers = [("apns-topic", "com.example.demo"), ("apns-push-type", "banner")]
    },
    CheckCase("priority 7", .badPriority) { $0.headers.append(("apns-priority", "7")) },
    CheckCase("background at priority 10", .badPriority) {
        $0.headers = [("apns-topic", "com.example.demo"), ("apns-push-type", "background"), ("apns-priority", "10")]
    },
    CheckCase("expiration as a date", .badExpirationDate) { $0.headers.append(("apns-expiration", "2026-01-01")) },
    CheckCase("collapse id of 65 bytes", .badCollapseId) {
        $0.headers.append(("apns-collapse-id", String(repeating: "x", count: 65)))
    },
    CheckCase("token auth without topic", .missingTopic) {
        $0.credentials = .token("good")
        $0.headers = []
    },
    CheckCase("multi-topic certificate without topic", .missingTopic) { $0.headers = [] },
    CheckCase("topic with spaces", .badTopic) { $0.headers = [("apns-topic", "com example")] },
    CheckCase("voip push to the bare topic", .badTopic) {
        $0.headers = [("apns-topic", "com.example.demo"), ("apns-push-type", "voip")]
    },
    CheckCase("topic not in the certificate", .topicDisallowed) { $0.headers = [("apns-topic", "com.example.other")] },
    CheckCase("location push with a certificate", .topicDisallowed) {
        $0.headers = [("apns-topic", "com.example.demo.location-query"), ("apns-push-type", "location")]
    },
    CheckCase("odd-length token", .badDeviceToken) { $0.path = "/3/device/abc" },
    CheckCase("non-hex token", .badDeviceToken) { $0.path = "/3/device/zz" + String(repeating: "00", count: 31) },
    CheckCase("unregistered token", .unregistered) { $0.path = "/3/device/dead" + String(repeating: "00", count: 30) },
    CheckCase("token rejected by --reject", .deviceTokenNotForTopic) {
        $0.path = "/3/device/" + String(repeating: "CD", count: 32)
    },
    CheckCase("empty body", .payloadEmpty) { $0.body = "" },
    CheckCase("4097 bytes", .payloadTooLarge) {
        $0.body = #"{"a":""# + String(repeating: "x", count: 4097 - 8) + #""}"#
    },
    CheckCase("not JSON", .badRequestPayload) { $0.body = "hello" },
    CheckCase("token auth may push location", nil) {
        $0.credentials = .token("good")
        $0.headers = [("apns-topic", "com.example.demo.location-query"), ("apns-push-type", "location")]
    },
    CheckCase("5000-byte voip push fits", nil) {
        $0.headers = [("apns-topic", "com.example.demo.voip"), ("apns-push-type", "voip")]
        $0.body = #"{"a":""# + String(repeating: "x", count: 5000) + #""}"#
    },
    CheckCase("voip inferred from the topic", .payloadTooLarge) {
        $0.headers = [("apns-topic", "com.example.demo.voip")]
        $0.body = #"{"a":""# + String(repeating: "x", count: 5200) + #""}"#
    },
    CheckCase("long token accepted", nil) { $0.path = "/3/device/" + String(repeating: "0a", count: 80) },
    CheckCase("aps rules are not APNs' business", nil) { $0.body = #"{"aps":{"badge":"five"}}"# },
]

@Suite struct RequestCheckerTests {
    let checker = RequestChecker(rules: rules)

    @Test(arguments: checkCases)
    func oneFaultPerRequest(_ c: CheckCase) {
        var auth = c.auth()
        var ids = MockIDGenerator()
        let d = checker.check(c.request(), auth: &auth, now: now, ids: &ids)
        #expect(d.reason == c.expected)
        #expect(d.status == (c.expected?.status ?? 200))
        #expect(UUIDString.isCanonical(d.apnsID))
    }

    @Test func everyReasonTheMockProducesIsCovered() {
        let covered = Set(checkCases.compactMap(\.expected))
        let stateful: Set<APNSReason> = [.unrelatedKeyIdInToken, .tooManyProviderTokenUpdates]
        let produced: Set<APNSReason> = [
            .methodNotAllowed, .badPath, .missingDeviceToken, .duplicateHeaders, .missingProviderToken,
            .invalidProviderToken,
            .expiredProviderToken, .badCertificate, .badCertificateEnvironment, .badMessageId, .invalidPushType,
            .badPriority,
            .badExpirationDate, .badCollapseId, .missingTopic, .badTopic, .topicDisallowed, .badDeviceToken,
            .unregistered,
            .payloadEmpty, .payloadTooLarge, .badRequestPayload,
        ]
        #expect(produced.subtracting(covered).isEmpty)
        #expect(stateful.isDisjoint(with: covered))
    }

    @Test func errorBodiesAndTimestamps() {
        var auth = ConnectionAuthState(certificate: certificate)
        var ids = MockIDGenerator()
        let gone = CheckCase("410", .unregistered) { $0.path = "/3/device/dead" + String(repeating: "00", count: 30) }
        let d = checker.check(gone.request(), auth: &auth, now: now, ids: &ids)
        #expect(d.status == 410)
        #expect(String(decoding: d.body, as: UTF8.self) == #"{"reason":"Unregistered","timestamp":1700000000000}"#)
        let ok = checker.check(CheckCase("ok", nil).request(), auth: &auth, now: now, ids: &ids)
        #expect(ok.body.isEmpty)
        #expect(ok.timestamp == nil)
    }

    /// A Live Activity push as APNs checks it: the topic needs its suffix, a certificate must list it; the
    /// decision carries the event for the log line.
    @Test func liveActivityPushes() {
        var auth = ConnectionAuthState(
            certificate: PresentedCertificate(
                trusted: true, topics: ["com.example.demo", "com.example.demo.push-type.liveactivity"],
                environments: [.sandbox]))
        var ids = MockIDGenerator()
        let body = #"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#
        let ok = checker.check(
            CheckCase("la", nil) {
                $0.headers = [
                    ("apns-topic", "com.example.demo.push-type.liveactivity"), ("apns-push-type", "liveactivity"),
                ]
                $0.body = body
            }.request(), auth: &auth, now: now, ids: &ids)
        #expect(ok.reason == nil)
        #expect(ok.liveActivityEvent == "update")
        let bare = checker.check(
            CheckCase("bare", .badTopic) {
                $0.headers = [("apns-topic", "com.example.demo"), ("apns-push-type", "liveactivity")]
                $0.body = body
            }.request(), auth: &auth, now: now, ids: &ids)
        #expect(bare.reason == .badTopic)
        var demo = ConnectionAuthState(certificate: certificate)
        let unlisted = checker.check(
            CheckCase("unlisted", .topicDisallowed) {
                $0.headers = [
                    ("apns-topic", "com.example.demo.push-type.liveactivity"), ("apns-push-type", "liveactivity"),
                ]
                $0.body = body
            }.request(), auth: &demo, now: now, ids: &ids)
        #expect(unlisted.reason == .topicDisallowed)
        let alert = checker.check(CheckCase("alert", nil).request(), auth: &demo, now: now, ids: &ids)
        #expect(alert.liveActivityEvent == nil)
        // Without apns-push-type the type is the topic's, and the event is still logged; push_type stays what the
        // request sent (null), so a test of "our server sends apns-push-type" cannot pass without it.
        let untyped = checker.check(
            CheckCase("untyped", nil) {
                $0.headers = [("apns-topic", "com.example.demo.push-type.liveactivity")]
                $0.body = body
            }.request(), auth: &auth, now: now, ids: &ids)
        #expect(untyped.reason == nil)
        #expect(untyped.pushType == nil)
        #expect(untyped.liveActivityEvent == "update")
        let voip = checker.check(
            CheckCase("voip", nil) { $0.headers = [("apns-topic", "com.example.demo.voip")] }.request(),
            auth: &demo, now: now, ids: &ids)
        #expect(voip.reason == nil && voip.pushType == nil)
    }

    @Test func echoesAValidApnsIDAndGeneratesUppercaseOtherwise() {
        var auth = ConnectionAuthState(certificate: certificate)
        var ids = MockIDGenerator()
        let id = "8a6c1f8e-1111-4222-8333-444455556666"
        let echoed = checker.check(
            CheckCase("id", nil) { $0.headers.append(("apns-id", id)) }.request(), auth: &auth, now: now, ids: &ids)
        #expect(echoed.apnsID == id)
        let fresh = checker.check(CheckCase("no id", nil).request(), auth: &auth, now: now, ids: &ids)
        #expect(fresh.apnsID == fresh.apnsID.uppercased())
        #expect(fresh.apnsID != id)
    }

    @Test func generatedIDsAreCanonicalVersion4AndDistinct() {
        var ids = MockIDGenerator()
        let made = (0..<1000).map { _ in ids.uuid() }
        #expect(Set(made).count == 1000)
        for id in made.prefix(50) {
            #expect(UUIDString.isCanonical(id))
            #expect(id == id.uppercased())
            #expect(Array(id.utf8)[14] == UInt8(ascii: "4"))
            #expect("89AB".utf8.contains(Array(id.utf8)[19]))
        }
        let lower = ids.uuid(uppercase: false)
        #expect(lower == lower.lowercased())
    }

    @Test func singleTopicCertificateImpliesItsTopic() {
        let single = PresentedCertificate(trusted: true, topics: ["com.example.solo"], environments: [.sandbox])
        var auth = ConnectionAuthState(certificate: single)
        var ids = MockIDGenerator()
        let d = checker.check(
            CheckCase("no topic", nil) { $0.headers = [] }.request(), auth: &auth, now: now, ids: &ids)
        #expect(d.reason == nil)
        #expect(d.topic == "com.example.solo")
    }

    @Test func tokenConnectionsBindToTheirFirstKeyAndLimitUpdates() {
        var auth = ConnectionAuthState(certificate: nil)
        var ids = MockIDGenerator()
        func send(_ token: String, at time: Int64 = now) -> MockDecision {
            checker.check(
                CheckCase("t", nil) { $0.credentials = .token(token) }.request(), auth: &auth, now: time, ids: &ids)
        }
        let first = send("good")
        #expect(first.reason == nil)
        #expect(first.firstTokenAccepted)
        #expect(send("good").firstTokenAccepted == false)
        #expect(send("other-key").reason == .unrelatedKeyIdInToken)
        #expect(send("soon").reason == .tooManyProviderTokenUpdates)
        #expect(send("later", at: now + 25 * 60).reason == nil)
        // The accepted token ages out on the connection too.
        #expect(send("later", at: now + 25 * 60 + 3700).reason == .expiredProviderToken)
    }

    @Test func bearerSchemeIsParsedStrictly() {
        #expect(ConnectionAuthState.bearerToken("bearer abc") == "abc")
        #expect(ConnectionAuthState.bearerToken("Bearer  abc ") == "abc")
        #expect(ConnectionAuthState.bearerToken("basic abc") == nil)
        #expect(ConnectionAuthState.bearerToken("bearer") == nil)
    }

    @Test func productionMockRejectsSandboxOnlyCertificates() {
        let production = RequestChecker(rules: MockRules(environment: .production))
        var auth = ConnectionAuthState(
            certificate: PresentedCertificate(trusted: true, topics: ["com.example.demo"], environments: [.sandbox]))
        var ids = MockIDGenerator()
        #expect(
            production.check(CheckCase("p", nil).request(), auth: &auth, now: now, ids: &ids).reason
                == .badCertificateEnvironment)
    }
}
