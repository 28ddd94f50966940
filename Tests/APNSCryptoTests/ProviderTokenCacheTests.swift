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
