import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// Loading every credential variant a developer has, most of them written by the `openssl` command.
@Suite struct CredentialLoaderTests {
    let pass = "s3cret-Pass"
    var identity: PushIdentity { TestCredentials.universal }

    /// cert.pem, key.pem (PKCS#8), ca.pem in a fresh directory.
    private func files() throws -> (TemporaryDirectory, cert: String, key: String, ca: String) {
        let dir = try TemporaryDirectory()
        let cert = try dir.put("cert.pem", identity.certificate.pem)
        let key = try dir.put("key.pem", try identity.privateKey.pkcs8PEM(passphrase: nil))
        let ca = try dir.put("ca.pem", TestCredentials.ca.certificate.pem)
        return (dir, cert, key, ca)
    }

    private func load(_ path: String, key: String? = nil, _ source: PassphraseSource = .none) throws(CredentialProblem)
        -> PushIdentity
    {
        try CredentialLoader.loadIdentity(certificate: .file(path), key: key.map { .file($0) }, passphrase: source)
    }

    private func expectProblem(_ expected: CredentialProblem, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected \(expected)")
        } catch let error as CredentialProblem {
            #expect(error == expected)
            #expect(!String(describing: error).contains(pass))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// A wrong passphrase is a wrong passphrase even when what it decrypts happens to end in valid CBC padding
    /// (about one try in 300): OpenSSL then reports only that no decoder took the garbage ("unsupported: No
    /// supported data to decode"), which must not read as an algorithm this OpenSSL cannot run. The test looks
    /// for such a passphrase first, so it proves the case every run.
    @Test func aWrongPassphraseWhoseGarbageDecryptsIsStillAWrongPassphrase() throws {
        let (dir, cert, _, _) = try files()
        let pem = try identity.privateKey.pkcs8PEM(passphrase: SecretBytes(Array(pass.utf8)))
        let key = try dir.put("enc.pem", pem)
        var lucky: String?
        for n in 0..<20_000 where lucky == nil {
            let guess = "wrong-\(n)"
            do {
                _ = try PrivateKey(pem: pem, passphrase: guess)
            } catch {
                if !error.mentions("bad decrypt") { lucky = guess }
            }
        }
        let guess = try #require(lucky, "no wrong passphrase decrypted to garbage in 20,000 tries")
        expectProblem(.wrongPassphrase(path: key)) { _ = try load(cert, key: key, .literal(guess)) }
    }

    @Test func pemSeparateAndCombined() throws {
        let (dir, cert, key, _) = try files()
        let a = try load(cert, key: key)
        #expect(a.info.sha256 == identity.info.sha256)
        let combined = try dir.put("both.pem", try identity.pem())
        let b = try load(combined)
        #expect(b.info.bundleID == "com.example.demo")
        #expect(b.chain.count == 1)
        #expect(b.chain.first?.info.commonName == "apnsctl Test CA")
    }

    @Test func chainOrderDoesNotMatterLeafIsTheKeysCertificate() throws {
        let dir = try TemporaryDirectory()
        let text =
            TestCredentials.ca.certificate.pem + (try identity.privateKey.pkcs8PEM(passphrase: nil))
            + identity.certificate.pem
        let path = try dir.put("mixed.pem", text)
        let loaded = try load(path)
        #expect(loaded.certificate.info.sha256 == identity.info.sha256)
        #expect(loaded.chain.map(\.info.sha256) == [TestCredentials.ca.info.sha256])
    }

    /// A renewal from the same request beside the expired certificate (one Keychain export, one PEM): the key
    /// belongs to both, and the one that lasts is the leaf, whichever comes first; the other is left out, named.
    @Test func anExpiredCertificateBesideItsRenewalLeavesTheRenewalAsLeaf() throws {
        let dir = try TemporaryDirectory()
        let now = SystemClock.now()
        let key = identity.privateKey
        let expired = try CredentialGenerator.makePushCertificate(
            ca: TestCredentials.ca, bundleID: "com.example.app", kind: .universal(topics: ["com.example.app"]),
            validity: Validity(notBefore: now - 400 * 86_400, notAfter: now - 30 * 86_400), reusing: key)
        let renewed = try CredentialGenerator.makePushCertificate(
            ca: TestCredentials.ca, bundleID: "com.example.app", kind: .universal(topics: ["com.example.app"]),
            validity: Validity(notBefore: now - 86_400, notAfter: now + 300 * 86_400), reusing: key)
        let keyPEM = try key.pkcs8PEM(passphrase: nil)
        for (name, order) in [
            ("old-first.pem", expired.certificate.pem + renewed.certificate.pem + keyPEM),
            ("new-first.pem", renewed.certificate.pem + keyPEM + expired.certificate.pem),
        ] {
            let loaded = try load(try dir.put(name, order))
            #expect(loaded.certificate.info.sha256 == renewed.certificate.info.sha256, "\(name)")
            #expect(loaded.leftOut.map(\.sha256) == [expired.certificate.info.sha256], "\(name)")
        }
    }

    /// A file with its own key and chain (a `.p12`, a PEM bundle) keeps its own leaf when `--key` names the key
    /// of a chain certificate (the CA's): a mismatch, never the CA taken as the identity with its key.
    @Test func aKeyOfAChainCertificateIsAMismatchNotANewLeaf() throws {
        let dir = try TemporaryDirectory()
        let caKey = try dir.put("ca.key", try TestCredentials.ca.privateKey.pkcs8PEM(passphrase: nil))
        let p12 = try dir.put("push.p12", try identity.pkcs12(password: SecretBytes(Array(pass.utf8))))
        let bundle = try dir.put("both.pem", try identity.pem())
        for (path, source) in [(p12, PassphraseSource.literal(pass)), (bundle, .none)] {
            expectProblem(.keyDoesNotMatchCertificate(certificatePath: path, keyPath: caKey)) {
                try _ = load(path, key: caKey, source)
            }
            let contents = try CredentialLoader.loadContents(.file(path), key: .file(caKey), passphrase: source)
            #expect(contents.leaf?.info.sha256 == identity.info.sha256, "\(path)")
            #expect(contents.keyMatches == false, "\(path)")
            // Its own key given again with --key is no mismatch.
            let own = try dir.put("own.key", try identity.privateKey.pkcs8PEM(passphrase: nil))
            #expect(try load(path, key: own, source).info.sha256 == identity.info.sha256)
        }
        // No key in the file: --key with the CA's key still names the push certificate, and is a mismatch.
        let keyless = try dir.put("chain.pem", identity.certificate.pem + TestCredentials.ca.certificate.pem)
        expectProblem(.keyDoesNotMatchCertificate(certificatePath: keyless, keyPath: caKey)) {
            try _ = load(keyless, key: caKey)
        }
        // A renewed certificate appended to the old one and its key: --key with the new key picks the new one.
        let renewed = TestCredentials.production
        let both = try dir.put("renewed.pem", try identity.pem() + renewed.certificate.pem)
        let newKey = try dir.put("new.key", try renewed.privateKey.pkcs8PEM(passphrase: nil))
        #expect(try load(both, key: newKey).info.sha256 == renewed.info.sha256)
    }

    @Test func encryptedPKCS8KeyFromOpenSSL() throws {
        let (dir, cert, key, _) = try files()
        let enc = dir.file("enc.pem")
        try openssl(["pkcs8", "-topk8", "-in", key, "-out", enc, "-v2", "aes-256-cbc", "-passout", "pass:\(pass)"])
        #expect(try load(cert, key: enc, .literal(pass)).info.bundleID == "com.example.demo")
        expectProblem(.wrongPassphrase(path: enc)) { try _ = load(cert, key: enc, .literal("nope")) }
        expectProblem(.passphraseRequired(path: enc)) { try _ = load(cert, key: enc, .none) }
    }

    @Test func passphraseFromFileAndEnvironmentVariable() throws {
        let (dir, cert, key, _) = try files()
        let enc = dir.file("enc.pem")
        try openssl(["pkcs8", "-topk8", "-in", key, "-out", enc, "-v2", "aes-256-cbc", "-passout", "pass:\(pass)"])
        let passFile = try dir.write("pass.txt", "\(pass)\r\nsecond line\n")
        #expect(throws: Never.self) {
            try _ = load(cert, key: enc, PassphraseSource(filePath: passFile, environmentVariable: nil))
        }
        setenv("APNSCTL_TEST_PASS_\(getpid())", pass, 1)
        defer { unsetenv("APNSCTL_TEST_PASS_\(getpid())") }
        let env = PassphraseSource(environmentVariable: "APNSCTL_TEST_PASS_\(getpid())")
        #expect(throws: Never.self) { try _ = load(cert, key: enc, env) }
        let missing = PassphraseSource(filePath: dir.file("nope.txt"))
        expectProblem(
            .passphraseFileUnreadable(path: dir.file("nope.txt"), failure: .missing(path: dir.file("nope.txt")))
        ) {
            try _ = load(cert, key: enc, missing)
        }
    }

