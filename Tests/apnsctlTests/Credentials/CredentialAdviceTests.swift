import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto
@testable import APNSCtlCommands

/// Credentials in the wrong place say what they are and the command that uses them: a `.p8` given as a
/// certificate, its key or to `convert`; `--token` with a key file or a device token; a CA or TLS server
/// certificate given to `inspect`.
@Suite struct CredentialAdviceTests {
    static let device = String(repeating: "3f2a", count: 16)

    /// An Apple-style `.p8` made by `openssl` (PKCS#8 `BEGIN PRIVATE KEY`, EC P-256), named `name`.
    static func p8(_ name: String, in dir: TemporaryDirectory) throws -> String {
        let path = dir.file(name)
        try OpenSSLFixtures.makeP8Key(at: path, publicKeyPath: dir.file(name + ".pub"))
        return path
    }

    @Test func aP8GivenAsCertificateOrKeyOrToConvertNamesTokenAuth() throws {
        let dir = try TemporaryDirectory()
        let p8 = try Self.p8("AuthKey_ABCDE12345.p8", in: dir)
        let pem = try dir.pem("push.pem", CredentialFixtures.universal)
        let send = ["send", #"{"aps":{"alert":"hi"}}"#, "-d", Self.device, "--topic", "com.example.demo"]
        let runs: [[String]] = [
            send + ["--cert", p8],
            send + ["--cert", pem, "--key", p8],
            ["convert", p8, "-o", dir.file("out.pem")],
            ["inspect", pem, "--key", p8],
        ]
        for arguments in runs {
            let r = try InProcess.apnsctl(arguments)
            #expect(r.status == 77, "\(arguments): \(r.stderr)")
            #expect(
                r.stderr.contains("error: \(p8): this is an APNs token-auth signing key (.p8), not a certificate"),
                "\(arguments): \(r.stderr)")
            #expect(
                r.stderr.contains("--auth-key \(p8) --key-id ABCDE12345 --team-id TEAMID"), "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains("with this file as its --key"), "\(r.stderr)")
        }
        #expect(!FileSystem.exists(dir.file("out.pem")))
        // Alone, as the only credential: the same advice, before any file is read (a usage error).
        let alone = try InProcess.apnsctl(send + ["--key", p8])
        #expect(alone.status == 64, "\(alone.stderr)")
        #expect(
            alone.stderr.contains(
                "error: --key \(p8): this is an APNs token-auth signing key (.p8), not a certificate's key; "
                    + "it needs no certificate: use token auth with --auth-key \(p8) --key-id ABCDE12345 --team-id TEAMID"
            ),
            "\(alone.stderr)")
    }

    /// A CSR, the file made to ask Apple for the certificate, is said to be one, with where it goes; a file that
    /// is no credential at all is told what `convert` takes (never a `.p8`, which it refuses).
    @Test func aCSROrAnImageIsToldWhatTheCommandTakes() throws {
        let dir = try TemporaryDirectory()
        let csr = dir.file("req.csr")
        let made = try CommandRunner.run(
            "openssl",
            [
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                dir.file("req.key"), "-subj", "/CN=Demo", "-out", csr,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        for arguments in [["inspect", csr], ["convert", csr, "-o", dir.file("a.pem")]] {
            let r = try InProcess.apnsctl(arguments)
            #expect(r.status == 77, "\(r.stderr)")
            #expect(
                r.stderr.hasPrefix("error: \(csr): a certificate signing request (CSR), not a certificate: upload it"),
                "\(r.stderr)")
        }
        let png = try dir.write("icon.png", "\u{89}PNG\r\n")
        let converted = try InProcess.apnsctl(["convert", png, "-o", dir.file("b.pem")])
        #expect(
            converted.stderr.hasSuffix("; pass a .p12, or a .pem holding a certificate and its key\n"),
            "\(converted.stderr)")
        let inspected = try InProcess.apnsctl(["inspect", png])
        #expect(inspected.stderr.hasSuffix("; pass a .pem, .p12 or .p8 file\n"), "\(inspected.stderr)")
    }

    @Test func aP8WithoutAKeyIdInItsNameAsksForOne() throws {
        let dir = try TemporaryDirectory()
        let p8 = try Self.p8("signing.p8", in: dir)
        let r = try InProcess.apnsctl(["convert", p8, "-o", dir.file("out.pem")])
        #expect(r.status == 77, "\(r.stderr)")
        #expect(r.stderr.contains("--auth-key \(p8) --key-id KEYID --team-id TEAMID"), "\(r.stderr)")
        #expect(r.stderr.contains("KEYID: the key's 10-character id"), "\(r.stderr)")
    }

    /// A lone key not named as Apple names `.p8` keys may be a certificate's own key: the old advice stays.
    @Test func aCertificatesKeyAloneStillAsksForItsCertificate() throws {
        let dir = try TemporaryDirectory()
        let key = try dir.write("key.pem", try CredentialFixtures.universal.privateKey.pkcs8PEM(passphrase: nil))
        let r = try InProcess.apnsctl(
            ["send", #"{"aps":{"alert":"hi"}}"#, "-d", Self.device, "--topic", "com.example.demo", "--cert", key])
        #expect(r.status == 77, "\(r.stderr)")
        #expect(r.stderr.contains("pass the certificate file, with this file as its --key"), "\(r.stderr)")
    }

    @Test func tokenSuggestsByItsValue() throws {
        let dir = try TemporaryDirectory()
        let p8 = try Self.p8("AuthKey_ABCDE12345.p8", in: dir)
        let cases: [(String, String)] = [
            (p8, "Did you mean '--auth-key'?"),
            (Self.device, "Did you mean '--device'?"),
            ("hello", "Did you mean '--device' (a device token, hex) or '--auth-key' (a .p8 key file)?"),
        ]
        for (value, advice) in cases {
            let r = try InProcess.apnsctl(["send", #"{"aps":{"alert":"hi"}}"#, "--token", value])
            #expect(r.status == 64, "\(value): \(r.stderr)")
            #expect(r.stderr.contains("error: Unknown option '--token'. \(advice)"), "\(value): \(r.stderr)")
        }
        let equals = try InProcess.apnsctl(["send", #"{"aps":{"alert":"hi"}}"#, "--token=\(p8)"])
        #expect(equals.stderr.contains("Did you mean '--auth-key'?"), "\(equals.stderr)")
        // jwt takes a key file and no device: the key file is suggested there, and nothing it lacks.
        let jwt = try InProcess.apnsctl(["jwt", "--token", p8, "--team-id", "TEAMID1234"])
        #expect(jwt.status == 64, "\(jwt.stderr)")
        #expect(jwt.stderr.contains("error: Unknown option '--token'. Did you mean '--auth-key'?"), "\(jwt.stderr)")
        let hex = try InProcess.apnsctl(["jwt", "--token", Self.device])
        #expect(!hex.stderr.contains("--device"), "\(hex.stderr)")
    }

    @Test func tokenValueRules() {
        #expect(TokenFlagValue.flag(for: Self.device) == "--device")
        #expect(TokenFlagValue.flag(for: "<" + Self.device + ">") == "--device")
        #expect(TokenFlagValue.flag(for: "AuthKey_ABCDE12345.p8") == "--auth-key")
        #expect(TokenFlagValue.flag(for: "3f2a") == nil)
        #expect(TokenFlagValue.value(in: ["send", "--token", "x"]) == "x")
        #expect(TokenFlagValue.value(in: ["send", "--", "--token", "x"]) == nil)
    }

    @Test func inspectTellsCAAndTLSServerCertificatesFromPushCertificates() throws {
        let tls = try OpenSSLFixtures()
        let ca = try InProcess.apnsctl(["inspect", tls.caCert])
        #expect(ca.status == 0, "\(ca.stderr)")
        #expect(
            ca.stderr.contains(
                "warning: \(tls.caCert): a CA certificate (basicConstraints CA:TRUE), not a push certificate"),
            "\(ca.stderr)")
        #expect(ca.stderr.contains("it belongs in --ca-file"), "\(ca.stderr)")
        let server = try InProcess.apnsctl(["inspect", tls.serverCert])
        #expect(server.status == 0, "\(server.stderr)")
        #expect(
            server.stderr.contains(
                "warning: \(tls.serverCert): a TLS server certificate (extended key usage serverAuth), not a push certificate"
            ),
            "\(server.stderr)")
        // Its key, alone and not named AuthKey_<KEYID>.p8, is not called a .p8.
        let key = try InProcess.apnsctl(["inspect", tls.serverKey])
        #expect(key.status == 0, "\(key.stderr)")
        #expect(!key.stdout.contains(".p8 provider token signing key"), "\(key.stdout)")
        #expect(key.stdout.contains("not named AuthKey_<KEYID>.p8"), "\(key.stdout)")
        // A client certificate without Apple's extensions keeps the plain warning.
        let client = try InProcess.apnsctl(["inspect", tls.clientCert])
        #expect(client.stderr.contains("has no Apple push extensions"), "\(client.stderr)")
        // An Apple .p8 is still one.
        let dir = try TemporaryDirectory()
        let p8 = try InProcess.apnsctl(["inspect", try Self.p8("AuthKey_ABCDE12345.p8", in: dir)])
        #expect(p8.stdout.contains("auth-key (.p8 provider token signing key)"), "\(p8.stdout)")
    }

    /// inspect -o json gave `"key_id":"abc"` for a name send and jwt refuse: null now, the warning saying why; a
    /// name with another ending (`.P8`) gives the id.
    @Test func inspectJSONGivesOnlyAKeyIDSendWouldUse() throws {
        let dir = try TemporaryDirectory()
        for (name, expected) in [("AuthKey_abc.p8", "null"), ("AuthKey_ABCDE12345.P8", "\"ABCDE12345\"")] {
            let r = try InProcess.apnsctl(["inspect", "-o", "json", try Self.p8(name, in: dir)])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("\"key_id\":\(expected)"), "\(name): \(r.stdout)")
        }
    }

    /// A CA or server certificate given as `--cert` (the mock's ca.pem for `--ca-file`): named as what it is, with the
    /// flag it belongs to, not told to add a `--key` that would never make it a push certificate.
    @Test func aCAOrServerCertificateAsTheCertIsNamedNotToldToAddAKey() throws {
        let tls = try OpenSSLFixtures()
        let device = String(repeating: "ab", count: 32)
        for (cert, expected) in [
            (
                tls.caCert,
                "a CA certificate (basicConstraints CA:TRUE), not a push certificate; it belongs in --ca-file"
            ),
            (tls.serverCert, "a TLS server certificate (extended key usage serverAuth), not a push certificate"),
        ] {
            let r = try InProcess.apnsctl([
                "send", "--cert", cert, "-d", device, "--alert", "x", "--endpoint", "https://127.0.0.1:9",
            ])
            #expect(r.status == 77, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("error: --cert \(cert): \(expected)"), "\(r.stderr)")
            #expect(!r.stderr.contains("--key"), "\(r.stderr)")
        }
        // A client certificate without its key is still told where its key goes.
        let client = try InProcess.apnsctl([
            "send", "--cert", tls.clientCert, "-d", device, "--alert", "x", "--endpoint", "https://127.0.0.1:9",
        ])
        #expect(client.stderr.contains("holds a certificate but no private key; pass the key with --key FILE"))
    }
}

extension CredentialAdviceTests {
    /// Apple's WWDR intermediate (offered beside the push certificate) signs push certificates, never a server:
    /// named as Apple's, not sent to --ca-file (which would break TLS to APNs).
    @Test func applesIntermediateIsNamedAndNotSentToCAFile() throws {
        let dir = try TemporaryDirectory(prefix: "wwdr")
        let wwdr = try CredentialGenerator.makeCA(
            commonName: "Apple Worldwide Developer Relations Certification Authority")
        let file = try dir.write("AppleWWDRCAG4.pem", wwdr.certificate.pem)
        let r = try InProcess.apnsctl(["inspect", file])
        #expect(
            r.stderr.contains(
                "warning: \(file): Apple's intermediate certificate (Apple Worldwide Developer Relations Certification Authority), which signs push certificates; apnsctl needs none of it"
            ), "\(r.stderr)")
        #expect(!r.stderr.contains("--ca-file"), "\(r.stderr)")
    }
}
