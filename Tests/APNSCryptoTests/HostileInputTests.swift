import APNSCore
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// No input may crash: empty files, random bytes, damaged PEM, truncated PKCS#12, directories.
@Suite struct HostileInputTests {
    private func problem(_ path: String, key: String? = nil) -> CredentialProblem? {
        do {
            _ = try CredentialLoader.loadIdentity(
                certificate: .file(path), key: key.map { .file($0) }, passphrase: .literal("x"))
            return nil
        } catch { return error }
    }

    @Test func missingEmptyAndDirectory() throws {
        let dir = try TemporaryDirectory()
        #expect(problem(dir.file("absent.p12")) == .fileMissing(path: dir.file("absent.p12")))
        #expect(problem(dir.file("absent.p12"))?.isInputMissing == true)
        let empty = try dir.write("empty.pem", "")
        #expect(problem(empty) == .empty(path: empty))
        let blank = try dir.write("blank.pem", "\n  \n")
        #expect(problem(blank) == .empty(path: blank))
        if case .fileUnreadable? = problem(dir.path) {} else { Issue.record("directory accepted") }
    }

    @Test func textAndRandomBytes() throws {
        let dir = try TemporaryDirectory()
        let text = try dir.write("notes.txt", "hello, this is not a certificate\n")
        guard case .notACredential? = problem(text) else {
            Issue.record("text")
            return
        }
        var rng = SystemRandomNumberGenerator()
        for i in 0..<30 {
            var bytes = (0..<Int.random(in: 1...3000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if i % 3 == 0 { bytes[0] = 0x30 }
            let p = try dir.put("random\(i).bin", bytes)
            let found = problem(p)
            #expect(found != nil)
            #expect(found?.isInputMissing == false)
        }
    }

    @Test func damagedPEM() throws {
        let dir = try TemporaryDirectory()
        let garbage = try dir.write(
            "garbage.pem", "-----BEGIN CERTIFICATE-----\nnot base64 at all!!\n-----END CERTIFICATE-----\n")
        guard case .corrupt? = problem(garbage) else {
            Issue.record("garbage: \(String(describing: problem(garbage)))")
            return
        }
        let pem = String(decoding: TestCredentials.universal.certificate.pem, as: UTF8.self)
        let cut = try dir.write("cut.pem", String(pem.prefix(pem.count / 2)))
        guard case .corrupt? = problem(cut) else {
            Issue.record("cut: \(String(describing: problem(cut)))")
            return
        }
        var lines = pem.split(separator: "\n").map(String.init)
        lines[3] = String(lines[3].reversed())
        let flipped = try dir.write("flipped.pem", lines.joined(separator: "\n") + "\n")
        guard case .corrupt? = problem(flipped) else {
            Issue.record("flipped: \(String(describing: problem(flipped)))")
            return
        }
        let badKey = try dir.write("badkey.pem", pem + "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        guard case .corrupt? = problem(badKey) else {
            Issue.record("badkey: \(String(describing: problem(badKey)))")
            return
        }
        let csr = try dir.write(
            "req.pem", "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n")
        guard case .notACredential? = problem(csr) else {
            Issue.record("csr")
            return
        }
    }

    @Test func truncatedAndFlippedPKCS12() throws {
        let dir = try TemporaryDirectory()
        let p12 = try TestCredentials.universal.pkcs12(password: SecretBytes(Array("pw".utf8)))
        for cut in [1, 2, 10, p12.count / 2, p12.count - 1] {
            let p = try dir.put("cut\(cut).p12", Array(p12.prefix(cut)))
            guard case .corrupt? = problem(p) else {
                Issue.record("cut \(cut): \(String(describing: problem(p)))")
                continue
            }
        }
        // Flip bytes all over the file: every outcome must be a typed problem or (for lucky flips) a load.
        for offset in stride(from: 4, to: p12.count, by: max(1, p12.count / 40)) {
            var bytes = p12
            bytes[offset] ^= 0x5A
            let p = try dir.put("flip\(offset).p12", bytes)
            do {
                _ = try CredentialLoader.loadIdentity(
                    certificate: .file(p), key: nil, passphrase: .literal("pw"), now: nil)
            } catch {
                #expect(!error.isInputMissing, "a damaged file is a credential problem (exit 77): \(error)")
            }
        }
    }

    @Test func signingKeyChecks() throws {
        let dir = try TemporaryDirectory()
        let rsaKey = try dir.put(
            "AuthKey_ABCDE12345.p8", try TestCredentials.developmentRSA.privateKey.pkcs8PEM(passphrase: nil))
        #expect(throws: CredentialProblem.notSigningKey(path: rsaKey, found: "RSA 2048")) {
            _ = try SigningKeyFile.read(.file(rsaKey)).decode()
        }
        let cert = try dir.put("AuthKey_ZZZZZ11111.p8", TestCredentials.universal.certificate.pem)
        #expect(throws: CredentialProblem.notSigningKey(path: cert, found: "a certificate")) {
            _ = try SigningKeyFile.read(.file(cert)).decode()
        }
        let good = try dir.put("AuthKey_QWERT12345.p8", try CredentialGenerator.makeSigningKey().p8PEM)
        #expect(try SigningKeyFile.read(.file(good)).decode().keyIDFromFileName == "QWERT12345")
    }

    @Test func topicsExtensionParserSurvivesGarbage() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if !bytes.isEmpty { bytes[0] = 0x30 }
            _ = ApplePush.topics(fromExtension: bytes)
        }
        let value = ApplePush.topicsExtension(bundleID: "com.x", topics: ["com.x", "com.x.voip"])
        #expect(ApplePush.topics(fromExtension: value) == ["com.x", "com.x.voip"])
        #expect(ApplePush.topics(fromExtension: Array(value.dropLast())) == [])
    }

    /// A crafted certificate with very many topics is read in linear time, repeats dropped.
    @Test func topicsExtensionWithManyTopicsIsFast() {
        let topics = (0..<40_000).map { "com.x.t\($0)" }
        let value = ApplePush.topicsExtension(bundleID: "com.x", topics: topics + ["com.x.t7"])
        let clock = ContinuousClock()
        var read: [String] = []
        let elapsed = clock.measure { read = ApplePush.topics(fromExtension: value) }
        #expect(read == topics)
        // Well under a second when linear; a quadratic repeat check over 40,000 topics takes minutes. The bound
        // leaves room for a busy machine.
        #expect(elapsed < .seconds(20), "took \(elapsed)")
    }
}
