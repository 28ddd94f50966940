import APNSCore
import APNSSettings
import APNSTestSupport
import ArgumentParser
import Foundation
import Testing

@testable import APNSCrypto
@testable import APNSCtlCommands

/// `apnsctl jwt` end to end, with the signature checked by `openssl dgst`, not by our own code;
/// and the token cache behind `send`'s `TokenAuthOptions`.
@Suite struct JWTCommandTests {
    let team = "TEAMID1234"

    private func base64URL(_ s: Substring) throws -> Data {
        var t = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while t.count % 4 != 0 { t += "=" }
        return try #require(Data(base64Encoded: t))
    }

    @Test func tokenVerifiesWithOpenSSL() throws {
        let dir = try TemporaryDirectory()
        let p8 = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM)
        let before = Int(Date().timeIntervalSince1970)
        let r = try InProcess.apnsctl(["jwt", "--auth-key", p8, "--team-id", team])
        #expect(r.status == 0, "\(r.stderr)")
        let token = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try JSONSerialization.jsonObject(with: base64URL(parts[0])) as? [String: Any]
        let claims = try JSONSerialization.jsonObject(with: base64URL(parts[1])) as? [String: Any]
        #expect(header?["alg"] as? String == "ES256")
        #expect(header?["kid"] as? String == "ABCDE12345")
        #expect(claims?["iss"] as? String == team)
        let iat = try #require(claims?["iat"] as? Int)
        #expect(iat >= before - 1 && iat <= before + 5)  // time(2) reads a coarse clock: it may lag Date() by a tick
        let raw = [UInt8](try base64URL(parts[2]))
        #expect(raw.count == 64)
        // Independent check: openssl itself builds the DER signature from r and s (asn1parse -genconf),
        // takes the public key from the .p8, and verifies.
        let hex = raw.map { String(format: "%02X", $0) }.joined()
        try dir.write(
            "sig.cnf", "asn1=SEQUENCE:sig\n[sig]\nr=INTEGER:0x\(hex.prefix(64))\ns=INTEGER:0x\(hex.suffix(64))\n")
        let built = try CommandRunner.run(
            "openssl", ["asn1parse", "-genconf", dir.file("sig.cnf"), "-out", dir.file("sig.der"), "-noout"])
        #expect(built.status == 0, "\(built.stderr)")
        try dir.write("input", "\(parts[0]).\(parts[1])")
        let pub = try CommandRunner.run("openssl", ["pkey", "-in", p8, "-pubout", "-out", dir.file("pub.pem")])
        #expect(pub.status == 0)
        let v = try CommandRunner.run(
            "openssl",
            ["dgst", "-sha256", "-verify", dir.file("pub.pem"), "-signature", dir.file("sig.der"), dir.file("input")])
        #expect(v.status == 0 && v.stdout.contains("Verified OK"), "\(v.stderr)")
        // The private key never appears.
        let keyText = try dir.read("AuthKey_ABCDE12345.p8").split(separator: "\n")[1]
        #expect(!r.stdout.contains(keyText) && !r.stderr.contains(keyText))
    }

    @Test func idsFromFileNameFlagsAndEnvironment() throws {
        let dir = try TemporaryDirectory()
        let old = try dir.write("APNsAuthKey_ZYXWV98765.p8", try CredentialFixtures.signingKey.p8PEM)
        let r = try InProcess.apnsctl(["jwt", "--auth-key", old], environment: ["APNSCTL_TEAM_ID": team])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(ProviderToken.Parts(r.stdout.trimmingCharacters(in: .newlines))?.keyID == "ZYXWV98765")
        #expect(ProviderToken.Parts(r.stdout.trimmingCharacters(in: .newlines))?.issuer == team)
        let plain = try dir.write("key.p8", try CredentialFixtures.signingKey.p8PEM)
        let e = try InProcess.apnsctl(["jwt", "--auth-key", plain, "--key-id", "QWERT12345", "--team-id", team])
        #expect(e.status == 0)
        #expect(ProviderToken.Parts(e.stdout.trimmingCharacters(in: .newlines))?.keyID == "QWERT12345")
    }

    /// `jwt -p mock` chose a profile, so "choose a profile" is no advice: the mock's key is in -p mock-token.
    @Test func theMockProfileWithoutAKeyPointsAtItsTokenProfile() throws {
        let mock = try InProcessMock()
        let state = ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path]
        let r = try InProcess.apnsctl(["jwt", "-p", "mock"], environment: state)
        #expect(r.status == 64)
        #expect(
            r.stderr.contains("its key is in -p mock-token") && !r.stderr.contains("choose a profile"), "\(r.stderr)")
        let token = try InProcess.apnsctl(["jwt", "-p", "mock-token"], environment: state)
        #expect(token.status == 0, "\(token.stderr)")
    }

    @Test func credentialFailuresExit77AndUsageExits64() throws {
        let dir = try TemporaryDirectory()
        let plain = try dir.write("key.p8", try CredentialFixtures.signingKey.p8PEM)
        let cases: [([String], Int32, String)] = [
            (["jwt", "--auth-key", plain, "--team-id", team], 77, "--key-id"),
            (["jwt", "--auth-key", plain, "--key-id", "ABCDE12345"], 77, "--team-id"),
            // A malformed id is a bad flag value, refused before the key is read.
            (["jwt", "--auth-key", plain, "--key-id", "abc", "--team-id", team], 64, "--key-id abc: not a key id"),
            (["jwt", "--auth-key", plain, "--key-id", "ABCDE12345", "--team-id", "TEAM"], 64, "--team-id TEAM"),
            (["jwt", "--auth-key", dir.file("AuthKey_ABCDE12345.p8"), "--team-id", team], 66, "no such file"),
            (["jwt", "--team-id", team], 64, "--auth-key"),
        ]
        for (args, status, mention) in cases {
            let r = try InProcess.apnsctl(args, environment: ["APNSCTL_TEAM_ID": ""])
            #expect(r.status == status, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: ") && r.stderr.contains(mention), "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        let rsa = try dir.write(
            "AuthKey_ABCDE12345.p8", try CredentialFixtures.development.privateKey.pkcs8PEM(passphrase: nil))
        let r = try InProcess.apnsctl(["jwt", "--auth-key", rsa, "--team-id", team])
        #expect(r.status == 77)
        #expect(r.stderr.contains("RSA 2048"))
    }

    /// Each failure names what the user can fix: the file name when the key id came from it, and no
    /// passphrase flags jwt does not have for an encrypted key; inspect of a non-P-256 .p8 says so.
    @Test func messagesNameWhatTheUserCanFix() throws {
        let dir = try TemporaryDirectory()
        let short = try dir.write("AuthKey_abc.p8", try CredentialFixtures.signingKey.p8PEM)
        let r = try InProcess.apnsctl(["jwt", "--auth-key", short, "--team-id", team])
        #expect(r.status == 77)
        #expect(r.stderr.hasPrefix("error: AuthKey_abc.p8: 'abc' in the file name is not a key id"), "\(r.stderr)")
        #expect(r.stderr.contains("pass --key-id"))
        let secret = SecretBytes(Array("pw".utf8))
        let encrypted = try dir.write(
            "AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.privateKey.pkcs8PEM(passphrase: secret))
        let e = try InProcess.apnsctl(["jwt", "--auth-key", encrypted, "--team-id", team])
        #expect(e.status == 77)
        #expect(e.stderr.contains("the key is encrypted, and Apple's .p8 keys are not"), "\(e.stderr)")
        #expect(!e.stderr.contains("--passphrase"), "jwt has no passphrase flags")
        // Its advice, followed as written (in the key's folder), makes a key jwt takes: the name keeps the key id.
        let out = try #require(
            e.stderr.range(of: #"-out (\S+)\)"#, options: .regularExpression).map {
                String(e.stderr[$0].dropFirst(5).dropLast())
            }, "\(e.stderr)")
        #expect(out == "AuthKey_ABCDE12345.decrypted.p8", "\(e.stderr)")
        let decrypted = try CommandRunner.run(
            "openssl", ["pkey", "-in", encrypted, "-passin", "pass:pw", "-out", dir.file(out)])
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        let signed = try InProcess.apnsctl(["jwt", "--auth-key", dir.file(out), "--team-id", team])
        #expect(signed.status == 0, "\(signed.stderr)")
        // --decode checks a token against the same file, and says the same of it.
        let token = try InProcess.apnsctl(["jwt", "--auth-key", short, "--key-id", "ABCDE12345", "--team-id", team])
        let d = try InProcess.apnsctl(["jwt", "--decode", token.stdout, "--auth-key", encrypted])
        #expect(d.status == 77)
        #expect(d.stderr.contains("the key is encrypted, and Apple's .p8 keys are not"), "\(d.stderr)")
        #expect(!d.stderr.contains("--passphrase"), "jwt has no passphrase flags")
        let rsa = try dir.write(
            "AuthKey_RSARSA1234.p8", try CredentialFixtures.development.privateKey.pkcs8PEM(passphrase: nil))
        let i = try InProcess.apnsctl(["inspect", rsa])
        #expect(i.status == 77)
        #expect(i.stderr.contains("not an APNs signing key (found RSA 2048"), "\(i.stderr)")
        let rsaPEM = try dir.write("key.pem", try CredentialFixtures.development.privateKey.pkcs8PEM(passphrase: nil))
        let k = try InProcess.apnsctl(["inspect", rsaPEM])
        #expect(k.status == 77)
        #expect(
            k.stderr.contains("no certificate") && !k.stderr.contains("--cert"), "inspect has no --cert: \(k.stderr)")
    }

    @Test func tokenAuthOptionsUseAndBypassTheCache() throws {
        let dir = try TemporaryDirectory()
        let p8 = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM)
        // Through send's own options and settings, in-process, with a world of no settings file whose
        // XDG_CACHE_HOME is dir/cache: the cache is where the world says, not where this process's would be.
        let world = TestWorld(variables: ["XDG_CACHE_HOME": dir.file("cache")], home: dir.path).world
        func settings(_ extra: [String]) throws -> ResolvedSettings {
            try APNSCtl.Send.parse(
                ["--auth-key", p8, "--team-id", team, "--alert", "hi", "-d", String(repeating: "ab", count: 32)] + extra
            )
            .resolveSettings(in: world)
        }
        let cached = try settings([])
        let t0: Int64 = 1_900_000_000
        let first = try #require(try cached.providerToken(now: t0, in: world))
        let second = try #require(try cached.providerToken(now: t0 + 60, in: world))
        #expect(first.token == second.token)
        #expect(try dir.mode("cache/apnsctl/token-\(team)-ABCDE12345.jwt") == 0o600)
        #expect(try dir.mode("cache/apnsctl") == 0o700)
        let bypass = try settings(["--no-token-cache"])
        let fresh = try #require(try bypass.providerToken(now: t0 + 120, in: world))
        #expect(fresh.token != first.token)
        #expect(ProviderToken.Parts(fresh.token)?.issuedAt == t0 + 120)
        // Bypassing does not write: the cached token is still the first one (with its key file's fingerprint).
        #expect(try dir.read("cache/apnsctl/token-\(team)-ABCDE12345.jwt").hasPrefix(first.token + "\nhmac-sha256:"))
        let certOnly = try APNSCtl.Send.parse(["--cert", p8, "--alert", "hi", "-d", String(repeating: "ab", count: 32)])
            .resolveSettings(in: world)
        #expect(try certOnly.providerToken(now: t0, in: world) == nil)
        // A key id without a key is refused by the resolver's combination rules (not by the option group), naming it.
        let stranded = try InProcess.apnsctl(
            [
                "send", "--cert", "/nonexistent/c.pem", "--key-id", "ABCDE12345", "-d",
                String(repeating: "ab", count: 32),
            ],
            environment: ["XDG_CONFIG_HOME": dir.path, "HOME": dir.path])
        #expect(stranded.status == 64)
        #expect(
            stranded.stderr.hasPrefix("error: --key-id needs a .p8 key (auth-key) in the same place"),
            "\(stranded.stderr)")
    }
}
