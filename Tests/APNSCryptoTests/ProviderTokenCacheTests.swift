import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

extension SigningKeyFile {
    /// A fresh P-256 key as the bytes of its `.p8`, named as Apple names it.
    fileprivate static func fresh(keyID: String) throws -> SigningKeyFile {
        let pem = try CredentialGenerator.makeSigningKey().privateKey.pkcs8PEM(passphrase: nil)
        return try SigningKeyFile.read(.memory(pem, name: "AuthKey_\(keyID).p8"))
    }
}

/// The cache as a send uses it (`token(file:…)`): reused under 50 minutes, replaced after, private modes,
/// corrupt files replaced.
@Suite struct ProviderTokenCacheTests {
    let keyID = "ABCDE12345"
    let teamID = "TEAMID1234"
    let t0: Int64 = 1_800_000_000

    private func token(
        _ cache: ProviderTokenCache, _ file: SigningKeyFile, keyID: String? = nil, now: Int64
    ) throws -> String {
        try cache.token(file: file, keyID: keyID ?? self.keyID, teamID: teamID, now: now, decode: file.decode)
    }

    @Test func reusesYoungTokensAndReplacesOldOnes() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path + "/apnsctl")
        let file = try SigningKeyFile.fresh(keyID: keyID)
        let first = try token(cache, file, now: t0)
        let again = try token(cache, file, now: t0 + 2999)
        #expect(first == again)
        let later = try token(cache, file, now: t0 + 3000)
        #expect(later != first)
        #expect(ProviderToken.Parts(later)?.issuedAt == t0 + 3000)

        let attrs = try FileManager.default.attributesOfItem(atPath: "\(cache.directory)/token-\(teamID)-\(keyID).jwt")
        #expect((attrs[.posixPermissions] as? Int) == 0o600)
        let dirAttrs = try FileManager.default.attributesOfItem(atPath: cache.directory)
        #expect((dirAttrs[.posixPermissions] as? Int) == 0o700)
    }

    @Test func tokenFromAnotherKeyIsNotReused() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let a = try token(cache, SigningKeyFile.fresh(keyID: keyID), now: t0)
        let b = try token(cache, SigningKeyFile.fresh(keyID: keyID), now: t0 + 1)
        #expect(a != b)
    }

    @Test(arguments: ["", "garbage", "a.b.c", "\u{0}\u{1}\u{2}", String(repeating: "x", count: 10_000)])
    func corruptFileIsReplaced(content: String) throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        try dir.write("token-\(teamID)-\(keyID).jwt", content)
        let file = try SigningKeyFile.fresh(keyID: keyID)
        var decodes = 0
        let token = try cache.token(file: file, keyID: keyID, teamID: teamID, now: t0) {
            decodes += 1
            return try file.decode()
        }
        // A new token, signed by the key now (the key decoded once, to sign it), and stored in place of the content.
        #expect(decodes == 1)
        let verifier = try ProviderTokenVerifier(publicKey: file.decode().publicKey, keyID: keyID, teamID: teamID)
        #expect(verifier.verify(token, now: t0).isValid)
        #expect(ProviderToken.Parts(token)?.issuedAt == t0)
        let fingerprint = try #require(cache.fingerprintOf(file, in: PrivateDirectory.open(dir.path)))
        #expect(try dir.read("token-\(teamID)-\(keyID).jwt") == token + "\n" + fingerprint + "\n")
    }

    @Test func separateEntriesPerTeamAndKey() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let file = try SigningKeyFile.fresh(keyID: keyID)
        let a = try token(cache, file, now: t0)
        let b = try token(cache, file, keyID: "ZYXWV98765", now: t0)
        #expect(ProviderToken.Parts(a)?.keyID == keyID)
        #expect(ProviderToken.Parts(b)?.keyID == "ZYXWV98765")
        #expect(FileManager.default.fileExists(atPath: dir.file("token-\(teamID)-ZYXWV98765.jwt")))
    }
}

/// The cache keyed by the key file's bytes, so a repeated send decodes no key: a hit for the same bytes decodes nothing and checks no
/// signature; other bytes under the same ids get a new token; a file from before keyed fingerprints is checked
/// once. The fingerprint is an HMAC under the user's secret (`token-cache.secret`), so the cache file alone says
/// nothing about which key file made it.
@Suite struct ProviderTokenCacheFingerprintTests {
    let keyID = "ABCDE12345"
    let teamID = "TEAMID1234"
    let t0: Int64 = 1_800_000_000
    var cacheFileName: String { "token-\(teamID)-\(keyID).jwt" }

    /// A fresh P-256 key as the bytes of its `.p8`.
    private func keyFile() throws -> SigningKeyFile { try SigningKeyFile.fresh(keyID: keyID) }

    /// Counts what a lookup asks for: decoding the key (which the signature check also needs), checking a
    /// cached token, signing a new one.
    final class Recorder: @unchecked Sendable {
        var decoded = 0, checked = 0, made = 0
    }

