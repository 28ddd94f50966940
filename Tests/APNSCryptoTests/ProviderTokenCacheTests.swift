import APNSCore
@testable import APNSCrypto
import APNSTestSupport
import Foundation
import Testing

/// The cache: reused under 50 minutes, replaced after, private modes, corrupt files replaced.
@Suite struct ProviderTokenCacheTests {
    let keyID = "ABCDE12345"
    let teamID = "TEAMID1234"

    @Test func reusesYoungTokensAndReplacesOldOnes() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path + "/apnsctl")
        let key = try CredentialGenerator.makeSigningKey()
        let t0: Int64 = 1_800_000_000
        let first = try cache.token(key: key, keyID: keyID, teamID: teamID, now: t0)
        let again = try cache.token(key: key, keyID: keyID, teamID: teamID, now: t0 + 2999)
        #expect(first == again)
        let later = try cache.token(key: key, keyID: keyID, teamID: teamID, now: t0 + 3000)
        #expect(later != first)
        #expect(ProviderToken.Parts(later)?.issuedAt == t0 + 3000)

        let attrs = try FileManager.default.attributesOfItem(atPath: cache.path(keyID: keyID, teamID: teamID))
        #expect((attrs[.posixPermissions] as? Int) == 0o600)
        let dirAttrs = try FileManager.default.attributesOfItem(atPath: cache.directory)
        #expect((dirAttrs[.posixPermissions] as? Int) == 0o700)
    }

    @Test func tokenFromAnotherKeyIsNotReused() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let t0: Int64 = 1_800_000_000
        let a = try cache.token(key: try CredentialGenerator.makeSigningKey(), keyID: keyID, teamID: teamID, now: t0)
        let b = try cache.token(key: try CredentialGenerator.makeSigningKey(), keyID: keyID, teamID: teamID, now: t0 + 1)
        #expect(a != b)
    }

    @Test(arguments: ["", "garbage", "a.b.c", "\u{0}\u{1}\u{2}", String(repeating: "x", count: 10_000)])
    func corruptFileIsReplaced(content: String) throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        try dir.write("token-\(teamID)-\(keyID).jwt", content)
        var made = 0
        let token = try cache.token(keyID: keyID, teamID: teamID, now: 1_800_000_000) {
            made += 1
            return "fresh"
        }
        #expect(token == "fresh")
        #expect(made == 1)
        #expect(try dir.read("token-\(teamID)-\(keyID).jwt") == "fresh\n")
    }

    @Test func separateEntriesPerTeamAndKey() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let key = try CredentialGenerator.makeSigningKey()
        let a = try cache.token(key: key, keyID: keyID, teamID: teamID, now: 1_800_000_000)
        let b = try cache.token(key: key, keyID: "ZYXWV98765", teamID: teamID, now: 1_800_000_000)
        #expect(ProviderToken.Parts(a)?.keyID == keyID)
        #expect(ProviderToken.Parts(b)?.keyID == "ZYXWV98765")
        #expect(FileManager.default.fileExists(atPath: cache.path(keyID: "ZYXWV98765", teamID: teamID)))
    }
}

/// The cache keyed by the key file's bytes (issue 18): a hit for the same bytes decodes nothing and checks no
/// signature; other bytes under the same ids get a new token; a file from before fingerprints is checked once.
@Suite struct ProviderTokenCacheFingerprintTests {
    let keyID = "ABCDE12345"
    let teamID = "TEAMID1234"
    let t0: Int64 = 1_800_000_000

    /// A fresh P-256 key as the bytes of its `.p8`.
    private func keyFile() throws -> SigningKeyFile {
        let pem = try CredentialGenerator.makeSigningKey().privateKey.pkcs8PEM(passphrase: nil)
        return try SigningKeyFile.read(.memory(pem, name: "AuthKey_\(keyID).p8"))
    }

    /// Counts what a lookup asks for: decoding the key (which the signature check also needs), checking a
    /// cached token, signing a new one.
    final class Recorder: @unchecked Sendable {
        var decoded = 0, checked = 0, made = 0
    }

