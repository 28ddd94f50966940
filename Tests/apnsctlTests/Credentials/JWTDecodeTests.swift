import APNSCore
import APNSCrypto
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// `apnsctl jwt --decode` (CLI.md, `apnsctl jwt`): a token signed at a fixed time, read back at other times and
/// against other keys; exit 77 exactly when APNs would refuse it.
@Suite struct JWTDecodeTests {
    static let signedAt: Int64 = 1_800_000_000

    /// A token signed at `signedAt` with `key` (key id from its name), and a key apnsctl did not make.
    struct Keys {
        let dir: TemporaryDirectory
        let key: String
        let token: String
        let foreign: String

        init() throws {
            dir = try TemporaryDirectory(prefix: "jwt-decode")
            key = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM)
            foreign = dir.file("AuthKey_FGHIJ67890.p8")
            try OpenSSLFixtures.makeP8Key(at: foreign, publicKeyPath: dir.file("foreign.pub"))
            let signer = TestWorld(now: JWTDecodeTests.signedAt)
            #expect(signer.run(["jwt", "--auth-key", key, "--team-id", "TEAMID1234"]) == 0, "\(signer.stderr.text)")
            token = signer.stdout.text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// `jwt --decode ARGUMENTS` at `now`: status, stdout, stderr.
    static func decode(_ arguments: [String], at now: Int64) -> (Int32, String, String) {
        let world = TestWorld(now: now)
        let status = world.run(["jwt", "--decode"] + arguments)
        return (status, world.stdout.text, world.stderr.text)
    }

    @Test func aFreshTokenWithItsKeyIsShownAndAccepted() throws {
        let keys = try Keys()
        let (status, out, err) = Self.decode(["bearer " + keys.token, "--auth-key", keys.key], at: Self.signedAt + 600)
        #expect(status == 0, "\(err)")
        #expect(err.isEmpty)
        #expect(
            out == """
                alg        ES256
                kid        ABCDE12345
                iss        TEAMID1234
                iat        1800000000 (2027-01-15T08:00:00Z, 10 min ago)
                expires    2027-01-15T09:00:00Z (one hour after iat; in 50 min)
                signature  verified with \(keys.key); kid is its id

                """)
        #expect(!out.contains(keys.token.split(separator: ".")[2]), "the signature is never printed")
        let prefixed = Self.decode(["authorization: bearer " + keys.token], at: Self.signedAt + 5)
        #expect(prefixed.0 == 0)
        #expect(prefixed.1.contains("signature  not checked (pass --auth-key FILE to check it)"))
    }

