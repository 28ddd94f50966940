import APNSCore
import APNSPlatform

/// Keeps signed provider tokens in `$XDG_CACHE_HOME/apnsctl/` (directory 0700, files 0600), one per
/// team id and key id, reused while younger than 50 minutes: APNs refuses tokens older than an hour
/// and answers `TooManyProviderTokenUpdates` when a key signs new ones too often, which repeated CLI
/// runs would otherwise do. A damaged or foreign cache file is replaced, never fatal. Everything goes through
/// `PrivateDirectory`: a linked or shared cache dir, or a FIFO, link or another user's file at the cache path,
/// is skipped with a warning and left as it is (a new token is signed; nothing waits on a FIFO).
public struct ProviderTokenCache: Sendable {
    /// Reuse limit: 50 minutes, like apns2 and pushy.
    public static let maximumAge: Int64 = 3000

    public let directory: String
    /// Where "skipped" warnings go (standard error by default).
    public var warn: @Sendable (String) -> Void = { StandardStreams.warning($0) }

    /// A cache in `directory` (created on first write).
    public init(directory: String) { self.directory = directory }

    /// The default location, `$XDG_CACHE_HOME/apnsctl` or `~/.cache/apnsctl`; nil with no home directory (the
    /// cache is then skipped, never put in a shared place such as /tmp).
    public static var standard: ProviderTokenCache? { Environment.cacheHome.map { ProviderTokenCache(directory: $0 + "/apnsctl") } }

    /// The cache file for a key id and team id.
    public func path(keyID: String, teamID: String) -> String { "\(directory)/\(fileName(keyID: keyID, teamID: teamID))" }

    private func fileName(keyID: String, teamID: String) -> String { "token-\(teamID)-\(keyID).jwt" }

    /// A cached token for `keyID`/`teamID` younger than 50 minutes at `now`, else a new one from `make`,
    /// which is then stored. `accept` may veto a cached token (e.g. it was signed by another key).
    public func token(keyID: String, teamID: String, now: Int64, accept: ((String) -> Bool)? = nil,
                      make: () throws -> String) throws -> String {
        // Ids become part of a file name: only well-formed ones do.
        guard ProviderToken.isWellFormedID(keyID), ProviderToken.isWellFormedID(teamID) else { return try make() }
        let name = fileName(keyID: keyID, teamID: teamID)
        var storage: PrivateDirectory? = nil
        do { storage = try PrivateDirectory.open(directory) } catch {
            if case .untrusted = error { return try skipped(error, make: make) }
        }
        if let storage {
            do {
                if let cached = Self.token(in: try storage.read(name, limit: 4096)),
                   usable(cached, keyID: keyID, teamID: teamID, now: now), accept?(cached) ?? true {
                    return cached
                }
            } catch {
                if case .untrusted = error { return try skipped(error, make: make) }
            }
        }
        let fresh = try make()
        store(fresh, name: name, in: storage)
        return fresh
    }

    /// The cached or a new token signed by `key`; a cached token that does not verify with `key` is replaced.
    public func token(key: SigningKey, keyID: String, teamID: String, now: Int64) throws -> String {
        let verifier = try? ProviderTokenVerifier(publicKey: key.publicKey, keyID: keyID, teamID: teamID)
        return try token(keyID: keyID, teamID: teamID, now: now, accept: { cached in
            verifier?.verify(cached, now: now).isValid ?? false
        }, make: { try ProviderToken.make(key: key, keyID: keyID, teamID: teamID, issuedAt: now) })
    }

    /// A cache path we must not use: one warning naming it, a new token, and nothing stored or changed there.
    private func skipped(_ refusal: PrivateDirectory.Failure, make: () throws -> String) throws -> String {
        warn("\(refusal.message); the provider token cache is skipped (a new token is signed and not stored); "
             + "remove it, or pass --no-token-cache")
        return try make()
    }

    /// The first word of a cache file.
    private static func token(in bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == " " }).first.map(String.init)
    }

    private func usable(_ token: String, keyID: String, teamID: String, now: Int64) -> Bool {
        guard let parts = ProviderToken.Parts(token), parts.algorithm == "ES256",
              parts.keyID == keyID, parts.issuer == teamID, let iat = parts.issuedAt else { return false }
        return iat <= now && now - iat < Self.maximumAge
    }

    /// Writes through a temporary file and rename, so a concurrent reader never sees half a token. The directory
    /// (created 0700 when missing) is set to 0700 through its descriptor. Failures are ignored: the cache only
    /// saves work.
    private func store(_ token: String, name: String, in opened: PrivateDirectory?) {
        guard let storage = opened ?? (try? PrivateDirectory.openOrCreate(directory)) else { return }
        storage.setMode(0o700)
        _ = try? storage.write(Array((token + "\n").utf8), to: name, mode: 0o600, overwrite: true)
    }
}