    @Test func traditionalRSAAndSEC1Keys() throws {
        let dir = try TemporaryDirectory()
        let rsa = TestCredentials.developmentRSA
        let cert = try dir.put("rsa.pem", rsa.certificate.pem)
        let pk8 = try dir.put("rsa-key.pem", try rsa.privateKey.pkcs8PEM(passphrase: nil))
        let pkcs1 = dir.file("pkcs1.pem")
        try openssl(["pkey", "-in", pk8, "-out", pkcs1, "-traditional"])
        #expect(try String(contentsOfFile: pkcs1, encoding: .utf8).contains("BEGIN RSA PRIVATE KEY"))
        #expect(try load(cert, key: pkcs1).info.keyType == "RSA 2048")
        // Legacy PEM encryption (Proc-Type: 4,ENCRYPTED).
        let pkcs1enc = dir.file("pkcs1-enc.pem")
        try openssl(["rsa", "-in", pkcs1, "-out", pkcs1enc, "-traditional", "-aes256", "-passout", "pass:\(pass)"])
        #expect(try load(cert, key: pkcs1enc, .literal(pass)).info.bundleID == "com.example.dev")
        expectProblem(.wrongPassphrase(path: pkcs1enc)) { try _ = load(cert, key: pkcs1enc, .literal("wrong")) }

        let ecCert = try dir.put("ec.pem", identity.certificate.pem)
        let ecKey = try dir.put("ec-key.pem", try identity.privateKey.pkcs8PEM(passphrase: nil))
        let sec1 = dir.file("sec1.pem")
        try openssl(["ec", "-in", ecKey, "-out", sec1])
        #expect(try String(contentsOfFile: sec1, encoding: .utf8).contains("BEGIN EC PRIVATE KEY"))
        #expect(try load(ecCert, key: sec1).info.keyType == "EC P-256")
    }

