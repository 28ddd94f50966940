import APNSCore
import APNSPlatform
import APNSTestSupport
import Testing

@testable import APNSCrypto

/// The generator must make certificates OpenSSL itself accepts, with Apple's markers where asked.
@Suite struct CredentialGeneratorTests {
    @Test func caIsSelfSignedCAWithKeyIdentifiers() throws {
        let dir = try TemporaryDirectory()
        let ca = try dir.put("ca.pem", TestCredentials.ca.certificate.pem)
        let text = try openssl(["x509", "-in", ca, "-noout", "-text"]).stdout
        #expect(text.contains("CA:TRUE"))
        #expect(text.contains("Certificate Sign"))
        #expect(text.contains("Subject Key Identifier"))
        #expect(text.contains("Version: 3"))
        try openssl(["verify", "-CAfile", ca, ca])
    }

    @Test func pushCertificateVerifiesAndCarriesAppleExtensions() throws {
        let dir = try TemporaryDirectory()
        let ca = try dir.put("ca.pem", TestCredentials.ca.certificate.pem)
        let leaf = try dir.put("push.pem", TestCredentials.universal.certificate.pem)
        let verified = try openssl(["verify", "-CAfile", ca, "-purpose", "sslclient", leaf])
        #expect(verified.stdout.contains("OK"))
        let text = try openssl(["x509", "-in", leaf, "-noout", "-text"]).stdout
        #expect(text.contains("1.2.840.113635.100.6.3.1"))
        #expect(text.contains("1.2.840.113635.100.6.3.2"))
        #expect(text.contains("1.2.840.113635.100.6.3.6"))
        #expect(text.contains("TLS Web Client Authentication"))
        #expect(text.contains("CA:FALSE"))
        #expect(text.contains("Authority Key Identifier"))
    }

    @Test func universalInfo() {
        let info = TestCredentials.universal.info
        #expect(info.bundleID == "com.example.demo")
        #expect(info.topics == TestCredentials.universalTopics)
        #expect(info.hasTopicsExtension)
        #expect(info.environments == [.sandbox, .production])
        #expect(info.isApplePush)
        #expect(info.commonName == "Apple Push Services: com.example.demo")
        #expect(info.subject.hasPrefix("UID=com.example.demo, CN=Apple Push Services: com.example.demo, OU=ABCDE12345"))
        #expect(info.issuer == "O=apnsctl, CN=apnsctl Test CA")
        #expect(info.keyType == "EC P-256")
        #expect(info.serial.count == 32)
        #expect(info.serial == info.serial.uppercased())
        #expect(info.sha256.count == 64)
        #expect(info.defaultEnvironment == .sandbox)
        #expect(info.defaultTopic(for: .voip) == "com.example.demo.voip")
        #expect(info.defaultTopic(for: .alert) == "com.example.demo")
        #expect(info.defaultTopic(for: .widgets) == "com.example.demo")
        #expect(info.topics.contains("com.example.demo.complication"))
        #expect(!info.topics.contains("com.other"))
    }

    @Test func singleEnvironmentInfo() {
        let dev = TestCredentials.developmentRSA.info
        #expect(dev.environments == [.sandbox])
        #expect(dev.keyType == "RSA 2048")
        #expect(dev.topics == ["com.example.dev"])
        #expect(!dev.hasTopicsExtension)
        #expect(dev.defaultEnvironment == .sandbox)
        let prod = TestCredentials.production.info
        #expect(prod.environments == [.production])
        #expect(prod.defaultEnvironment == .production)
    }

    @Test func sha256AndSerialMatchOpenSSL() throws {
        let dir = try TemporaryDirectory()
        let leaf = try dir.put("push.pem", TestCredentials.universal.certificate.pem)
        let out = try openssl(["x509", "-in", leaf, "-noout", "-fingerprint", "-sha256", "-serial"]).stdout
        let info = TestCredentials.universal.info
        let fingerprint = info.sha256.uppercased().enumerated().map { i, c in i > 0 && i % 2 == 0 ? ":\(c)" : "\(c)" }
            .joined()
        #expect(out.contains(fingerprint))
        #expect(out.contains("serial=\(info.serial)"))
    }

    @Test func validityDatesRoundTrip() throws {
        let now = SystemClock.now()
        let expired = try CredentialGenerator.makePushCertificate(
            ca: TestCredentials.ca, bundleID: "com.x", kind: .development,
            validity: Validity(notBefore: now - 400 * 86_400, notAfter: now - 10 * 86_400 - 5))
        let info = expired.info
        #expect(info.notAfter == now - 10 * 86_400 - 5)
        #expect(info.isExpired(now: now))
        #expect(info.daysRemaining(now: now) == -10)
        #expect(throws: CredentialProblem.self) { try expired.checkValidity(now: now) }
    }

    @Test func serverCertificateWorksForTLSNames() throws {
        let dir = try TemporaryDirectory()
        let server = try CredentialGenerator.makeServerCertificate(ca: TestCredentials.ca)
        let ca = try dir.put("ca.pem", TestCredentials.ca.certificate.pem)
        let leaf = try dir.put("server.pem", server.certificate.pem)
        try openssl(["verify", "-CAfile", ca, "-purpose", "sslserver", leaf])
        try openssl(["verify", "-CAfile", ca, "-verify_hostname", "localhost", leaf])
        try openssl(["verify", "-CAfile", ca, "-verify_ip", "127.0.0.1", leaf])
        #expect(throws: (any Error).self) {
            try openssl(["verify", "-CAfile", ca, "-verify_hostname", "example.com", leaf])
        }
        #expect(!server.info.isApplePush)
        #expect(server.info.environments.isEmpty)
    }

    @Test func rsaCAIssuesRSAServer() throws {
        let ca = try CredentialGenerator.makeCA(key: .rsa(bits: 2048))
        let server = try CredentialGenerator.makeServerCertificate(ca: ca, key: .rsa(bits: 2048))
        #expect(server.certificate.isSigned(by: ca.certificate))
        #expect(!server.certificate.isSigned(by: TestCredentials.ca.certificate))
        #expect(server.info.keyType == "RSA 2048")
    }
}
