import APNSCore
import APNSHTTP2
import Testing

@testable import APNSMock

/// The answers `apnsctl doctor`'s probe depends on: the all-zero token is refused only after the
/// credentials and topic passed (so a bad signature or topic still wins), and `--key-environment`
/// refuses a verified token on the other environment's mock, after the signature and team checks.
@Suite struct ProbeAnswerTests {
    static let zeroPath = "/3/device/" + String(repeating: "0", count: 64)

    private func decide(_ rules: MockRules, _ change: (inout CheckCase) -> Void) -> APNSReason? {
        let c = CheckCase("probe", nil) {
            $0.path = Self.zeroPath
            $0.headers = [
                ("apns-topic", "com.example.demo"), ("apns-push-type", "background"), ("apns-priority", "5"),
                ("apns-expiration", "0"),
            ]
            $0.body = #"{"aps":{}}"#
            change(&$0)
        }
        var auth = c.auth()
        var ids = MockIDGenerator()
        return RequestChecker(rules: rules).check(c.request(), auth: &auth, now: now, ids: &ids).reason
    }

    @Test func zeroTokenIsBadDeviceTokenWithGoodCredentials() {
        #expect(decide(rules) { _ in } == .badDeviceToken)
        #expect(decide(rules) { $0.credentials = .token("good") } == .badDeviceToken)
        // Any length of zeros: APNs issues none of them.
        #expect(decide(rules) { $0.path = "/3/device/" + String(repeating: "0", count: 160) } == .badDeviceToken)
        // A token that merely contains zeros is still a token.
        #expect(decide(rules) { $0.path = "/3/device/" + String(repeating: "0", count: 63) + "1" } == nil)
    }

    @Test func badSignatureOrTopicWinsOverTheZeroToken() {
        #expect(decide(rules) { $0.credentials = .token("bad-signature") } == .invalidProviderToken)
        #expect(decide(rules) { $0.credentials = .token("old") } == .expiredProviderToken)
        #expect(decide(rules) { $0.headers[0].1 = "com.example.other" } == .topicDisallowed)
        #expect(decide(rules) { $0.headers[0].1 = "com example" } == .badTopic)
        let untrusted = PresentedCertificate(trusted: false, topics: certificate.topics, environments: [.sandbox])
        #expect(decide(rules) { $0.credentials = .certificate(untrusted) } == .badCertificate)
        let productionOnly = PresentedCertificate(
            trusted: true, topics: certificate.topics, environments: [.production])
        #expect(decide(rules) { $0.credentials = .certificate(productionOnly) } == .badCertificateEnvironment)
    }

    @Test func acceptProbeFaultAnswersTheZeroToken200() {
        var faulty = rules
        faulty.acceptsZeroToken = true
        #expect(decide(faulty) { _ in } == nil)
        #expect(decide(faulty) { $0.credentials = .token("bad-signature") } == .invalidProviderToken)
    }

    @Test(arguments: [(APNSEnvironment.sandbox, APNSEnvironment.production), (.production, .sandbox)])
    func keyEnvironmentRefusesTokensOnTheOtherEnvironment(limitedTo: APNSEnvironment, other: APNSEnvironment) {
        var elsewhere = rules
        elsewhere.environment = other
        elsewhere.keyEnvironment = limitedTo
        #expect(decide(elsewhere) { $0.credentials = .token("good") } == .badEnvironmentKeyIdInToken)
        // After the signature check: a forged token is still InvalidProviderToken.
        #expect(decide(elsewhere) { $0.credentials = .token("bad-signature") } == .invalidProviderToken)
        // Certificates are not keys: unaffected.
        #expect(decide(elsewhere) { _ in } == .badDeviceToken)

        var home = rules
        home.environment = limitedTo
        home.keyEnvironment = limitedTo
        #expect(decide(home) { $0.credentials = .token("good") } == .badDeviceToken)
    }
}