    /// A PKCS#8 key encrypted with RC2 (older tools' `-v1 PBE-SHA1-RC2-40`) needs OpenSSL 3's legacy provider,
    /// loaded for it as for a Keychain `.p12`; a wrong passphrase stays a wrong passphrase.
    @Test func anRC2EncryptedKeyLoadsWithTheLegacyProvider() throws {
        let dir = try TemporaryDirectory()
        let cert = try dir.put("cert.pem", identity.certificate.pem)
        let plain = try dir.put("key.pem", try identity.privateKey.pkcs8PEM(passphrase: nil))
        let rc2 = dir.file("rc2.pem")
        try openssl([
            "pkcs8", "-topk8", "-in", plain, "-v1", "PBE-SHA1-RC2-40", "-passout", "pass:\(pass)", "-out", rc2,
            "-provider", "legacy", "-provider", "default",
        ])
        #expect(try load(cert, key: rc2, .literal(pass)).info.sha256 == identity.info.sha256)
        expectProblem(.wrongPassphrase(path: rc2)) { try _ = load(cert, key: rc2, .literal("wrong")) }
    }

    @Test(arguments: [
        ("modern", [String]()),
        ("legacy", ["-legacy"]),
        ("3des", ["-certpbe", "PBE-SHA1-3DES", "-keypbe", "PBE-SHA1-3DES"]),
        ("nomac", ["-nomac"]),
        (
            "rc2",
            [
                "-certpbe", "PBE-SHA1-RC2-40", "-keypbe", "PBE-SHA1-3DES", "-macalg", "sha1", "-provider", "legacy",
                "-provider", "default",
            ]
        ),
    ])
    func pkcs12FromOpenSSL(name: String, options: [String]) throws {
        let (dir, cert, key, ca) = try files()
        let p12 = dir.file("\(name).p12")
        try openssl(
            ["pkcs12", "-export", "-in", cert, "-inkey", key, "-certfile", ca, "-out", p12, "-passout", "pass:\(pass)"]
                + options)
        let loaded = try load(p12, .literal(pass))
        #expect(loaded.info.sha256 == identity.info.sha256)
        #expect(loaded.chain.map(\.info.sha256) == [TestCredentials.ca.info.sha256])
        let contents = try CredentialLoader.loadContents(.file(p12), key: nil, passphrase: .literal(pass))
        #expect(contents.kind == .pkcs12)
        #expect(contents.keyMatches == true)
        expectProblem(.wrongPassphrase(path: p12)) { try _ = load(p12, .literal("wrong")) }
        expectProblem(.passphraseRequired(path: p12)) { try _ = load(p12, .none) }
    }

