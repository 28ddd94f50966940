import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// `apnsctl inspect` end to end: every variant shows bundle id, topics, environments and expiry right.
@Suite struct InspectCommandTests {
    let pass = CredentialFixtures.passphrase

    /// Without OpenSSL's legacy module (OPENSSL_MODULES naming an empty directory), a Keychain-style RC2
    /// `.p12` and an RC2-encrypted PKCS#8 key are exit 77 naming the algorithm and the provider to install;
    /// a key's wrong passphrase cannot be told from a right one without the cipher, so it gets the same
    /// advice, while a `.p12`'s MAC (SHA-1, always there) still says "wrong passphrase". With the module,
    /// both are read.
    @Test func legacyEncryptionWithoutTheLegacyModuleNamesIt() throws {
        let dir = try TemporaryDirectory()
        let p12 = try dir.p12("push.p12", CredentialFixtures.universal, password: pass, encryption: .legacy)
        let plain = try dir.write("key.pem", try CredentialFixtures.universal.privateKey.pkcs8PEM(passphrase: nil))
        let rc2 = dir.file("rc2.pem")
        let made = try CommandRunner.run(
            "openssl",
            [
                "pkcs8", "-topk8", "-in", plain, "-v1", "PBE-SHA1-RC2-40", "-passout",
                "pass:\(pass)", "-out", rc2, "-provider", "legacy", "-provider", "default",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let empty = try TemporaryDirectory(prefix: "no-modules")
        for file in [p12, rc2] {
            for passphrase in [pass, "wrong"] {
                // The binary: OpenSSL reads OPENSSL_MODULES from the process's own environment.
                let r = try CommandRunner.apnsctl(
                    ["inspect", file, "--passphrase", passphrase],
                    environment: ["OPENSSL_MODULES": empty.path])
                #expect(r.status == 77, "\(file) \(passphrase): \(r.stderr)")
                if file == p12 && passphrase == "wrong" {
                    #expect(r.stderr.contains("error: \(file): wrong passphrase"), "\(r.stderr)")
                    continue
                }
                #expect(r.stderr.contains("error: \(file): uses an algorithm OpenSSL cannot run here ("), "\(r.stderr)")
                #expect(
                    r.stderr.contains("RC2-40-CBC") && r.stderr.contains("install OpenSSL's legacy provider"),
                    "\(r.stderr)")
            }
            let ok = try InProcess.apnsctl(["inspect", file, "--passphrase", pass])
            #expect(ok.status == 0, "\(file): \(ok.stderr)")
        }
        // Writing one with --legacy is the same missing piece of OpenSSL (77), not "a bug in apnsctl" (70).
        let pem = try dir.write("push.pem", try CredentialFixtures.universal.pem())
        let out = try dir.write("pass.txt", "n3w\n")
        let written = try CommandRunner.apnsctl(
            ["convert", pem, "-o", dir.file("legacy.p12"), "--legacy", "--out-passphrase-file", out],
            environment: ["OPENSSL_MODULES": empty.path])
        #expect(written.status == 77, "\(written.stderr)")
        #expect(
            written.stderr.hasPrefix(
                "error: --legacy: OpenSSL's legacy provider (legacy.so, for RC2 and 3DES) could not be loaded"),
            "\(written.stderr)")
    }

