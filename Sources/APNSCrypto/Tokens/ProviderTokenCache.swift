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

    /// A cache in `directory` (created on first write): the caller's, from its environment
    /// (`$XDG_CACHE_HOME/apnsctl` for the CLI; with no home directory it makes no cache rather than use /tmp).
    public init(directory: String) { self.directory = directory }

    /// The cache file for a key id and team id.
    public func path(keyID: String, teamID: String) -> String { "\(directory)/\(fileName(keyID: keyID, teamID: teamID))" }

    private func fileName(keyID: String, teamID: String) -> String { "token-\(teamID)-\(keyID).jwt" }

    /// A cached token for `keyID`/`teamID` younger than 50 minutes at `now`, else a new one from `make`,
    /// which is then stored. `accept` may veto a cached token (e.g. it was signed by another key).
    public func token(keyID: String, teamID: String, now: Int64, accept: ((String) -> Bool)? = nil,
                      make: () throws -> String) throws -> String {
        try token(keyID: keyID, teamID: teamID, now: now, fingerprint: nil, accept: { accept?($0) ?? true }, make: make)
    }

    /// The cached or a new token signed by `key`; a cached token that does not verify with `key` is replaced.
    public func token(key: SigningKey, keyID: String, teamID: String, now: Int64) throws -> String {
        try token(keyID: keyID, teamID: teamID, now: now, accept: Self.signedBy(key, keyID: keyID, teamID: teamID, now: now),
                  make: { try ProviderToken.make(key: key, keyID: keyID, teamID: teamID, issuedAt: now) })
    }

    /// The cached or a new token for the key in `file`, decoded only when needed. A token stored with this
    /// file's fingerprint is reused as it is: no decoding, no signature check. One stored for another
    /// fingerprint (the file now holds another key) is replaced unchecked. One stored without a fingerprint
    /// (by an earlier apnsctl) is reused if the key signed it, and stored again with the fingerprint. Without a
    /// fingerprint (OpenSSL could not digest the file) every cached token is checked against the key.
    /// `decode`: the caller's, so a bad key is reported as the caller reports credential problems.
    public func token(file: SigningKeyFile, keyID: String, teamID: String, now: Int64,
                      decode: () throws -> SigningKey) throws -> String {
        var decoded: SigningKey? = nil
        func key() throws -> SigningKey {
            if let decoded { return decoded }
            let k = try decode()
            decoded = k
            return k
        }
        return try token(keyID: keyID, teamID: teamID, now: now, fingerprint: file.fingerprint, accept: { cached in
            guard let k = try? key() else { return false }
            return Self.signedBy(k, keyID: keyID, teamID: teamID, now: now)(cached)
        }, make: { try ProviderToken.make(key: key(), keyID: keyID, teamID: teamID, issuedAt: now) })
    }

    /// The one lookup. With `fingerprint`, a stored token of that fingerprint skips `accept`, one of another is
    /// never used, and one without is checked by `accept` and stored again with it.
    func token(keyID: String, teamID: String, now: Int64, fingerprint: String?, accept: (String) -> Bool,
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
                let entry = Self.entry(in: try storage.read(name, limit: 4096))
                if let cached = entry.token, usable(cached, keyID: keyID, teamID: teamID, now: now) {
                    switch (fingerprint, entry.fingerprint) {
                    case (let given?, let stored?) where given == stored:
                        return cached
                    case (_?, _?):
                        break
                    case (let given?, nil):
                        if accept(cached) {
                            store(cached, fingerprint: given, name: name, in: storage)
                            return cached
                        }
                    case (nil, _):
                        if accept(cached) { return cached }
                    }
                }
            } catch {
                if case .untrusted = error { return try skipped(error, make: make) }
            }
        }
        let fresh = try make()
        store(fresh, fingerprint: fingerprint, name: name, in: storage)
        return fresh
    }

    /// Whether `key` signed a token for these ids (a cache file written before fingerprints, or by hand).
    private static func signedBy(_ key: SigningKey, keyID: String, teamID: String, now: Int64) -> (String) -> Bool {
        let verifier = try? ProviderTokenVerifier(publicKey: key.publicKey, keyID: keyID, teamID: teamID)
        return { cached in verifier?.verify(cached, now: now).isValid ?? false }
    }

    /// A cache path we must not use: one warning naming it, a new token, and nothing stored or changed there.
    private func skipped(_ refusal: PrivateDirectory.Failure, make: () throws -> String) throws -> String {
        warn("\(refusal.message); the provider token cache is skipped (a new token is signed and not stored); "
             + "remove it, or pass --no-token-cache")
        return try make()
    }

    /// A cache file: the token (its first word), then the key file's fingerprint when it was stored with one.
    private static func entry(in bytes: [UInt8]) -> (token: String?, fingerprint: String?) {
        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == " " }).prefix(2).map(String.init)
        let fingerprint = words.count > 1 && words[1].hasPrefix("sha256:") ? words[1] : nil
        return (words.first, fingerprint)
    }

    private func usable(_ token: String, keyID: String, teamID: String, now: Int64) -> Bool {
        guard let parts = ProviderToken.Parts(token), parts.algorithm == "ES256",
              parts.keyID == keyID, parts.issuer == teamID, let iat = parts.issuedAt else { return false }
        return iat <= now && now - iat < Self.maximumAge
    }

    /// Writes through a temporary file and rename, so a concurrent reader never sees half a token. The directory
    /// (created 0700 when missing) is set to 0700 through its descriptor. Failures are ignored: the cache only
    /// saves work.
    private func store(_ token: String, fingerprint: String?, name: String, in opened: PrivateDirectory?) {
        guard let storage = opened ?? (try? PrivateDirectory.openOrCreate(directory)) else { return }
        storage.setMode(0o700)
        let text = token + "\n" + (fingerprint.map { $0 + "\n" } ?? "")
        _ = try? storage.write(Array(text.utf8), to: name, mode: 0o600, overwrite: true)
    }
}