    @Test(arguments: [[String](), ["-legacy"]])
    func pkcs12WithEmptyPasswordNeedsNoPassphrase(options: [String]) throws {
        let (dir, cert, key, _) = try files()
        let p12 = dir.file("empty.p12")
        try openssl(["pkcs12", "-export", "-in", cert, "-inkey", key, "-out", p12, "-passout", "pass:"] + options)
        #expect(try load(p12, .none).info.bundleID == "com.example.demo")
    }

    @Test func pkcs12WrittenByApnsctlReadByOpenSSL() throws {
        let dir = try TemporaryDirectory()
        for (name, enc) in [("modern", PKCS12Encryption.modern), ("legacy", .legacy), ("3des", .tripleDES)] {
            let p12 = try dir.put(
                "\(name).p12", try identity.pkcs12(password: SecretBytes(Array(pass.utf8)), encryption: enc))
            var args = ["pkcs12", "-in", p12, "-passin", "pass:\(pass)", "-nodes"]
            if enc == .legacy { args += ["-legacy"] }
            let out = try openssl(args).stdout
            #expect(out.contains("BEGIN CERTIFICATE"))
            #expect(out.contains("BEGIN PRIVATE KEY"))
            let info = try openssl(
                ["pkcs12", "-in", p12, "-passin", "pass:\(pass)", "-info", "-noout"]
                    + (enc == .legacy ? ["-legacy"] : [])
            ).stderr
            switch enc {
            case .modern: #expect(info.contains("AES-256-CBC") && info.contains("sha256"))
            case .legacy:
                #expect(info.contains("PKCS7 Encrypted data: pbeWithSHA1And40BitRC2-CBC"))
                #expect(info.contains("Shrouded Keybag: pbeWithSHA1And3-KeyTripleDES-CBC"))
                #expect(info.contains("MAC: sha1"))
            case .tripleDES: #expect(info.contains("pbeWithSHA1And3-KeyTripleDES-CBC") && !info.contains("RC2"))
            }
            #expect(try load(p12, .literal(pass)).chain.count == 1)
        }
        let empty = try dir.put("empty.p12", try identity.pkcs12(password: SecretBytes([])))
        try openssl(["pkcs12", "-in", empty, "-passin", "pass:", "-nodes", "-noout"])
        #expect(try load(empty, .none).info.bundleID == "com.example.demo")
    }