    @Test(arguments: [PKCS12Encryption.modern, .legacy, .tripleDES])
    func universalPKCS12(encryption: PKCS12Encryption) throws {
        let dir = try TemporaryDirectory()
        let p12 = try dir.p12("push.p12", CredentialFixtures.universal, password: pass, encryption: encryption)
        let passFile = try dir.write("pass.txt", pass + "\n")
        let r = try InProcess.apnsctl(["inspect", p12, "--passphrase-file", passFile, "-o", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try jsonObject(r.stdout)
        #expect(j["kind"] as? String == "pkcs12")
        #expect(j["bundle_id"] as? String == "com.example.demo")
        #expect(
            j["topics"] as? [String] == ["com.example.demo", "com.example.demo.voip", "com.example.demo.complication"])
        #expect(j["environments"] as? [String] == ["sandbox", "production"])
        #expect(j["has_private_key"] as? Bool == true)
        #expect(j["key_matches"] as? Bool == true)
        #expect(j["expired"] as? Bool == false)
        #expect(j["not_yet_valid"] as? Bool == false)
        #expect(j["key_type"] as? String == "EC P-256")
        #expect(j["sha256"] as? String == CredentialFixtures.universal.info.sha256)
        #expect(j["serial"] as? String == CredentialFixtures.universal.info.serial)
        #expect((j["days_remaining"] as? Int).map { $0 >= 364 && $0 <= 365 } == true)
        #expect((j["not_after"] as? String)?.hasSuffix("Z") == true)
        #expect(!r.stdout.contains(pass) && !r.stderr.contains(pass))
        #expect(r.stdout.split(separator: "\n").count == 1)
    }

    @Test func textOutputForDevelopmentPEM() throws {
        let dir = try TemporaryDirectory()
        let pem = try dir.pem("dev.pem", CredentialFixtures.development)
        let r = try InProcess.apnsctl(["inspect", pem])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("bundle id:    com.example.dev"))
        #expect(r.stdout.contains("environments: sandbox\n"))
        #expect(r.stdout.contains("key type:     RSA 2048"))
        #expect(r.stdout.contains("private key:  present, matches the certificate"))
        #expect(r.stdout.contains("days left"))
        #expect(r.stderr.isEmpty)
    }

    @Test func productionCertificateWithSeparateEncryptedKey() throws {
        let dir = try TemporaryDirectory()
        let cert = try dir.write("prod.pem", CredentialFixtures.production.certificate.pem)
        let key = try dir.write(
            "prod-key.pem",
            try CredentialFixtures.production.privateKey.pkcs8PEM(passphrase: SecretBytes(Array(pass.utf8))))
        let r = try InProcess.apnsctl(
            ["inspect", cert, "--key", key, "-o", "json"], environment: ["APNSCTL_PASSPHRASE": pass])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try jsonObject(r.stdout)
        #expect(j["environments"] as? [String] == ["production"])
        #expect(j["kind"] as? String == "certificate")
        #expect(j["key_matches"] as? Bool == true)
        // Without a key: shown, key_matches null.
        let bare = try InProcess.apnsctl(["inspect", cert, "-o", "json"])
        #expect(bare.status == 0)
        let b = try jsonObject(bare.stdout)
        #expect(b["has_private_key"] as? Bool == false)
        #expect(b["key_matches"] is NSNull)
    }

    /// A certificate with hours left, or expired hours ago, is said to be so in days as "less than a day": it was
    /// "0 days left", read as already expired, and "EXPIRED 0 days ago". The JSON keeps its whole days.
    @Test func hoursAreSaidAsLessThanADay() throws {
        let dir = try TemporaryDirectory()
        let now = SystemClock.now()
        let soon = try dir.pem(
            "soon.pem",
            try CredentialGenerator.makePushCertificate(
                ca: CredentialFixtures.ca, bundleID: "com.example.soon", kind: .development,
                validity: Validity(notBefore: now - 400 * 86_400, notAfter: now + 5 * 3_600)))
        let gone = try dir.pem(
            "gone.pem",
            try CredentialGenerator.makePushCertificate(
                ca: CredentialFixtures.ca, bundleID: "com.example.gone", kind: .development,
                validity: Validity(notBefore: now - 400 * 86_400, notAfter: now - 5 * 3_600)))
        let left = try InProcess.apnsctl(["inspect", soon])
        #expect(left.status == 0, "\(left.stderr)")
        #expect(left.stdout.contains("(less than a day left)"), "\(left.stdout)")
        let json = try jsonObject(try InProcess.apnsctl(["inspect", soon, "-o", "json"]).stdout)
        #expect(json["days_remaining"] as? Int == 0)
        // Doctor's credentials line comes before its network checks (an endpoint nothing listens on).
        let doctor = try InProcess.apnsctl(["doctor", "--cert", soon, "--endpoint", "https://127.0.0.1:9"])
        #expect(doctor.stdout.contains("(less than a day left)"), "\(doctor.stdout)")
        let expired = try InProcess.apnsctl(["inspect", gone])
        #expect(expired.status == 77, "\(expired.stderr)")
        #expect(expired.stdout.contains("EXPIRED less than a day ago"), "\(expired.stdout)")
        #expect(expired.stderr.contains("(less than a day ago)"), "\(expired.stderr)")
    }

