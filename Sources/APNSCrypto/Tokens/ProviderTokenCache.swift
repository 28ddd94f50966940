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
    /// Where "skipped" warnings go, for the caller to word and show (none are shown by default).
    public var warn: @Sendable (TokenCacheWarning) -> Void = { _ in }

    /// A cache in `directory` (created on first write): the caller's, from its environment
    /// (`$XDG_CACHE_HOME/apnsctl` for the CLI; with no home directory it makes no cache rather than use /tmp).
    public init(directory: String) { self.directory = directory }

    /// The cache file's name for a key id and team id.
    private func fileName(keyID: String, teamID: String) -> String { "token-\(teamID)-\(keyID).jwt" }

    /// The cached or a new token for the key in `file`, decoded only when needed. A token stored with this
    /// file's fingerprint (an HMAC of its bytes under the cache's secret, `TokenCacheSecret`) is reused as it is:
    /// no decoding, no signature check. Any other (stored with another key's fingerprint, or another secret's, or
    /// the plain `sha256:` line or none of earlier versions) is reused only if the key signed it, and then stored
    /// again with this fingerprint; if not, a new token is signed. Without a secret (none could be read or made)
    /// every cached token is checked against the key. `decode`: the caller's, so a bad key is reported as the
    /// caller reports credential problems.
    public func token(
        file: SigningKeyFile, keyID: String, teamID: String, now: Int64,
        decode: () throws -> SigningKey
    ) throws -> String {
        var decoded: SigningKey? = nil
        func key() throws -> SigningKey {
            if let decoded { return decoded }
            let k = try decode()
            decoded = k
            return k
        }
        return try token(
            keyID: keyID, teamID: teamID, now: now, keyFile: file,
            accept: { cached in
                guard let k = try? key() else { return false }
                return Self.signedBy(k, keyID: keyID, teamID: teamID, now: now)(cached)
            }, make: { try ProviderToken.make(key: key(), keyID: keyID, teamID: teamID, issuedAt: now) })
    }

    /// The one lookup: a stored token carrying `keyFile`'s fingerprint skips `accept`; one carrying anything else
    /// is checked by `accept` and, if accepted, stored again with the fingerprint (without a secret, no fingerprint:
    /// every stored token is checked by `accept`).
    func token(
        keyID: String, teamID: String, now: Int64, keyFile: SigningKeyFile, accept: (String) -> Bool,
        make: () throws -> String
    ) throws -> String {
        // Ids become part of a file name: only well-formed ones do.
        guard DeveloperID.isWellFormed(keyID), DeveloperID.isWellFormed(teamID) else { return try make() }
        let name = fileName(keyID: keyID, teamID: teamID)
        var storage: PrivateDirectory? = nil
        do { storage = try PrivateDirectory.open(directory) } catch {
            if case .untrusted = error { return try skipped(error, make: make) }
        }
        var fingerprint: String? = nil
        if let storage {
            fingerprint = fingerprintOf(keyFile, in: storage)
            do {
                let entry = Self.entry(in: try storage.read(name, limit: 4096))
                if let cached = entry.token, usable(cached, keyID: keyID, teamID: teamID, now: now) {
                    if let fingerprint, entry.fingerprint == fingerprint { return cached }
                    if accept(cached) {
                        if let fingerprint { store(cached, fingerprint: fingerprint, name: name, in: storage) }
                        return cached
                    }
                }
            } catch {
                if case .untrusted = error { return try skipped(error, make: make) }
            }
        }
        let fresh = try make()
        guard let target = storage ?? (try? PrivateDirectory.openOrCreate(directory)) else { return fresh }
        if storage == nil { fingerprint = fingerprintOf(keyFile, in: target) }
        store(fresh, fingerprint: fingerprint, name: name, in: target)
        return fresh
    }

    /// The key file's fingerprint under the secret kept in `storage` (read, or made on first use).
    func fingerprintOf(_ file: SigningKeyFile, in storage: PrivateDirectory) -> String? {
        TokenCacheSecret.load(in: storage, warn: warn)?.fingerprint(of: file)
    }

    /// Whether `key` signed a token for these ids (a cache file written before fingerprints, or by hand).
    private static func signedBy(_ key: SigningKey, keyID: String, teamID: String, now: Int64) -> (String) -> Bool {
        let verifier = try? ProviderTokenVerifier(publicKey: key.publicKey, keyID: keyID, teamID: teamID)
        return { cached in verifier?.verify(cached, now: now).isValid ?? false }
    }

    /// A cache path we must not use: one warning naming it, a new token, and nothing stored or changed there.
    private func skipped(_ refusal: PrivateDirectory.Failure, make: () throws -> String) throws -> String {
        warn(.cacheSkipped(refusal))
        return try make()
    }

    /// A cache file: the token (its first word), then the key file's fingerprint when it was stored with one (the
    /// `sha256:` line of earlier versions counts as none: the token is then checked against the key).
    private static func entry(in bytes: [UInt8]) -> (token: String?, fingerprint: String?) {
        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == " " }).prefix(2).map(String.init)
        let fingerprint = words.count > 1 && words[1].hasPrefix(TokenCacheSecret.prefix) ? words[1] : nil
        return (words.first, fingerprint)
    }

    private func usable(_ token: String, keyID: String, teamID: String, now: Int64) -> Bool {
        guard let parts = ProviderToken.Parts(token), parts.algorithm == "ES256",
            parts.keyID == keyID, parts.issuer == teamID, let iat = parts.issuedAt
        else { return false }
        return iat <= now && now - iat < Self.maximumAge
    }

    /// Writes through a temporary file and rename, so a concurrent reader never sees half a token. The directory
    /// (created 0700 when missing) is set to 0700 through its descriptor. Failures are ignored: the cache only
    /// saves work.
    private func store(_ token: String, fingerprint: String?, name: String, in storage: PrivateDirectory) {
        storage.setMode(0o700)
        let text = token + "\n" + (fingerprint.map { $0 + "\n" } ?? "")
        _ = try? storage.write(Array(text.utf8), to: name, mode: 0o600, overwrite: true)
    }
}
