import APNSCore
import APNSPlatform

/// The user's own key for the token cache's fingerprints: 32 random bytes in `token-cache.secret` (mode 0600)
/// beside the cached tokens. A cache file then holds an HMAC of the `.p8` file's bytes under this key instead of
/// their plain digest, so the cache file alone (a CI cache artifact without the secret, a copy someone read) does
/// not let anyone test whether a given key file made it.
struct TokenCacheSecret {
    static let fileName = "token-cache.secret"
    /// What a fingerprint starts with in a cache file.
    static let prefix = "hmac-sha256:"

    private let mac: HMACSHA256

    init(_ key: SecretBytes) { mac = HMACSHA256(key: key) }

    /// `hmac-sha256:` and the hex HMAC of the key file's bytes; nil if OpenSSL cannot compute it.
    func fingerprint(of file: SigningKeyFile) -> String? { mac.hex(file.bytes).map { Self.prefix + $0 } }

    /// The secret in `directory`: read when it is a 32-byte regular file of ours that neither group nor others can
    /// read or write; created when missing (whole or not at all: of two sends creating it at once, both end up
    /// with the winner's); replaced by a new one when ours but of another size or open to others (its fingerprints
    /// then match nothing, so cached tokens are checked against the key once and stored again). nil, with a
    /// warning, for an entry we must not use (a link, FIFO or another user's file, left as it is), or when none
    /// can be made: the cache then checks every cached token against the key.
    static func load(in directory: PrivateDirectory, warn: (TokenCacheWarning) -> Void) -> TokenCacheSecret? {
        do {
            let (bytes, permissions) = try directory.readWithPermissions(fileName, limit: 4096)
            if bytes.count == HMACSHA256.keyLength && permissions & 0o077 == 0 {
                return TokenCacheSecret(SecretBytes(bytes))
            }
            return replace(in: directory)
        } catch {
            switch error {
            case .untrusted:
                warn(.secretSkipped(error))
                return nil
            case .file(.missing): return create(in: directory)
            case .file: return replace(in: directory)
            }
        }
    }

    /// A new secret published under `fileName` unless another process got there first, whose secret is then read.
    private static func create(in directory: PrivateDirectory) -> TokenCacheSecret? {
        guard let fresh = SecretBytes.random(count: HMACSHA256.keyLength) else { return nil }
        do {
            try directory.publish(fresh.withBytes { Array($0) }, as: fileName, mode: 0o600)
            return TokenCacheSecret(fresh)
        } catch {
            guard case .file(.exists) = error,
                let (bytes, permissions) = try? directory.readWithPermissions(fileName, limit: 4096),
                bytes.count == HMACSHA256.keyLength, permissions & 0o077 == 0
            else { return nil }
            return TokenCacheSecret(SecretBytes(bytes))
        }
    }

    /// A new secret renamed over the unusable one (a reader sees the old file or the new one, never half).
    private static func replace(in directory: PrivateDirectory) -> TokenCacheSecret? {
        guard let fresh = SecretBytes.random(count: HMACSHA256.keyLength),
            (try? directory.write(fresh.withBytes { Array($0) }, to: fileName, mode: 0o600, overwrite: true)) != nil
        else { return nil }
        return TokenCacheSecret(fresh)
    }
}