    @Test func expiredIsShownThenExits77() throws {
        let dir = try TemporaryDirectory()
        let pem = try dir.pem("old.pem", try CredentialFixtures.expired())
        let r = try InProcess.apnsctl(["inspect", pem])
        #expect(r.status == 77)
        #expect(r.stdout.contains("bundle id:    com.example.old"))
        #expect(r.stdout.contains("EXPIRED 30 days ago"))
        #expect(r.stderr.hasPrefix("error: \(pem): the certificate expired on "))
        let j = try InProcess.apnsctl(["inspect", pem, "-o", "json"])
        #expect(j.status == 77)
        let o = try jsonObject(j.stdout)
        #expect(o["expired"] as? Bool == true)
        #expect(o["days_remaining"] as? Int == -30)
    }

    @Test func notYetValidExits77() throws {
        let dir = try TemporaryDirectory()
        let pem = try dir.pem("new.pem", try CredentialFixtures.notYetValid())
        let r = try InProcess.apnsctl(["inspect", pem, "-o", "json"])
        #expect(r.status == 77)
        #expect(try jsonObject(r.stdout)["not_yet_valid"] as? Bool == true)
        #expect(r.stderr.contains("not valid before"))
    }

    @Test func nonAppleCertificateWarnsOnly() throws {
        let dir = try TemporaryDirectory()
        let pem = try dir.pem("plain.pem", CredentialFixtures.plain)
        let r = try InProcess.apnsctl(["inspect", pem, "-o", "json"])
        #expect(r.status == 0)
        #expect(try jsonObject(r.stdout)["environments"] as? [String] == [])
        #expect(r.stderr.hasPrefix("warning: "))
        #expect(r.stderr.contains("no Apple push extensions"))
        // Named like Apple's, without Apple's extensions (home-made, or edited): warned about too, by its name.
        let named = try dir.pem(
            "named.pem",
            try CredentialGenerator.makeClientCertificate(
                ca: CredentialFixtures.ca, commonName: "Apple Push Services: com.acme.app"))
        for args in [
            ["inspect", named],
            ["send", "--cert", named, "--dry-run", "--alert", "hi", "-d", String(repeating: "ab", count: 32)],
        ] {
            let n = try InProcess.apnsctl(args)
            #expect(n.status == 0, "\(args): \(n.stderr)")
            #expect(
                n.errorLines.first
                    == "warning: \(named): named like an Apple push certificate (CN Apple Push Services: com.acme.app), but without Apple's push extensions, which every push certificate Apple issues carries; APNs will answer 403 BadCertificate to a home-made or edited copy. Use the push certificate from the Apple Developer portal",
                "\(args): \(n.stderr)")
        }
    }

    @Test func authKey() throws {
        let dir = try TemporaryDirectory()
        let p8 = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM)
        let r = try InProcess.apnsctl(["inspect", p8, "-o", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try jsonObject(r.stdout)
        #expect(j["kind"] as? String == "auth-key")
        #expect(j["key_id"] as? String == "ABCDE12345")
        #expect(j["key_type"] as? String == "EC P-256")
        let t = try InProcess.apnsctl(["inspect", p8])
        #expect(t.stdout.contains("key id:   ABCDE12345"))
        #expect(!t.stdout.contains("PRIVATE KEY"))
        #expect(t.stderr.isEmpty, "\(t.stderr)")
        // A --key beside a .p8 is not read, and said so.
        let keyed = try InProcess.apnsctl(["inspect", p8, "--key", p8])
        #expect(keyed.status == 0, "\(keyed.stderr)")
        #expect(
            keyed.stderr
                == "warning: --key \(p8) is not read: \(p8) is a .p8 signing key, which goes with no certificate (inspect the certificate with --key instead)\n"
        )
        // Not read at all: an RSA key as --key leaves the .p8 reported as the .p8 it is, not as an RSA key.
        let rsa = try dir.write("rsa.key", try PrivateKey.generate(.rsa(bits: 2048)).pkcs8PEM(passphrase: nil))
        let beside = try InProcess.apnsctl(["inspect", p8, "--key", rsa, "-o", "json"])
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(try jsonObject(beside.stdout)["key_type"] as? String == "EC P-256", "\(beside.stdout)")
        // An encrypted one opens with its passphrase here, but send and jwt refuse it: inspect says so.
        try FileManager.default.createDirectory(atPath: dir.file("enc"), withIntermediateDirectories: false)
        let encrypted = try dir.write(
            "enc/AuthKey_ABCDE12345.p8",
            try CredentialFixtures.signingKey.privateKey.pkcs8PEM(passphrase: SecretBytes(Array("pw".utf8))))
        let e = try InProcess.apnsctl(["inspect", encrypted, "--passphrase", "pw"])
        #expect(e.status == 0, "\(e.stderr)")
        #expect(
            e.stderr
                == "warning: \(encrypted): the key is encrypted, and Apple's .p8 keys are not, so send and jwt refuse it; decrypt it (openssl pkey -in \(encrypted) -out AuthKey_ABCDE12345.decrypted.p8) or download the .p8 key again\n"
        )
    }

    @Test func keyMismatchIs77() throws {
        let dir = try TemporaryDirectory()
        let cert = try dir.write("cert.pem", CredentialFixtures.universal.certificate.pem)
        let key = try dir.write("key.pem", try CredentialFixtures.production.privateKey.pkcs8PEM(passphrase: nil))
        let r = try InProcess.apnsctl(["inspect", cert, "--key", key, "-o", "json"])
        #expect(r.status == 77)
        #expect(try jsonObject(r.stdout)["key_matches"] as? Bool == false)
        #expect(r.stderr.contains("does not belong to the certificate"))
    }

    @Test func encryptedWithoutPassphraseAndNoTerminal() throws {
        let dir = try TemporaryDirectory()
        let p12 = try dir.p12("push.p12", CredentialFixtures.universal, password: pass)
        let r = try InProcess.apnsctl(["inspect", p12], environment: ["APNSCTL_PASSPHRASE": ""].filter { _ in false })
        #expect(r.status == 77)
        #expect(r.stderr.contains("--passphrase-file"))
        #expect(r.stderr.contains("APNSCTL_PASSPHRASE"))
        #expect(r.stdout.isEmpty)
        let wrong = try InProcess.apnsctl(["inspect", p12, "--passphrase", "not-it"])
        #expect(wrong.status == 77)
        #expect(wrong.stderr.contains("wrong passphrase"))
        let missingFile = try InProcess.apnsctl(["inspect", p12, "--passphrase-file", dir.file("nope")])
        #expect(missingFile.status == 66)
    }

    /// `APNSCTL_PASSPHRASE_FILE`, which `send` reads, is read by `inspect` and `convert` too (a CI job sets it
    /// once); a flag beats it, and it beside `APNSCTL_PASSPHRASE` is refused, as `send` refuses the pair.
    @Test func thePassphraseFileVariableIsReadAsSendReadsIt() throws {
        let dir = try TemporaryDirectory()
        let p12 = try dir.p12("push.p12", CredentialFixtures.universal, password: pass)
        let file = try dir.write("pass.txt", pass + "\n")
        let inspect = try InProcess.apnsctl(["inspect", p12], environment: ["APNSCTL_PASSPHRASE_FILE": file])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let convert = try InProcess.apnsctl(
            ["convert", p12, "-o", dir.file("out.pem")], environment: ["APNSCTL_PASSPHRASE_FILE": file])
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.file("out.pem")))
        let flag = try InProcess.apnsctl(
            ["inspect", p12, "--passphrase", pass], environment: ["APNSCTL_PASSPHRASE_FILE": dir.file("none")])
        #expect(flag.status == 0, "\(flag.stderr)")
        let missing = try InProcess.apnsctl(
            ["inspect", p12], environment: ["APNSCTL_PASSPHRASE_FILE": dir.file("none")])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("APNSCTL_PASSPHRASE_FILE"), "\(missing.stderr)")
        let both = try InProcess.apnsctl(
            ["inspect", p12], environment: ["APNSCTL_PASSPHRASE_FILE": file, "APNSCTL_PASSPHRASE": pass])
        #expect(both.status == 64)
        #expect(
            both.stderr == "error: APNSCTL_PASSPHRASE and APNSCTL_PASSPHRASE_FILE both given; pass only one\n")
        let piped = try InProcess.apnsctl(
            ["inspect", "-"], stdin: Array(try Data(contentsOf: URL(fileURLWithPath: p12))),
            environment: ["APNSCTL_PASSPHRASE_FILE": "-"])
        #expect(piped.status == 64, "\(piped.stderr)")
        #expect(piped.stderr.contains("APNSCTL_PASSPHRASE_FILE -"), "\(piped.stderr)")
    }

    /// The chain is the CAs that signed the certificate, or signed those, checked by signature: a CA bundled beside
    /// them that signed none (an old intermediate of the same name, re-issued with another key, first in the file)
    /// is said and left out, of the report and of what convert writes; the one that signed it is kept.
    @Test func aCABesideTheChainThatSignedNothingIsLeftOut() throws {
        let dir = try TemporaryDirectory()
        let old = try CredentialGenerator.makeCA(commonName: "Same Name CA")
        let current = try CredentialGenerator.makeCA(commonName: "Same Name CA")
        let unrelated = try CredentialGenerator.makeCA(commonName: "Unrelated CA")
        let leaf = try CredentialGenerator.makePushCertificate(
            ca: current, bundleID: "com.example.demo", kind: .universal(topics: ["com.example.demo"]))
        let text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
        let file = try dir.write(
            "bundle.pem",
            text(leaf.certificate.pem) + text(try leaf.privateKey.pkcs8PEM(passphrase: nil)) + text(old.certificate.pem)
                + text(unrelated.certificate.pem) + text(current.certificate.pem))
        let r = try InProcess.apnsctl(["inspect", file])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.contains { $0.hasPrefix("chain:") && $0.contains("Same Name CA") }, "\(r.stdout)")
        for name in ["Same Name CA", "Unrelated CA"] {
            #expect(
                r.stderr.contains(
                    "warning: \(file): the CA certificate \(name) signed neither the certificate nor its chain"),
                "\(r.stderr)")
        }
        let out = dir.file("out.pem")
        let converted = try InProcess.apnsctl(["convert", file, "-o", out])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stderr.contains("1 chain certificate"), "\(converted.stderr)")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.contains(text(current.certificate.pem)) && !written.contains(text(old.certificate.pem)))
    }

    /// A topics extension nothing can be read from (here a bare string, not Apple's sequence) leaves the bundle id
    /// as the only topic: said, not shown as if the certificate had no other.
    @Test func anUnreadableTopicsExtensionIsSaid() throws {
        let dir = try TemporaryDirectory()
        let made = try CommandRunner.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                dir.file("key.pem"), "-subj", "/UID=com.acme.app/CN=Apple Push Services: com.acme.app", "-addext",
                "1.2.840.113635.100.6.3.1=DER:0500", "-addext", "1.2.840.113635.100.6.3.6=DER:0c03616263", "-days", "2",
                "-out", dir.file("cert.pem"),
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let file = try dir.write(
            "push.pem", try dir.read("cert.pem") + (try dir.read("key.pem")))
        let r = try InProcess.apnsctl(["inspect", file])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.contains { $0.hasPrefix("topics:") && $0.hasSuffix(" com.acme.app") }, "\(r.stdout)")
        #expect(
            r.errorLines == [
                "warning: \(file): the certificate's topics extension (1.2.840.113635.100.6.3.6) could not be read, so its topic is taken to be the bundle id alone (com.acme.app); download the certificate from the Apple Developer portal again"
            ], "\(r.stderr)")
    }

    /// A CA appended to a file that already ends with it (`cat client.pem ca.pem > both.pem`), and again: listed,
    /// written and sent once, not once for each copy.
    @Test func aCACopiedTwiceIntoTheFileIsTheChainOnce() throws {
        let dir = try TemporaryDirectory()
        let ca = try CredentialGenerator.makeCA(commonName: "Copied CA")
        let leaf = try CredentialGenerator.makePushCertificate(
            ca: ca, bundleID: "com.example.demo", kind: .universal(topics: ["com.example.demo"]))
        let text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
        let file = try dir.write(
            "copies.pem",
            text(leaf.certificate.pem) + text(try leaf.privateKey.pkcs8PEM(passphrase: nil))
                + String(repeating: text(ca.certificate.pem), count: 3))
        let r = try InProcess.apnsctl(["inspect", file])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.lines.contains { $0.hasPrefix("chain:") && $0.hasSuffix(" Copied CA") }, "\(r.stdout)")
        let out = dir.file("out.pem")
        let converted = try InProcess.apnsctl(["convert", file, "-o", out])
        #expect(converted.stderr.contains("certificate, 1 chain certificate, private key"), "\(converted.stderr)")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.components(separatedBy: "BEGIN CERTIFICATE").count - 1 == 2, "\(written)")
    }

    /// Two keys in one PEM (an old one kept beside the renewed certificate and its key): the certificate's is
    /// used, whichever comes first, and an encrypted old one asks for no passphrase; with none of the
    /// certificate's, the mismatch is still said.
    @Test func ofTwoKeysTheCertificatesIsUsed() throws {
        let dir = try TemporaryDirectory()
        let leaf = CredentialFixtures.universal
        let old = String(decoding: try PrivateKey.generate(.ecP256).pkcs8PEM(passphrase: nil), as: UTF8.self)
        let own = String(decoding: try leaf.privateKey.pkcs8PEM(passphrase: nil), as: UTF8.self)
        let cert = String(decoding: leaf.certificate.pem, as: UTF8.self)
        let file = try dir.write("two.pem", old + own + cert)
        let r = try InProcess.apnsctl(["inspect", file, "-o", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try jsonObject(r.stdout)["key_matches"] as? Bool == true, "\(r.stdout)")
        let wrong = try dir.write("wrong.pem", old + cert)
        #expect(try InProcess.apnsctl(["inspect", wrong]).status == 77)
        let lockedOld = String(
            decoding: try PrivateKey.generate(.ecP256).pkcs8PEM(passphrase: SecretBytes(Array("old".utf8))),
            as: UTF8.self)
        let locked = try dir.write("locked.pem", cert + lockedOld + own)
        let unlocked = try InProcess.apnsctl(["inspect", locked, "-o", "json"])
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        #expect(try jsonObject(unlocked.stdout)["key_matches"] as? Bool == true, "\(unlocked.stdout)")
        // A self-signed certificate made by `openssl req -x509` (CA:TRUE) is the leaf when it is the only one: its own
        // key is found after another (the first key was taken, and the file said to hold the wrong one).
        let made = try CommandRunner.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=self",
                "-days", "2", "-keyout", dir.file("self.key"), "-out", dir.file("self.crt"),
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let selfSigned = try dir.write(
            "self.pem",
            old + (try String(contentsOfFile: dir.file("self.crt"), encoding: .utf8))
                + (try String(contentsOfFile: dir.file("self.key"), encoding: .utf8)))
        let found = try InProcess.apnsctl(["inspect", selfSigned, "-o", "json"])
        #expect(try jsonObject(found.stdout)["key_matches"] as? Bool == true, "\(found.stdout)\(found.stderr)")
        // `openssl x509 -trustout` writes it as a TRUSTED CERTIFICATE block: read as the certificate (it was "damaged").
        let trusted = try CommandRunner.run("openssl", ["x509", "-in", dir.file("self.crt"), "-trustout"])
        #expect(trusted.stdout.hasPrefix("-----BEGIN TRUSTED CERTIFICATE-----"), "\(trusted.stdout)")
        let trustedFile = try dir.write(
            "trusted.pem", trusted.stdout + (try String(contentsOfFile: dir.file("self.key"), encoding: .utf8)))
        let read = try InProcess.apnsctl(["inspect", trustedFile, "-o", "json"])
        #expect(try jsonObject(read.stdout)["key_matches"] as? Bool == true, "\(read.stdout)\(read.stderr)")
    }

    /// A .p12 kept as base64 text (a CI secret's form) is said to be, with the command that decodes it.
    @Test func aBase64P12IsSaidToBeBase64() throws {
        let dir = try TemporaryDirectory()
        let p12 = try dir.p12("push.p12", CredentialFixtures.universal, password: pass)
        let encoded = try dir.write(
            "push.p12.b64", Data(contentsOf: URL(fileURLWithPath: p12)).base64EncodedString() + "\n")
        let r = try InProcess.apnsctl(["inspect", encoded, "--passphrase", pass])
        #expect(r.status == 77, "\(r.stderr)")
        #expect(r.stderr.contains("it is base64 text of a binary file"), "\(r.stderr)")
        #expect(r.stderr.contains("(umask 077; base64 -d \(encoded) > decoded.p12)"), "\(r.stderr)")
        // Of a PEM file (`base64 -w0 AuthKey.p8`): it was "neither PEM text nor DER data", with no word of base64.
        let p8 = try dir.write(
            "AuthKey_B64W000001.p8", Data(try CredentialFixtures.signingKey.p8PEM).base64EncodedString())
        let key = try InProcess.apnsctl(["jwt", "--auth-key", p8, "--team-id", "TEAMID1234"])
        #expect(key.status == 77, "\(key.stderr)")
        #expect(
            key.stderr.contains(
                "it is base64 text of a PEM file (a key or certificate encoded for a CI secret): decode it first (umask 077; base64 -d \(p8) > AuthKey.p8)"
            ), "\(key.stderr)")
    }

    @Test func unreadableInputs() throws {
        let dir = try TemporaryDirectory()
        #expect(try InProcess.apnsctl(["inspect", dir.file("missing.p12")]).status == 66)
        let cases: [(String, [UInt8])] = [
            ("empty.p12", []),
            ("random.bin", (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }),
            ("header.pem", Array("-----BEGIN CERTIFICATE-----\n%%%%\n-----END CERTIFICATE-----\n".utf8)),
            (
                "cut.p12",
                Array(try CredentialFixtures.universal.pkcs12(password: SecretBytes(Array("x".utf8))).prefix(300))
            ),
        ]
        for (name, bytes) in cases {
            let path = try dir.write(name, bytes)
            let r = try InProcess.apnsctl(["inspect", path, "--passphrase", "x"])
            #expect(r.status == 77, "\(name): \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: \(path): "), "\(name): \(r.stderr)")
        }
    }

    /// Subject and issuer come from the file: a CN with ESC sequences, BEL or a newline must not reach
    /// the terminal raw (it could forge lines or recolour the screen); text output escapes them.
    @Test func controlCharactersInTheSubjectAreEscaped() throws {
        let dir = try TemporaryDirectory()
        let evil = try CredentialGenerator.makeClientCertificate(
            ca: CredentialFixtures.ca, commonName: "Apple Push Services: com.evil\u{1B}[31mRED\u{07}\nforged: line")
        let pem = try dir.pem("evil.pem", evil)
        let r = try InProcess.apnsctl(["inspect", pem])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("\u{1B}") && !r.stdout.contains("\u{07}"))
        #expect(!r.stdout.contains("\nforged: line"))
        #expect(r.stdout.contains("com.evil\\u{1B}[31mRED\\u{7}\\u{A}forged: line"))
        let j = try InProcess.apnsctl(["inspect", pem, "-o", "json"])
        #expect(try (jsonObject(j.stdout)["subject"] as? String)?.contains("\u{1B}[31mRED") == true)
    }
}