    @Test func encryptedPEMWrittenByApnsctlReadByOpenSSL() throws {
        let dir = try TemporaryDirectory()
        let pem = try identity.privateKey.pkcs8PEM(passphrase: SecretBytes(Array(pass.utf8)))
        #expect(String(decoding: pem, as: UTF8.self).contains("BEGIN ENCRYPTED PRIVATE KEY"))
        let path = try dir.put("enc.pem", pem)
        let out = try openssl(["pkey", "-in", path, "-passin", "pass:\(pass)", "-noout", "-text"]).stdout
        #expect(out.contains("P-256") || out.contains("prime256v1"))
    }

    @Test func keyMismatch() throws {
        let (dir, cert, _, _) = try files()
        let other = try dir.put("other.pem", try TestCredentials.production.privateKey.pkcs8PEM(passphrase: nil))
        expectProblem(.keyDoesNotMatchCertificate(certificatePath: cert, keyPath: other)) {
            try _ = load(cert, key: other)
        }
        let contents = try CredentialLoader.loadContents(.file(cert), key: .file(other), passphrase: .none)
        #expect(contents.keyMatches == false)
    }

    @Test func certificateWithoutKeyAndKeyWithoutCertificate() throws {
        let (dir, cert, key, _) = try files()
        _ = dir
        expectProblem(.noPrivateKey(path: cert)) { try _ = load(cert) }
        let contents = try CredentialLoader.loadContents(.file(cert), key: nil, passphrase: .none)
        #expect(contents.keyMatches == nil)
        #expect(contents.kind == .certificate)
        // A lone P-256 key is a .p8.
        let p8 = try CredentialLoader.loadContents(.file(key), key: nil, passphrase: .none)
        #expect(p8.kind == .authKey)
        expectProblem(.noCertificate(path: key)) { try _ = load(key) }
    }

    @Test func derCertificateAsDownloadedFromApple() throws {
        let dir = try TemporaryDirectory()
        let cer = try dir.put("aps.cer", identity.certificate.der)
        let key = try dir.put("key.pem", try identity.privateKey.pkcs8PEM(passphrase: nil))
        #expect(try load(cer, key: key).info.topics == TestCredentials.universalTopics)
    }

    @Test func expiredAndNotYetValid() throws {
        let dir = try TemporaryDirectory()
        let now = SystemClock.now()
        let old = try CredentialGenerator.makePushCertificate(
            ca: TestCredentials.ca, bundleID: "com.old", kind: .development,
            validity: Validity(notBefore: now - 100 * 86_400, notAfter: now - 3 * 86_400))
        let oldPath = try dir.put("old.pem", try old.pem())
        do {
            _ = try load(oldPath)
            Issue.record("expired certificate loaded")
        } catch {
            guard case .expired(let p, let t, let days) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(p == oldPath && t == old.info.notAfter && days == 3)
        }
        let future = try CredentialGenerator.makePushCertificate(
            ca: TestCredentials.ca, bundleID: "com.new", kind: .production,
            validity: Validity(notBefore: now + 5 * 86_400 + 100, notAfter: now + 50 * 86_400))
        let futurePath = try dir.put("future.pem", try future.pem())
        #expect(throws: CredentialProblem.notYetValid(path: futurePath, notBefore: future.info.notBefore, daysAhead: 5))
        {
            _ = try load(futurePath)
        }
        // Without a date check (inspect), both load.
        #expect(
            try CredentialLoader.loadIdentity(certificate: .file(oldPath), key: nil, passphrase: .none, now: nil).info
                .bundleID == "com.old")
    }

    @Test func environmentCheck() throws {
        #expect(throws: CredentialProblem.self) { try TestCredentials.production.checkEnvironment(.sandbox) }
        #expect(throws: Never.self) { try TestCredentials.production.checkEnvironment(.production) }
        #expect(throws: Never.self) { try TestCredentials.universal.checkEnvironment(.production) }
    }
}
