import APNSCore
import APNSPlatform

/// Keeps signed provider tokens in `$XDG_CACHE_HOME/apnsctl/` (directory 0700, files 0600), one per
/// team id and key id, reused while younger than 50 minutes: APNs refuses tokens older than an hour
/// and answers `TooManyProviderTokenUpdates` when a key signs new ones too often, which repeated CLI
/// runs would otherwise do. A damaged or foreign cache file is replaced, never fatal.
public struct ProviderTokenCache: Sendable {
    /// Reuse limit: 50 minutes, like apns2 and pushy.
    public static let maximumAge: Int64 = 3000

    public let directory: String

    /// A cache in `directory` (created on first write).
    public init(directory: String) { self.directory = directory }

    /// The default location, `$XDG_CACHE_HOME/apnsctl` or `~/.cache/apnsctl`.
    public static var standard: ProviderTokenCache { ProviderTokenCache(directory: Environment.cacheHome + "/apnsctl") }

    /// The cache file for a key id and team id.
    public func path(keyID: String, teamID: String) -> String { "\(directory)/token-\(teamID)-\(keyID).jwt" }

    /// A cached token for `keyID`/`teamID` younger than 50 minutes at `now`, else a new one from `make`,
    /// which is then stored. `accept` may veto a cached token (e.g. it was signed by another key).
    public func token(keyID: String, teamID: String, now: Int64, accept: ((String) -> Bool)? = nil,
                      make: () throws -> String) throws -> String {
        // Ids become part of a file name: only well-formed ones do.
        guard ProviderToken.isWellFormedID(keyID), ProviderToken.isWellFormedID(teamID) else { return try make() }
        let file = path(keyID: keyID, teamID: teamID)
        if let cached = read(file), usable(cached, keyID: keyID, teamID: teamID, now: now), accept?(cached) ?? true {
            return cached
        }
        let fresh = try make()
        store(fresh, at: file)
        return fresh
    }

    /// The cached or a new token signed by `key`; a cached token that does not verify with `key` is replaced.
    public func token(key: SigningKey, keyID: String, teamID: String, now: Int64) throws -> String {
        let verifier = try? ProviderTokenVerifier(publicKey: key.publicKey, keyID: keyID, teamID: teamID)
        return try token(keyID: keyID, teamID: teamID, now: now, accept: { cached in
            verifier?.verify(cached, now: now).isValid ?? false
        }, make: { try ProviderToken.make(key: key, keyID: keyID, teamID: teamID, issuedAt: now) })
    }

    private func read(_ file: String) -> String? {
        guard let bytes = try? FileSystem.read(file), bytes.count < 4096 else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let token = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == " " }).first.map(String.init)
        return token
    }

    private func usable(_ token: String, keyID: String, teamID: String, now: Int64) -> Bool {
        guard let parts = ProviderToken.Parts(token), parts.algorithm == "ES256",
              parts.keyID == keyID, parts.issuer == teamID, let iat = parts.issuedAt else { return false }
        return iat <= now && now - iat < Self.maximumAge
    }

    /// Writes through a temporary file and rename, so a concurrent reader never sees half a token.
    /// Failures are ignored: the cache only saves work.
    private func store(_ token: String, at file: String) {
        do {
            try FileSystem.makeDirectories(directory, mode: 0o700)
        } catch {
            return
        }
        _ = chmod(directory, 0o700)
        let temporary = "\(file).\(getpid()).tmp"
        do {
            try FileSystem.write(Array((token + "\n").utf8), to: temporary, mode: 0o600, overwrite: true)
        } catch {
            _ = unlink(temporary)
            return
        }
        if rename(temporary, file) != 0 { _ = unlink(temporary) }
    }
}