    /// A push certificate given as the key to check with is named as the wrong file, exit 77, not taken for a token
    /// "signed by another key": one with an RSA key, and one with a P-256 key (the mock's client.pem), alone or with
    /// its key, from a file or piped in.
    @Test func aCertificateIsTheWrongFileNotAForeignSignature() throws {
        let keys = try Keys()
        let rsa = try CredentialGenerator.makePushCertificate(
            ca: CredentialFixtures.ca, bundleID: "com.example.demo", kind: .development, key: .rsa(bits: 2048))
        let p256 = CredentialFixtures.universal
        let alone = try keys.dir.write("push.pem", rsa.certificate.pem)
        let withKey = try keys.dir.pem("client.pem", p256)
        for (file, found) in [(alone, "a certificate"), (withKey, "a certificate and its key")] {
            let (status, out, err) = Self.decode([keys.token, "--auth-key", file], at: Self.signedAt + 5)
            #expect(status == 77, "\(err)")
            #expect(out.isEmpty, "\(out)")
            #expect(err.hasPrefix("error: --auth-key \(file): this is \(found), not a .p8 signing key"), "\(err)")
            #expect(!err.contains("another key"), "\(err)")
            // jwt has no --cert to send it to: the advice is the .p8.
            #expect(!err.contains("--cert") && err.contains("Apple Developer portal (Keys)"), "\(err)")
        }
        let fd = open(withKey, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        let piped = TestWorld(now: Self.signedAt + 5, standardInput: fd)
        #expect(piped.run(["jwt", "--decode", keys.token, "--auth-key", "-"]) == 77)
        #expect(
            piped.stderr.text.hasPrefix(
                "error: --auth-key -: this is a certificate and its key, not a .p8 signing key"),
            "\(piped.stderr.text)")
        // Given by a variable, it is named by the variable, not by a flag that was not given.
        let variable = TestWorld(variables: ["APNSCTL_AUTH_KEY": withKey], home: keys.dir.path, now: Self.signedAt + 5)
        #expect(variable.run(["jwt", "--decode", keys.token]) == 77)
        #expect(
            variable.stderr.text.hasPrefix(
                "error: \(withKey) (APNSCTL_AUTH_KEY): this is a certificate and its key, not a .p8 signing key"),
            "\(variable.stderr.text)")
        // A public key is no certificate: the .p8's public half still checks a token.
        let (status, out, err) = Self.decode(
            [keys.token, "--auth-key", keys.dir.file("foreign.pub")], at: Self.signedAt + 5)
        #expect(status == 77 && out.contains("does not verify") && err.contains("another key"), "\(out)\(err)")
    }

    /// `-o json`: the report as one object on one line, the refusal still exit 77; without --decode, -o is a
    /// usage error rather than a token printed in a format nobody asked for.
    @Test func jsonOutputIsOneObject() throws {
        let keys = try Keys()
        let (status, out, err) = Self.decode(
            [keys.token, "--auth-key", keys.key, "-o", "json"], at: Self.signedAt + 600)
        #expect(status == 0, "\(err)")
        #expect(out.hasSuffix("}\n") && out.filter { $0 == "\n" }.count == 1, "\(out)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(object["kid"] as? String == "ABCDE12345")
        #expect(object["iss"] as? String == "TEAMID1234")
        #expect(object["age_seconds"] as? Int == 600)
        #expect(object["expires_at"] as? String == "2027-01-15T09:00:00Z")
        #expect(object["accepted"] as? Bool == true)
        #expect(object["kid_matches"] as? Bool == true)
        #expect(!out.contains(keys.token.split(separator: ".")[2]), "the signature is never printed")

        let expired = Self.decode([keys.token, "-o", "JSON"], at: Self.signedAt + 7200)
        #expect(expired.0 == 77)
        let refused = try #require(
            try JSONSerialization.jsonObject(with: Data(expired.1.utf8)) as? [String: Any])
        #expect(refused["accepted"] as? Bool == false)
        #expect((refused["problems"] as? [String])?.first?.hasPrefix("expired") == true, "\(expired.1)")

        // Whatever was given, the object has the keys of a decoded token's (null where nothing was read), so a
        // script reads `.kid` or `.iat` the same way on each.
        let keysOfAToken = Set(object.keys)
        let header = "eyJhbGciOiJIUzI1NiIsImtpZCI6IkFCQ0RFMTIzNDUifQ"  // {"alg":"HS256","kid":"ABCDE12345"}
        let claims = "eyJpc3MiOiJURUFNSUQxMjM0IiwiaWF0IjoieCJ9"  // {"iss":"TEAMID1234","iat":"x"}
        for given in ["garbage", "a.b.c", "\(header).\(claims).c2ln"] {
            let (code, text, _) = Self.decode([given, "-o", "json"], at: Self.signedAt)
            #expect(code == 77)
            let decoded = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(Set(decoded.keys) == keysOfAToken, "\(given): \(text)")
            #expect(decoded["accepted"] as? Bool == false && decoded["expires_at"] is NSNull, "\(text)")
        }

        let signing = TestWorld(now: Self.signedAt)
        #expect(signing.run(["jwt", "--auth-key", keys.key, "--team-id", "TEAMID1234", "-o", "json"]) == 64)
        #expect(signing.stdout.text.isEmpty)
        #expect(signing.stderr.text.hasPrefix("error: -o is for --decode"), "\(signing.stderr.text)")
    }

    /// `APNSCTL_OUTPUT`, as `send` reads it, chooses `--decode`'s format when `-o` does not (a CI job sets it once,
    /// and `jq` then reads the token's report); a bad value is refused as `send` refuses it. Signing has no format:
    /// the variable leaves the token as it is.
    @Test func theOutputVariableChoosesTheDecodedFormat() throws {
        let keys = try Keys()
        let json = TestWorld(variables: ["APNSCTL_OUTPUT": "json"], now: Self.signedAt + 5)
        #expect(json.run(["jwt", "--decode", keys.token]) == 0, "\(json.stderr.text)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.text.utf8)) as? [String: Any])
        #expect(object["kid"] as? String == "ABCDE12345")
        let flag = TestWorld(variables: ["APNSCTL_OUTPUT": "json"], now: Self.signedAt + 5)
        #expect(flag.run(["jwt", "--decode", keys.token, "-o", "text"]) == 0)
        #expect(flag.stdout.text.hasPrefix("alg        ES256\n"), "\(flag.stdout.text)")
        let bad = TestWorld(variables: ["APNSCTL_OUTPUT": "yaml"], now: Self.signedAt + 5)
        #expect(bad.run(["jwt", "--decode", keys.token]) == 64)
        #expect(bad.stdout.text.isEmpty)
        #expect(bad.stderr.text.hasPrefix("error: APNSCTL_OUTPUT=yaml: unknown output format"), "\(bad.stderr.text)")
        let signing = TestWorld(variables: ["APNSCTL_OUTPUT": "json"], now: Self.signedAt)
        #expect(signing.run(["jwt", "--auth-key", keys.key, "--team-id", "TEAMID1234"]) == 0, "\(signing.stderr.text)")
        // The same header and claims (an ES256 signature differs each time), as the token alone.
        let signed = signing.stdout.text.split(separator: ".")
        #expect(signed.count == 3 && signing.stdout.text.hasSuffix("\n"), "\(signing.stdout.text)")
        #expect(signed.prefix(2) == keys.token.split(separator: ".").prefix(2))
    }

    @Test func anExpiredTokenIs77() throws {
        let keys = try Keys()
        let (status, out, err) = Self.decode([keys.token], at: Self.signedAt + 7200)
        #expect(status == 77)
        #expect(out.contains("iat        1800000000 (2027-01-15T08:00:00Z, 2 h 0 min ago)"), "\(out)")
        #expect(
            err
                == "error: APNs would refuse this token: expired: signed 2 h 0 min ago, and APNs takes a token for one hour (ExpiredProviderToken); sign a new one with apnsctl jwt, and if it was just signed, check the signer's clock\n"
        )
    }

    @Test func aTokenFromTheFutureIsSaidAnd77BeyondAnHour() throws {
        let keys = try Keys()
        let near = Self.decode([keys.token], at: Self.signedAt - 600)
        #expect(near.0 == 0)
        #expect(
            near.2
                == "warning: dated in 10 min: the signer's clock is ahead of this one (or this one behind); check both\n"
        )
        let far = Self.decode([keys.token], at: Self.signedAt - 7200)
        #expect(far.0 == 77)
        #expect(far.2.contains("dated in 2 h 0 min: more than an hour ahead of this clock, which APNs refuses"))
        // An iat in milliseconds (JavaScript's Date.now()) is named so, not blamed on the clock.
        let keys2 = try Keys()
        let signer = TestWorld(now: Self.signedAt * 1000)
        #expect(signer.run(["jwt", "--auth-key", keys2.key, "--team-id", "TEAMID1234"]) == 0, "\(signer.stderr.text)")
        let milliseconds = Self.decode(
            [signer.stdout.text.trimmingCharacters(in: .whitespacesAndNewlines)], at: Self.signedAt)
        #expect(milliseconds.0 == 77)
        #expect(
            milliseconds.2.contains(
                "iat 1800000000000 is in milliseconds (2027-01-15T08:00:00Z in seconds); APNs reads seconds since 1970"),
            "\(milliseconds.2)")
        #expect(!milliseconds.2.contains("check the signer's clock"), "\(milliseconds.2)")
    }

    /// An iat at the 64-bit limits trapped (exit 132, nothing printed) when the hour was added to it: it is no date.
    @Test(arguments: ["9223372036854775807", "9223372036854772208", "-9223372036854775808"])
    func anIatAtTheLimitsIsNoDate(_ iat: String) {
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"ABCDE12345"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"iss":"OARSDFCX13","iat":\#(iat)}"#.utf8))
        let (status, _, err) = Self.decode([header + "." + claims + ".xx"], at: Self.signedAt)
        #expect(status == 77, "\(err)")
        #expect(err.contains("the claims have no iat that is a date"), "\(err)")
    }

    @Test func anotherKeysTokenIs77() throws {
        let keys = try Keys()
        let (status, out, err) = Self.decode([keys.token, "--auth-key", keys.foreign], at: Self.signedAt)
        #expect(status == 77)
        #expect(
            out.contains("signature  does not verify with \(keys.foreign); kid ABCDE12345 is not its id FGHIJ67890"))
        #expect(err.contains("the signature does not verify with \(keys.foreign): the token was signed by another key"))
        // Not signed by this key: the advice is to check with the key the token names, not to sign with this one's
        // id (a token signed so would still be another key's).
        #expect(
            err.contains(
                "kid ABCDE12345 is not the key's id FGHIJ67890: the token names key ABCDE12345; check it with that key (--auth-key AuthKey_ABCDE12345.p8)"
            ), "\(err)")
        #expect(!err.contains("sign with --key-id"), "\(err)")
    }

    @Test func notAJWTIs77AndATokenWithoutDecodeIs64() throws {
        let (status, out, err) = Self.decode(["abc.def"], at: Self.signedAt)
        #expect(status == 77)
        #expect(out.isEmpty)
        #expect(
            err
                == "error: APNs would refuse this token: not a provider token: 2 parts separated by dots, where a JWT has three (header.claims.signature) (cut short?)\n"
        )
        // A token pasted cut short, with text after it, twice, or with a part damaged: the part is named.
        let keys = try Keys()
        let parts = keys.token.split(separator: ".").map(String.init)
        let refused = "error: APNs would refuse this token: not a provider token: "
        let base64 =
            parts[0] + "." + parts[1] + "."
            + parts[2].replacingOccurrences(of: "_", with: "/").replacingOccurrences(of: "-", with: "+") + "/"
        let wrapped = String(keys.token.prefix(60)) + "\n" + String(keys.token.dropFirst(60))
        let cases: [(String, String)] = [
            (
                keys.token + "xyz",
                "its signature (after the last dot) is 89 characters, where an ES256 signature has 86 (with something after it?)"
            ),
            (
                String(keys.token.dropLast()),
                "its signature (after the last dot) is 85 characters, where an ES256 signature has 86 (cut short?)"
            ),
            (
                keys.token + " " + keys.token,
                "it has a blank or a line break inside (a token wrapped over two lines, two tokens, or a label pasted with it?); give the token alone, on one line"
            ),
            (wrapped, "it has a blank or a line break inside"),
            (
                "\"" + keys.token + "\"",
                "it has \u{2018}\"\u{2019} (U+0022) at character 1, which no JWT has (quotes, a label or a character pasted with it?)"
            ),
            (keys.token + ",", "it has \u{2018},\u{2019} (U+002C) at character \(keys.token.count + 1)"),
            ("\u{200B}" + keys.token, "it has an invisible character (U+200B) at character 1"),
            (
                base64,
                "standard base64, where a JWT's parts are base64url"
            ),
            ("x" + String(keys.token.dropFirst()), "its header (before the first dot) is not base64url-encoded JSON"),
            (
                [parts[0], "WzFd", parts[2]].joined(separator: "."),
                "its claims (between the dots) are JSON but not an object ({…}); whatever made the token made it wrong"
            ),
            (
                [parts[0], "eyJpc3MiOiJUIiwiaXNzIjoiVSJ9", parts[2]].joined(separator: "."),
                "its claims (between the dots) have the key \"iss\" twice, which no verifier should guess between"
            ),
            (parts[0] + "." + parts[1] + ".", "the signature part is empty (the token ends with a dot)"),
            ("TOKEN=" + keys.token, "it has \u{2018}=\u{2019} (U+003D) at character 6, which no JWT has"),
            // Padding at a part's end is taken: the damage is the claims', not "standard base64".
            (
                [parts[0] + "==", "WzFd", parts[2]].joined(separator: "."),
                "its claims (between the dots) are JSON but not an object"
            ),
            (
                keys.token + ".",
                "4 parts separated by dots, where a JWT has three (header.claims.signature) (a dot after the token"
            ),
            (
                parts[0] + "." + parts[1],
                "2 parts separated by dots, where a JWT has three (header.claims.signature) (cut short?)"
            ),
            (
                keys.token + keys.token,
                "5 parts separated by dots, where a JWT has three (header.claims.signature) (two tokens pasted together?)"
            ),
        ]
        for (token, problem) in cases {
            let (status, out, err) = Self.decode([token], at: Self.signedAt)
            #expect(status == 77 && out.isEmpty, "\(token): \(out)")
            #expect(err.hasPrefix(refused) && err.contains(problem), "\(token): \(err)")
        }
        // No-break spaces around a token (a web page's, a chat's) are blanks, trimmed as spaces are.
        let spaced = Self.decode(["\u{00A0}" + keys.token + "\u{00A0}"], at: Self.signedAt + 60)
        #expect(spaced.0 == 0, "\(spaced.2)")
        let world = TestWorld()
        #expect(world.run(["jwt", "abc.def.ghi"]) == 64)
        #expect(world.stderr.text.contains("a token argument is for --decode"))
    }

    /// A token read from standard input as a Windows file or Notepad leaves it (CRLF, a byte order mark) is the
    /// token, as it is given as an argument.
    @Test func aTokenOnStandardInputWithCRLFOrAByteOrderMarkIsRead() throws {
        let keys = try Keys()
        let inputs: [[UInt8]] = [
            Array((keys.token + "\r\n").utf8),
            [0xEF, 0xBB, 0xBF] + Array(("authorization: bearer " + keys.token + "\r\n").utf8),
        ]
        for (i, bytes) in inputs.enumerated() {
            let file = try keys.dir.write("token\(i).txt", bytes)
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            defer { close(fd) }
            let world = TestWorld(now: Self.signedAt + 60, standardInput: fd)
            #expect(world.run(["jwt", "--decode", "-", "--auth-key", keys.key]) == 0, "\(world.stderr.text)")
            #expect(world.stdout.text.contains("verified with \(keys.key)"), "\(world.stdout.text)")
        }
    }

    /// A key piped in is named as such in the report, never as "-".
    @Test func aKeyFromStandardInputIsNamedAsSuch() throws {
        let keys = try Keys()
        let fd = open(keys.key, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        let world = TestWorld(now: Self.signedAt + 60, standardInput: fd)
        #expect(world.run(["jwt", "--decode", keys.token, "--auth-key", "-"]) == 0, "\(world.stderr.text)")
        #expect(world.stdout.text.contains("verified with the key read from standard input"), "\(world.stdout.text)")
        #expect(!world.stdout.text.contains("with -"), "\(world.stdout.text)")
        // A token of /dev/stdin is read from standard input as `-` is (it was decoded as the text "/dev/stdin").
        let file = try keys.dir.write("token.txt", keys.token + "\n")
        let tokenFD = open(file, O_RDONLY | O_CLOEXEC)
        defer { close(tokenFD) }
        let named = TestWorld(now: Self.signedAt + 60, standardInput: tokenFD)
        #expect(named.run(["jwt", "--decode", "/dev/stdin", "--auth-key", keys.key]) == 0, "\(named.stderr.text)")
        #expect(named.stdout.text.contains("verified with \(keys.key)"), "\(named.stdout.text)")
    }

    /// `jwt --decode - < AuthKey_….p8` (or a `.p12`): a credential on standard input is named as one, exit 64, as
    /// the file given as the argument is; it was decoded as a token with "a blank or a line break inside" (77).
    @Test func aCredentialOnStandardInputIsNamedAsOne() throws {
        let keys = try Keys()
        let p12 = try keys.dir.p12("push.p12", CredentialFixtures.universal, password: "secret")
        for (file, what) in [(keys.key, "PEM text (a key or certificate)"), (p12, "a PKCS#12 (.p12) file")] {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            defer { close(fd) }
            let world = TestWorld(now: Self.signedAt + 60, standardInput: fd)
            #expect(world.run(["jwt", "--decode", "-"]) == 64, "\(world.stderr.text)")
            #expect(
                world.stderr.text
                    == "error: standard input holds \(what), not a token; to check a token's signature with a key, give the key with --auth-key FILE and the token as the argument or on standard input\n"
            )
            #expect(world.stdout.text.isEmpty)
        }
    }

    /// An ES256 signature is 64 bytes: a shorter one is refused without a key to check it, and an empty one is
    /// said to be missing, not a bad encoding.
    @Test func aSignatureOfAnotherLengthOrNoneIsRefused() throws {
        let keys = try Keys()
        let head = keys.token.split(separator: ".").prefix(2).joined(separator: ".")
        let (short, _, shortErr) = Self.decode([head + ".abc"], at: Self.signedAt)
        #expect(short == 77)
        #expect(shortErr.contains("the signature is 2 bytes where an ES256 signature is 64"), "\(shortErr)")
        let (none, _, noneErr) = Self.decode([head + "."], at: Self.signedAt)
        #expect(none == 77)
        #expect(noneErr.contains("the signature part is empty (the token ends with a dot)"), "\(noneErr)")
    }

    /// A DER signature (SEQUENCE of two INTEGERs), as pushy and openssl make, which APNs accepts (APNS.md §6): shown as
    /// verified with its key and accepted, never "cut short or altered"; with another key, signed by another key.
    @Test func aDERSignatureVerifiesAndIsAccepted() throws {
        let keys = try Keys()
        let parts = keys.token.split(separator: ".")
        let raw = try #require(Base64URL.decode(parts[2]))
        #expect(raw.count == 64)
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var v = Array(bytes.drop { $0 == 0 })
            if v.isEmpty || v[0] & 0x80 != 0 { v.insert(0, at: 0) }
            return [0x02, UInt8(v.count)] + v
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        let der = [0x30, UInt8(body.count)] + body
        let token = parts[0] + "." + parts[1] + "." + Base64URL.encode(der)
        let (status, out, err) = Self.decode([token, "--auth-key", keys.key], at: Self.signedAt + 600)
        #expect(status == 0, "\(out)\(err)")
        #expect(
            out.contains("verified with \(keys.key) (a DER signature, as pushy and openssl make; APNs accepts it)"),
            "\(out)")
        #expect(!(out + err).contains("cut short"), "\(out)\(err)")
        let (other, _, otherErr) = Self.decode([token, "--auth-key", keys.foreign], at: Self.signedAt + 600)
        #expect(other == 77)
        #expect(otherErr.contains("the token was signed by another key"), "\(otherErr)")
    }

    /// A `.p8`'s public half given to sign with is said to be one (it was "not a certificate, private key or PKCS#12
    /// file", with advice to pass those).
    @Test func aPublicKeyToSignWithIsSaidToBeOne() throws {
        let keys = try Keys()
        let world = TestWorld(now: Self.signedAt)
        let status = world.run([
            "jwt", "--auth-key", keys.dir.file("foreign.pub"), "--team-id", "TEAMID1234", "--key-id", "FGHIJ67890",
        ])
        #expect(status == 77, "\(world.stderr.text)")
        #expect(
            world.stderr.text.contains(
                "(found a public key, which signs nothing (jwt --decode and the mock take one to check tokens), need "),
            "\(world.stderr.text)")
    }

    /// A key id other than the file name's is signed with, and warned about as doctor does (APNs names the file after
    /// the key's id, so the token is likely InvalidProviderToken).
    @Test func aKeyIDOtherThanTheFileNamesIsWarnedAbout() throws {
        let keys = try Keys()
        let world = TestWorld(now: Self.signedAt)
        let status = world.run(["jwt", "--auth-key", keys.key, "--team-id", "TEAMID1234", "--key-id", "ZZZZZ99999"])
        #expect(status == 0, "\(world.stderr.text)")
        #expect(
            world.stderr.text.hasPrefix(
                "warning: --key-id ZZZZZ99999 differs from the file name's key id ABCDE12345 (AuthKey_ABCDE12345.p8)"),
            "\(world.stderr.text)")
    }

    /// The key to check with comes from where signing takes it: `APNSCTL_AUTH_KEY` (a path or the PEM text) and a
    /// profile's `auth-key` (`-p`), not only `--auth-key` (a `-p` used to be taken and ignored).
    @Test func theKeyComesFromAVariableOrAProfileToo() throws {
        let keys = try Keys()
        let config = keys.dir.file("config")
        try FileManager.default.createDirectory(atPath: config + "/apnsctl", withIntermediateDirectories: true)
        _ = try keys.dir.write(
            "config/apnsctl/config.toml", "[profiles.k]\nauth-key = \"\(keys.key)\"\nteam-id = \"TEAMID1234\"\n",
            mode: 0o600)
        let pem = try String(contentsOfFile: keys.key, encoding: .utf8)
        let runs: [([String: String], [String], String)] = [
            (["APNSCTL_AUTH_KEY": keys.key], [], "verified with \(keys.key); kid is its id"),
            (
                ["APNSCTL_AUTH_KEY": pem, "APNSCTL_KEY_ID": "ABCDE12345"], [],
                "verified with (PEM from APNSCTL_AUTH_KEY); kid is its id"
            ),
            (["XDG_CONFIG_HOME": config], ["-p", "k"], "verified with \(keys.key); kid is its id"),
        ]
        for (variables, flags, expected) in runs {
            let world = TestWorld(variables: variables, home: keys.dir.path, now: Self.signedAt + 600)
            let status = world.run(["jwt", "--decode", keys.token] + flags)
            #expect(status == 0, "\(flags): \(world.stderr.text)")
            #expect(world.stdout.text.contains(expected), "\(flags): \(world.stdout.text)")
        }
        // The foreign key from the variable: signed by another key, 77.
        let foreign = TestWorld(
            variables: ["APNSCTL_AUTH_KEY": keys.foreign], home: keys.dir.path, now: Self.signedAt + 600)
        #expect(foreign.run(["jwt", "--decode", keys.token]) == 77, "\(foreign.stderr.text)")
    }

    /// Ids signing refuses are refused when decoding too: a kid or iss that is no Apple id (an empty iss among them),
    /// and the key's id as iss (the ids swapped, InvalidProviderToken's usual cause); all were "accepted".
    @Test func idsSigningRefusesAreRefusedWhenDecoding() throws {
        let keys = try Keys()
        let key = CredentialFixtures.signingKey
        for (keyID, teamID, problem) in [
            ("abc", "TEAMID1234", #"kid "abc" is not a key id"#), ("ABCDE12345", "", #"iss "" is not a team id"#),
            ("ABCDE12345", "ABCDE12345", "iss is the key's id ABCDE12345, not a team id: the two look swapped"),
        ] {
            let token = try ProviderToken.make(key: key, keyID: keyID, teamID: teamID, issuedAt: Self.signedAt)
            let (status, _, err) = Self.decode([token, "--auth-key", keys.key], at: Self.signedAt + 5)
            #expect(status == 77, "\(keyID)/\(teamID): \(err)")
            #expect(err.contains(problem), "\(err)")
        }
    }

    /// A kid or iss holding ESC or a bidirectional override is escaped as every printed text is (`\u{1B}`, CLI.md),
    /// in the quoted value too: it was shown JSON's way (`\u001b`) beside `\u{1B}` in the same line.
    @Test func anIdWithControlsIsEscapedOneWayInALine() throws {
        func part(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        // Made by hand, as a crafted token is: the header and claims as JSON writes the ids.
        let token = [
            part(#"{"alg":"ES256","kid":"# + JSONWriter.quoted("AB\u{1B}[31mCDE") + "}"),
            part(#"{"iss":"# + JSONWriter.quoted("TEAM\u{202E}1234") + #","iat":\#(Self.signedAt)}"#),
            part(String(repeating: "s", count: 64)),
        ].joined(separator: ".")
        let (status, _, err) = Self.decode([token], at: Self.signedAt + 5)
        #expect(status == 77, "\(err)")
        #expect(err.contains(#"kid "AB\u{1B}[31mCDE" is not a key id"#), "\(err)")
        #expect(err.contains(#"iss "TEAM\u{202E}1234" is not a team id"#), "\(err)")
        #expect(!err.contains(#"\u001b"#) && !err.contains(#"\u202e"#), "\(err)")
        #expect(!err.unicodeScalars.contains { PrintableText.needsEscaping($0) && $0 != "\n" }, "\(err)")
    }

    /// A numeric kid or iss (a hand-made token with the ids unquoted) is said to be a number, not missing: it said
    /// "the header has no kid" and showed `iss (missing)` for ids that are there.
    @Test func aNumericKidOrIssIsSaidToBeANumber() throws {
        func part(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let token = [
            part(#"{"alg":"ES256","kid":1234567890}"#), part(#"{"iss":4321,"iat":\#(Self.signedAt)}"#),
            part(String(repeating: "s", count: 64)),
        ].joined(separator: ".")
        let (status, out, err) = Self.decode([token], at: Self.signedAt + 5)
        #expect(status == 77, "\(err)")
        #expect(err.contains("kid is a number 1234567890, not a string: write the key id in quotes"), "\(err)")
        #expect(err.contains("iss is a number 4321, not a string: write the team id in quotes"), "\(err)")
        #expect(!err.contains("has no kid") && !out.contains("(missing)"), "\(out)\(err)")
        #expect(out.contains("(number 4321, not a string)"), "\(out)")
        // null, an array: no "a null", and no quotes to add.
        let odd = [
            part(#"{"alg":"ES256","kid":null}"#), part(#"{"iss":[1],"iat":\#(Self.signedAt)}"#),
            part(String(repeating: "s", count: 64)),
        ].joined(separator: ".")
        let (_, _, oddErr) = Self.decode([odd], at: Self.signedAt + 5)
        #expect(oddErr.contains("kid is null, not a string: write the key id as a string"), "\(oddErr)")
        #expect(oddErr.contains("iss is an array, not a string: write the team id as a string"), "\(oddErr)")
    }

    /// A team id given beside the token (`--team-id`, `APNSCTL_TEAM_ID`, a profile's) is checked against its `iss`:
    /// it used to be taken and ignored, and a token for another team was "accepted".
    @Test func aTeamIDGivenIsCheckedAgainstTheTokensIssuer() throws {
        let keys = try Keys()
        let same = Self.decode([keys.token, "--auth-key", keys.key, "--team-id", "TEAMID1234"], at: Self.signedAt + 5)
        #expect(same.0 == 0, "\(same.2)")
        #expect(same.1.contains("iss        TEAMID1234 (the team id --team-id gives)\n"), "\(same.1)")
        let other = Self.decode([keys.token, "--auth-key", keys.key, "--team-id", "OTHERTEAM9"], at: Self.signedAt + 5)
        #expect(other.0 == 77)
        #expect(
            other.2.contains(
                #"iss "TEAMID1234" is not the team id OTHERTEAM9 given by --team-id: APNs refuses a token naming a team that does not own its key (InvalidProviderToken)"#
            ), "\(other.2)")
        let world = TestWorld(
            variables: ["APNSCTL_TEAM_ID": "OTHERTEAM9"], home: keys.dir.path, now: Self.signedAt + 5)
        #expect(world.run(["jwt", "--decode", keys.token]) == 77)
        #expect(world.stderr.text.contains("given by APNSCTL_TEAM_ID"), "\(world.stderr.text)")
        #expect(world.stdout.text.contains(#""accepted":false"#) == false, "text output by default")
        // Beside --auth-key too: the team comes from where signing takes it, whichever flag gives the key.
        let keyed = TestWorld(
            variables: ["APNSCTL_TEAM_ID": "OTHERTEAM9"], home: keys.dir.path, now: Self.signedAt + 5)
        #expect(keyed.run(["jwt", "--decode", keys.token, "--auth-key", keys.key]) == 77, "\(keyed.stderr.text)")
    }
}