    private func token(_ cache: ProviderTokenCache, _ file: SigningKeyFile, now: Int64, _ r: Recorder) throws -> String
    {
        try cache.token(
            keyID: keyID, teamID: teamID, now: now, keyFile: file,
            accept: { cached in
                r.checked += 1
                r.decoded += 1
                guard let key = try? file.decode(),
                    let v = try? ProviderTokenVerifier(publicKey: key.publicKey, keyID: keyID, teamID: teamID)
                else { return false }
                return v.verify(cached, now: now).isValid
            },
            make: {
                r.made += 1
                r.decoded += 1
                return try ProviderToken.make(key: file.decode(), keyID: keyID, teamID: teamID, issuedAt: now)
            })
    }

    /// The fingerprint `file` has under the secret kept in `dir` (read, or made when missing).
    private func fingerprint(_ file: SigningKeyFile, in dir: TemporaryDirectory) throws -> String {
        try #require(ProviderTokenCache(directory: dir.path).fingerprintOf(file, in: PrivateDirectory.open(dir.path)))
    }

    private func secret(in dir: TemporaryDirectory) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: dir.file(TokenCacheSecret.fileName)))
    }

    private func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
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
        let stored = try fingerprint(file, in: dir)
        // hmac-sha256: and 64 hex digits.
        #expect(stored.count == 12 + 64 && stored.hasPrefix("hmac-sha256:"))
        #expect(try dir.read(cacheFileName) == a + "\n" + stored + "\n")
    }

    @Test func theProductionPathDecodesOnlyToSign() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let file = try keyFile()
        var decodes = 0
        let decode = { () throws -> SigningKey in
            decodes += 1
            return try file.decode()
        }
        let a = try cache.token(file: file, keyID: keyID, teamID: teamID, now: t0, decode: decode)
        let b = try cache.token(file: file, keyID: keyID, teamID: teamID, now: t0 + 60, decode: decode)
        #expect(a == b)
        #expect(decodes == 1)
    }

    @Test func anotherKeyUnderTheSameNameGetsATokenItSigned() throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let old = try keyFile()
        let new = try keyFile()
        #expect(try fingerprint(old, in: dir) != fingerprint(new, in: dir))
        let a = try token(cache, old, now: t0, Recorder())
        let r = Recorder()
        let b = try token(cache, new, now: t0 + 1, r)
        #expect(a != b)
        // The other fingerprint is no hit: the old token is checked against the new key, fails, and a new one is signed.
        #expect((r.checked, r.made) == (1, 1))
        let verifier = try ProviderTokenVerifier(publicKey: new.decode().publicKey, keyID: keyID, teamID: teamID)
        #expect(verifier.verify(b, now: t0 + 1).isValid)
        #expect(try dir.read(cacheFileName) == b + "\n" + fingerprint(new, in: dir) + "\n")
    }

    /// Cache files of earlier versions: the token alone, or with the plain `sha256:` digest of the key file.
    static let legacyFormats: [@Sendable (String) -> String] = [
        { $0 + "\n" }, { $0 + "\nsha256:" + String(repeating: "ab", count: 32) + "\n" },
    ]

    @Test(arguments: 0..<2)
    func anEarlierFileIsReusedIfTheKeySignedItAndThenCarriesTheKeyedFingerprint(format: Int) throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let file = try keyFile()
        let legacy = try ProviderToken.make(key: file.decode(), keyID: keyID, teamID: teamID, issuedAt: t0)
        try dir.write(cacheFileName, Self.legacyFormats[format](legacy))
        let r = Recorder()
        #expect(try token(cache, file, now: t0 + 5, r) == legacy)
        #expect((r.checked, r.made) == (1, 0))
        #expect(try dir.read(cacheFileName) == legacy + "\n" + fingerprint(file, in: dir) + "\n")
        let again = Recorder()
        #expect(try token(cache, file, now: t0 + 6, again) == legacy)
        #expect((again.decoded, again.checked, again.made) == (0, 0, 0))
    }

    @Test(arguments: 0..<2)
    func anEarlierFileFromAnotherKeyIsReplaced(format: Int) throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let file = try keyFile()
        let other = try keyFile()
        let foreign = try ProviderToken.make(key: other.decode(), keyID: keyID, teamID: teamID, issuedAt: t0)
        try dir.write(cacheFileName, Self.legacyFormats[format](foreign))
        let r = Recorder()
        let fresh = try token(cache, file, now: t0 + 5, r)
        #expect(fresh != foreign)
        #expect((r.checked, r.made) == (1, 1))
        #expect(try dir.read(cacheFileName) == fresh + "\n" + fingerprint(file, in: dir) + "\n")
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

    @Test func theSecretIsPrivateAndTheCacheFileSaysNothingWithoutIt() throws {
        let dir = try TemporaryDirectory()
        let keys = try TemporaryDirectory(prefix: "keys")
        let pem = try CredentialGenerator.makeSigningKey().privateKey.pkcs8PEM(passphrase: nil)
        let keyPath = try keys.write("AuthKey_\(keyID).p8", pem, mode: 0o600)
        let file = try SigningKeyFile.read(.file(keyPath))
        _ = try token(ProviderTokenCache(directory: dir.path), file, now: t0, Recorder())
        #expect(try mode(dir.file(TokenCacheSecret.fileName)) == 0o600)
        #expect(try secret(in: dir).count == 32)
        // Not the key file's plain digest (which anyone holding a candidate key file could compute), in any case.
        let digest = try CommandRunner.run("openssl", ["dgst", "-sha256", "-r", keyPath]).stdout.prefix(64)
        #expect(digest.count == 64)
        let cached = try dir.read(cacheFileName).lowercased()
        #expect(!cached.contains(digest))
        // The same key file under another secret has another fingerprint: only the secret's holder can test a key.
        let elsewhere = try TemporaryDirectory()
        _ = try token(ProviderTokenCache(directory: elsewhere.path), file, now: t0, Recorder())
        #expect(try secret(in: elsewhere) != secret(in: dir))
        let here = try fingerprint(file, in: dir)
        let there = try fingerprint(file, in: elsewhere)
        #expect(here != there)
        #expect(cached.hasSuffix(here + "\n"))
        // Stable under one secret.
        #expect(try fingerprint(file, in: dir) == here)
    }

    /// A secret its group or others can write (or read) may be known to them: replaced, never used for a hit.
    @Test(arguments: [0o620, 0o660, 0o602, 0o640, 0o644])
    func aSecretOpenToOthersIsNotTrusted(openMode: Int) throws {
        let dir = try TemporaryDirectory()
        let cache = ProviderTokenCache(directory: dir.path)
        let file = try keyFile()
        let a = try token(cache, file, now: t0, Recorder())
        let before = try secret(in: dir)
        try FileManager.default.setAttributes(
            [.posixPermissions: openMode], ofItemAtPath: dir.file(TokenCacheSecret.fileName))
        let r = Recorder()
        #expect(try token(cache, file, now: t0 + 5, r) == a)
        // No hit on the old fingerprint: the token was checked against the key, then stored under a new secret.
        #expect((r.checked, r.made) == (1, 0))
        #expect(try secret(in: dir) != before)
        #expect(try mode(dir.file(TokenCacheSecret.fileName)) == 0o600)
        let again = Recorder()
        #expect(try token(cache, file, now: t0 + 6, again) == a)
        #expect((again.decoded, again.checked, again.made) == (0, 0, 0))
    }

    @Test(arguments: [0, 16, 31, 33, 4096])
    func aSecretOfTheWrongSizeIsReplaced(size: Int) throws {
        let dir = try TemporaryDirectory()
        try dir.write(TokenCacheSecret.fileName, [UInt8](repeating: 7, count: size), mode: 0o600)
        let file = try keyFile()
        _ = try token(ProviderTokenCache(directory: dir.path), file, now: t0, Recorder())
        #expect(try secret(in: dir).count == 32)
        #expect(try mode(dir.file(TokenCacheSecret.fileName)) == 0o600)
    }

    @Test func aLinkAtTheSecretsPathIsLeftAloneAndEveryTokenIsChecked() throws {
        let dir = try TemporaryDirectory()
        let elsewhere = try TemporaryDirectory()
        let target = try elsewhere.write("planted", [UInt8](repeating: 1, count: 32), mode: 0o600)
        try FileManager.default.createSymbolicLink(
            atPath: dir.file(TokenCacheSecret.fileName), withDestinationPath: target)
        let warnings = Recorder()
        var cache = ProviderTokenCache(directory: dir.path)
        cache.warn = { _ in warnings.made += 1 }
        let file = try keyFile()
        let a = try token(cache, file, now: t0, Recorder())
        let r = Recorder()
        #expect(try token(cache, file, now: t0 + 5, r) == a)
        #expect((r.checked, r.made) == (1, 0))
        #expect(warnings.made == 2)
        // Stored without a fingerprint, and the link and its target untouched.
        #expect(try dir.read(cacheFileName) == a + "\n")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: dir.file(TokenCacheSecret.fileName)) == target)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data(repeating: 1, count: 32))
    }

    /// Sends starting together each create the missing secret: all end up with one secret, none with half a file.
    @Test func concurrentFirstUsesAgreeOnOneSecret() throws {
        for _ in 0..<20 {
            let dir = try TemporaryDirectory()
            let file = try keyFile()
            let results = LockedValue<[String?]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let cache = ProviderTokenCache(directory: dir.path)
                let fp = (try? PrivateDirectory.open(dir.path)).flatMap { cache.fingerprintOf(file, in: $0) }
                results.withLock { $0.append(fp) }
            }
            let seen = results.current
            #expect(seen.count == 8 && seen.allSatisfy { $0 != nil })
            #expect(Set(seen).count == 1)
            #expect(try fingerprint(file, in: dir) == seen.first ?? nil)
        }
    }
}
