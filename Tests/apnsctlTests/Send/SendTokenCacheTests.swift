import APNSCrypto
import APNSTestSupport
import Foundation
import Testing

/// The provider token cache through `send` against `apnsctl mock`: the cache is keyed by the key
/// file's bytes, so a cached token is reused without decoding the key, and another key under the same file
/// name gets a token of its own.
@Suite struct SendTokenCacheTests {
    static let device = "ab00000000000000000000000000000000000000000000000000000000000001"

    private func send(_ mock: InProcessMock, key: String, cache: TemporaryDirectory) throws -> CommandResult {
        try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--auth-key", key,
                "--team-id", mock.teamID, "--topic", mock.bundleID, "--alert", "hi", "-d", Self.device,
            ],
            environment: ["XDG_CACHE_HOME": cache.path])
    }

    @Test func anotherKeyUnderTheSameFileNameGetsANewTokenThatTheMockHoldingItAccepts() throws {
        let mock = try InProcessMock()
        let cache = try TemporaryDirectory(prefix: "cache")
        let keys = try TemporaryDirectory(prefix: "keys")
        let name = "AuthKey_\(mock.keyID).p8"
        // First a key the mock does not hold: refused, and its token is cached under the mock's ids.
        let stranger = try CredentialGenerator.makeSigningKey().privateKey.pkcs8PEM(passphrase: nil)
        let path = try keys.write(name, stranger, mode: 0o600)
        let refused = try send(mock, key: path, cache: cache)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("rejected  403  InvalidProviderToken"), "\(refused.stdout)")
        let cacheFile = cache.file("apnsctl/token-\(mock.teamID)-\(mock.keyID).jwt")
        let strangerToken = try String(contentsOfFile: cacheFile, encoding: .utf8)
        // Then the mock's own key under the same name: a new token, which the mock accepts.
        _ = try keys.write(name, try String(contentsOfFile: mock.authKey, encoding: .utf8), mode: 0o600)
        let accepted = try send(mock, key: path, cache: cache)
        #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
        #expect(accepted.stdout.hasPrefix("accepted  200"))
        let ownToken = try String(contentsOfFile: cacheFile, encoding: .utf8)
        #expect(ownToken != strangerToken)
        #expect(ownToken.split(separator: "\n").last?.hasPrefix("hmac-sha256:") == true)
        // The secret the fingerprint is keyed with sits beside it, 0600; the key file's plain digest is nowhere.
        let secret = cache.file("apnsctl/token-cache.secret")
        #expect((try FileManager.default.attributesOfItem(atPath: secret)[.posixPermissions] as? Int) == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: secret)[.size] as? Int) == 32)
        let digest = try CommandRunner.run("openssl", ["dgst", "-sha256", "-r", path]).stdout.prefix(64)
        #expect(digest.count == 64 && !ownToken.contains(digest))
        // And again: the cached token, reused as it is.
        let again = try send(mock, key: path, cache: cache)
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: cacheFile, encoding: .utf8) == ownToken)
    }

    /// A cache file an earlier apnsctl wrote (the token and the key file's plain `sha256:` line) is reused when the
    /// key signed its token, and rewritten with the keyed fingerprint; one whose token another key signed is replaced.
    @Test func anEarlierCacheFileIsReusedWhenItsTokenVerifiesAndRewritten() throws {
        let mock = try InProcessMock()
        let cache = try TemporaryDirectory(prefix: "cache")
        let keys = try TemporaryDirectory(prefix: "keys")
        let path = try keys.write(
            "AuthKey_\(mock.keyID).p8", try String(contentsOfFile: mock.authKey, encoding: .utf8), mode: 0o600)
        let earlier = try InProcess.apnsctl(["jwt", "--auth-key", path, "--team-id", mock.teamID]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let stranger = try InProcess.apnsctl([
            "jwt", "--auth-key",
            try keys.write(
                "AuthKey_\(mock.keyID).other.p8",
                try CredentialGenerator.makeSigningKey().privateKey.pkcs8PEM(passphrase: nil), mode: 0o600), "--key-id",
            mock.keyID,
            "--team-id", mock.teamID,
        ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(earlier.split(separator: ".").count == 3 && stranger.split(separator: ".").count == 3)
        let oldLine =
            "sha256:" + String(try CommandRunner.run("openssl", ["dgst", "-sha256", "-r", path]).stdout.prefix(64))
        try FileManager.default.createDirectory(
            atPath: cache.file("apnsctl"), withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        let cacheFile = try cache.write("apnsctl/token-\(mock.teamID)-\(mock.keyID).jwt", "", mode: 0o600)
        for (token, reused) in [(earlier, true), (stranger, false)] {
            try Data((token + "\n" + oldLine + "\n").utf8).write(to: URL(fileURLWithPath: cacheFile))
            let sent = try send(mock, key: path, cache: cache)
            #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
            let lines = try String(contentsOfFile: cacheFile, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(lines.count == 2 && lines[1].hasPrefix("hmac-sha256:"))
            #expect((lines.first == token) == reused, "\(lines)")
        }
    }
}