    private func token(_ cache: ProviderTokenCache, _ file: SigningKeyFile, now: Int64, _ r: Recorder) throws -> String {
        try cache.token(keyID: keyID, teamID: teamID, now: now, fingerprint: file.fingerprint, accept: { cached in
            r.checked += 1
            r.decoded += 1
            guard let key = try? file.decode(), let v = try? ProviderTokenVerifier(publicKey: key.publicKey, keyID: keyID, teamID: teamID)
            else { return false }
            return v.verify(cached, now: now).isValid
        }, make: {
            r.made += 1
            r.decoded += 1
            return try ProviderToken.make(key: file.decode(), keyID: keyID, teamID: teamID, issuedAt: now)
        })
    }

    @Test func aHitForTheSameBytesDecodesNothingAndChecksNoSignature() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let file = try keyFile()
        let first = Recorder()
        let a = try token(cache, file, now: t0, first)
        #expect((first.made, first.checked) == (1, 0))
        let second = Recorder()
        let b = try token(cache, file, now: t0 + 60, second)
        #expect(a == b)
        #expect((second.decoded, second.checked, second.made) == (0, 0, 0))
        #expect(try dir.read("token-\(teamID)-\(keyID).jwt") == a + "\n" + (file.fingerprint ?? "<no fingerprint>") + "\n")
    }

    @Test func theProductionPathDecodesOnlyToSign() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let file = try keyFile()
        var decodes = 0
        let decode = { () throws -> SigningKey in decodes += 1; return try file.decode() }
        let a = try cache.token(file: file, keyID: keyID, teamID: teamID, now: t0, decode: decode)
        let b = try cache.token(file: file, keyID: keyID, teamID: teamID, now: t0 + 60, decode: decode)
        #expect(a == b)
        #expect(decodes == 1)
    }

    @Test func anotherKeyUnderTheSameNameGetsATokenItSigned() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let old = try keyFile(), new = try keyFile()
        #expect(old.fingerprint != new.fingerprint)
        // sha256: and 64 hex digits: a digest, not a blank name every key would share.
        #expect(old.fingerprint?.count == 7 + 64 && old.fingerprint?.hasPrefix("sha256:") == true)
        let a = try token(cache, old, now: t0, Recorder())
        let r = Recorder()
        let b = try token(cache, new, now: t0 + 1, r)
        #expect(a != b)
        // Replaced without checking the old token: the fingerprint already says it is not this key's.
        #expect((r.checked, r.made) == (0, 1))
        let verifier = try ProviderTokenVerifier(publicKey: new.decode().publicKey, keyID: keyID, teamID: teamID)
        #expect(verifier.verify(b, now: t0 + 1).isValid)
    }

    @Test func aTokenOnlyFileIsReusedIfTheKeySignedItAndThenCarriesTheFingerprint() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let file = try keyFile()
        let legacy = try ProviderToken.make(key: file.decode(), keyID: keyID, teamID: teamID, issuedAt: t0)
        try dir.write("token-\(teamID)-\(keyID).jwt", legacy + "\n")
        let r = Recorder()
        #expect(try token(cache, file, now: t0 + 5, r) == legacy)
        #expect((r.checked, r.made) == (1, 0))
        #expect(try dir.read("token-\(teamID)-\(keyID).jwt") == legacy + "\n" + (file.fingerprint ?? "<no fingerprint>") + "\n")
        let again = Recorder()
        #expect(try token(cache, file, now: t0 + 6, again) == legacy)
        #expect((again.decoded, again.checked, again.made) == (0, 0, 0))
    }

    @Test func aTokenOnlyFileFromAnotherKeyIsReplaced() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let file = try keyFile(), other = try keyFile()
        let foreign = try ProviderToken.make(key: other.decode(), keyID: keyID, teamID: teamID, issuedAt: t0)
        try dir.write("token-\(teamID)-\(keyID).jwt", foreign + "\n")
        let r = Recorder()
        let fresh = try token(cache, file, now: t0 + 5, r)
        #expect(fresh != foreign)
        #expect((r.checked, r.made) == (1, 1))
        #expect(try dir.read("token-\(teamID)-\(keyID).jwt") == fresh + "\n" + (file.fingerprint ?? "<no fingerprint>") + "\n")
    }

    @Test func anOldTokenIsReplacedWhateverItsFingerprint() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let file = try keyFile()
        let a = try token(cache, file, now: t0, Recorder())
        let r = Recorder()
        let b = try token(cache, file, now: t0 + ProviderTokenCache.maximumAge, r)
        #expect(a != b)
        #expect(r.made == 1)
    }
}
