import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// ES256 tokens: shape, an independent signature check with `openssl dgst`, and the verifier's verdicts.
@Suite struct ProviderTokenTests {
    static let key: SigningKey = {
        do { return try CredentialGenerator.makeSigningKey() } catch { fatalError("\(error)") }
    }()
    let keyID = "ABCDE12345"
    let teamID = "TEAMID1234"

    private func decode(_ part: Substring) throws -> String {
        String(decoding: try #require(Base64URL.decode(part)), as: UTF8.self)
    }

    @Test func tokenHasHeaderClaimsAndRawSignature() throws {
        let token = try ProviderToken.make(key: Self.key, keyID: keyID, teamID: teamID, issuedAt: 1_700_000_000)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        #expect(try decode(parts[0]) == #"{"alg":"ES256","kid":"ABCDE12345"}"#)
        #expect(try decode(parts[1]) == #"{"iss":"TEAMID1234","iat":1700000000}"#)
        #expect(try #require(Base64URL.decode(parts[2])).count == 64)
        #expect(!token.contains("="))
        #expect(!token.contains("+") && !token.contains("/"))
    }

    /// Independent of the signing code: r||s → DER by hand, then `openssl dgst -verify`.
    @Test(arguments: 0..<8)
    func signatureVerifiesWithOpenSSL(round: Int) throws {
        let dir = try TemporaryDirectory()
        let token = try ProviderToken.make(
            key: Self.key, keyID: keyID, teamID: teamID, issuedAt: 1_700_000_000 + Int64(round))
        let parts = token.split(separator: ".")
        let raw = try #require(Base64URL.decode(parts[2]))
        let pub = try dir.put("pub.pem", try Self.key.publicKey.pem)
        let input = try dir.put("input", Array("\(parts[0]).\(parts[1])".utf8))
        let sig = try dir.put("sig.der", Self.derByHand(raw))
        let r = try CommandRunner.run("openssl", ["dgst", "-sha256", "-verify", pub, "-signature", sig, input])
        #expect(r.status == 0 && r.stdout.contains("Verified OK"), "\(r.stderr)")
        // A flipped bit must fail.
        var bad = raw
        bad[40] ^= 0x01
        let badSig = try dir.put("bad.der", Self.derByHand(bad))
        let r2 = try CommandRunner.run("openssl", ["dgst", "-sha256", "-verify", pub, "-signature", badSig, input])
        #expect(r2.status != 0)
    }

    /// DER SEQUENCE { INTEGER r, INTEGER s }, minimal integers, written without OpenSSL.
    static func derByHand(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var v = Array(bytes.drop { $0 == 0 })
            if v.isEmpty { v = [0] }
            if v[0] & 0x80 != 0 { v.insert(0, at: 0) }
            return [0x02, UInt8(v.count)] + v
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    @Test func keyIDFromFileNames() {
        #expect(SigningKey.keyID(fromFileName: "/x/AuthKey_ABCDE12345.p8") == "ABCDE12345")
        #expect(SigningKey.keyID(fromFileName: "APNsAuthKey_ZYXWV98765.p8") == "ZYXWV98765")
        #expect(SigningKey.keyID(fromFileName: "key.p8") == nil)
        #expect(SigningKey.keyID(fromFileName: "AuthKey_.p8") == nil)
        // A second download's name: the key id before the browser's or the Finder's mark.
        for copy in ["AuthKey_ABCDE12345 (1).p8", "AuthKey_ABCDE12345-2.p8", "AuthKey_ABCDE12345 copy.p8"] {
            #expect(SigningKey.keyID(fromFileName: copy) == "ABCDE12345", "\(copy)")
        }
        #expect(SigningKey.keyID(fromFileNamePrefix: "AuthKey_ABCDE12345 (3).pub") == "ABCDE12345")
        // Anything else is kept, for the caller to refuse.
        #expect(SigningKey.keyID(fromFileName: "AuthKey_ABCDE12345-prod.p8") == "ABCDE12345-prod")
        #expect(SigningKey.keyID(fromFileName: "AuthKey_abcde12345 (1).p8") == "abcde12345 (1)")
        #expect(SigningKey.keyID(fromFileName: "AuthKey_ABCDE12345 ().p8") == "ABCDE12345 ()")
        // Another ending: a case changed, a browser's .txt, a rename to .pem.
        for name in ["AuthKey_ABCDE12345.P8", "AuthKey_ABCDE12345.p8.txt", "AuthKey_ABCDE12345.pem"] {
            #expect(SigningKey.keyID(fromFileName: name) == "ABCDE12345", "\(name)")
        }
    }

    @Test func identifierRules() throws {
        #expect(DeveloperID.isWellFormed("ABCDE12345"))
        #expect(!DeveloperID.isWellFormed("abcde12345"))
        #expect(!DeveloperID.isWellFormed("ABCDE1234"))
        #expect(!DeveloperID.isWellFormed("ABCDE12345X"))
        #expect(throws: CredentialProblem.missingTeamID) {
            _ = try ProviderToken.identifiers(
                explicitKeyID: "ABCDE12345", keyIDFromFileName: Self.key.keyIDFromFileName, authKeyPath: "k.p8",
                teamID: nil)
        }
        #expect(throws: CredentialProblem.missingKeyID(authKeyPath: "k.p8")) {
            _ = try ProviderToken.identifiers(
                explicitKeyID: nil, keyIDFromFileName: Self.key.keyIDFromFileName, authKeyPath: "k.p8",
                teamID: "TEAMID1234")
        }
        #expect(throws: CredentialProblem.invalidTeamID("team")) {
            _ = try ProviderToken.identifiers(
                explicitKeyID: "ABCDE12345", keyIDFromFileName: Self.key.keyIDFromFileName, authKeyPath: "k.p8",
                teamID: "team")
        }
    }

    // MARK: verifier

    private func verifier() throws -> ProviderTokenVerifier {
        ProviderTokenVerifier(publicKey: try Self.key.publicKey, keyID: keyID, teamID: teamID)
    }

    private func token(
        header: String, claims: String, signWith key: SigningKey = ProviderTokenTests.key, der: Bool = false
    ) throws -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        var sig = try key.sign(Array(input.utf8))
        if der { sig = Self.derByHand(sig) }
        return input + "." + Base64URL.encode(sig)
    }

    @Test func verifierAcceptsRawAndDER() throws {
        let now: Int64 = 1_800_000_000
        let raw = try ProviderToken.make(key: Self.key, keyID: keyID, teamID: teamID, issuedAt: now - 10)
        #expect(try verifier().verify(raw, now: now) == .valid(issuedAt: now - 10))
        let der = try token(
            header: #"{"alg":"ES256","kid":"ABCDE12345","typ":"JWT"}"#,
            claims: #"{"iss":"TEAMID1234","iat":1799999990}"#, der: true)
        #expect(try verifier().verify(der, now: now) == .valid(issuedAt: now - 10))
    }

    /// RFC 7519 NumericDate: PyAPNs2 and its forks send `time.time()`, fractional seconds; APNs accepts them.
    @Test(arguments: ["1799999990", "1799999990.0", "1799999990.73", "1.79999999e9", "17999999900e-1"])
    func verifierAcceptsAnyNumericIat(_ iat: String) throws {
        let now: Int64 = 1_800_000_000
        let t = try token(
            header: #"{"alg":"ES256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAMID1234","iat":\#(iat)}"#)
        #expect(try verifier().verify(t, now: now) == .valid(issuedAt: 1_799_999_990))
    }

    /// A well-signed token whose iat is near the 64-bit limits (or past 10^15 s) is no date, never a trap: the
    /// verifier's age, the mock's and the cache's overflowed on it. 10^15 itself and a date in milliseconds stay
    /// dates (too old or too new, said as such).
    @Test(arguments: [
        ("9223372036854775807", nil), ("9223372036854772208", nil), ("-9223372036854775808", nil),
        ("-9223372036854775807", nil), ("1000000000000001", nil), ("1e300", nil),
        ("1000000000000000", 1_000_000_000_000_000 as Int64?), ("1800000000000", 1_800_000_000_000),
    ])
    func anIatFarOutOfRangeIsNoDate(_ iat: String, _ date: Int64?) throws {
        let now: Int64 = 1_800_000_000
        let t = try token(
            header: #"{"alg":"ES256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAMID1234","iat":\#(iat)}"#)
        let verdict = try verifier().verify(t, now: now)
        if let date {
            #expect(verdict == .issuedInFuture(issuedAt: date))
        } else {
            #expect(verdict == .malformed("claims have no iat that is a date (seconds since 1970)"))
        }
    }

    @Test func verifierNamesEachFailure() throws {
        let now: Int64 = 1_800_000_000
        let v = try verifier()
        let other = try CredentialGenerator.makeSigningKey()
        let good = #"{"alg":"ES256","kid":"ABCDE12345"}"#
        #expect(v.verify("not.a.token", now: now).reason == .invalidProviderToken)
        #expect(v.verify("", now: now) == .malformed("not three base64url parts holding JSON objects"))
        #expect(
            try v.verify(
                token(
                    header: #"{"alg":"HS256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAMID1234","iat":1800000000}"#),
                now: now)
                == .unsupportedAlgorithm("HS256"))
        #expect(
            try v.verify(
                token(
                    header: #"{"alg":"ES256","kid":"ZZZZZ99999"}"#, claims: #"{"iss":"TEAMID1234","iat":1800000000}"#),
                now: now)
                == .unknownKeyID("ZZZZZ99999"))
        #expect(
            try v.verify(token(header: good, claims: #"{"iss":"OTHERTEAM1","iat":1800000000}"#), now: now)
                == .wrongTeam("OTHERTEAM1"))
        #expect(
            try v.verify(token(header: good, claims: #"{"iss":"TEAMID1234","iat":"1800000000"}"#), now: now)
                == .malformed("claims have no iat that is a date (seconds since 1970)"))
        #expect(
            try v.verify(token(header: good, claims: #"{"iss":"TEAMID1234","iat":1e300}"#), now: now)
                == .malformed("claims have no iat that is a date (seconds since 1970)"))
        #expect(
            try v.verify(
                token(header: good, claims: #"{"iss":"TEAMID1234","iat":1800000000}"#, signWith: other), now: now)
                == .badSignature)
        let old = try v.verify(token(header: good, claims: #"{"iss":"TEAMID1234","iat":1799996399}"#), now: now)
        #expect(old == .expired(issuedAt: 1_799_996_399))
        #expect(old.reason == .expiredProviderToken)
        #expect(
            try v.verify(token(header: good, claims: #"{"iss":"TEAMID1234","iat":1800007201}"#), now: now)
                == .issuedInFuture(issuedAt: 1_800_007_201))
        // Tampered claims with the original signature.
        let real = try ProviderToken.make(key: Self.key, keyID: keyID, teamID: teamID, issuedAt: now)
        let pieces = real.split(separator: ".")
        let forged =
            "\(pieces[0]).\(Base64URL.encode(Array(#"{"iss":"TEAMID1234","iat":1800000001}"#.utf8))).\(pieces[2])"
        #expect(v.verify(forged, now: now) == .badSignature)
    }

    @Test func verifierLoadsKeyFiles() throws {
        let dir = try TemporaryDirectory()
        let p8 = try dir.put("AuthKey_ABCDE12345.p8", try Self.key.p8PEM)
        let pub = try dir.put("pub.pem", try Self.key.publicKey.pem)
        let now = SystemClock.now()
        let t = try ProviderToken.make(key: Self.key, keyID: keyID, teamID: teamID, issuedAt: now)
        for file in [p8, pub] {
            let v = try ProviderTokenVerifier(keyFile: file, keyID: keyID, teamID: teamID)
            #expect(v.verify(t, now: now).isValid)
        }
    }

    @Test func base64URLRoundTrips() {
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            #expect(Base64URL.decode(Substring(Base64URL.encode(bytes))) == bytes)
        }
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("YQ==") == [0x61])
    }
}
