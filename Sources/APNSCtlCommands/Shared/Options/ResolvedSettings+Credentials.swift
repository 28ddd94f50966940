import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

extension CredentialSource {
    /// What the loader reads: the file, or the PEM text in memory under its display name (never a file).
    var input: CredentialInput {
        switch self {
        case .file(let path): return .file(path)
        case .pem(let text, _): return .memory(Array(text.utf8), name: displayName)
        }
    }
}

/// The credentials of a resolved command: loaded from their files or from PEM held in `APNSCTL_*` variables,
/// with every message naming where each part came from (`--cert`, `APNSCTL_CERT`, `cert in profile dev (…)`).
extension ResolvedSettings {
    /// The passphrase, as resolved (`--passphrase`, `APNSCTL_PASSPHRASE` or `--passphrase-file`, whichever came
    /// first), else a prompt on a terminal.
    var passphraseSource: PassphraseSource {
        PassphraseSource(text: passphrase?.value, filePath: passphraseFile?.value, environmentVariable: nil, promptOnTerminal: true)
    }

    /// `[path: label]` for the credential files, so a missing one is named by where it was given.
    private var credentialLabels: [String: String] {
        var out: [String: String] = [:]
        for name in ["cert", "key", "auth-key"] {
            if case .credential(.file(let path))? = values[name]?.value, out[path] == nil { out[path] = label(name) }
        }
        return out
    }

    /// Runs credential code, its problems as CLI errors naming each file's origin.
    private func credentialErrors<T>(_ body: () throws(CredentialProblem) -> T) throws(CLIError) -> T {
        do { return try body() } catch {
            throw CLIError(error, passphraseFileFlag: label("passphrase-file"), flags: credentialLabels)
        }
    }

    /// The certificate and its key, checked for match and dates at `now` (nil: no date check); nil with token
    /// auth. Warns for a certificate without Apple's push markers.
    func loadIdentity(now: Int64? = SystemClock.now()) throws(CLIError) -> PushIdentity? {
        guard let cert = cert?.value else { return nil }
        let keyInput = key?.value.input
        let source = passphraseSource
        let identity = try credentialErrors { () throws(CredentialProblem) in
            try CredentialLoader.loadIdentity(certificate: cert.input, key: keyInput, passphrase: source, now: now)
        }
        if !identity.info.isApplePush { StandardStreams.warning(CredentialMessages.notApplePush(cert.displayName)) }
        return identity
    }

    /// The `.p8` key with its checked key id and team id; nil with certificate auth. Missing or malformed ids
    /// are credential problems (77).
    func loadSigningKey() throws(CLIError) -> SigningKeyWithIDs? {
        guard let authKey = authKey?.value else { return nil }
        let explicitKeyID = keyID?.value
        let team = teamID?.value
        return try credentialErrors { () throws(CredentialProblem) in
            let key = try CredentialLoader.loadSigningKey(authKey.input)
            let ids = try ProviderToken.identifiers(explicitKeyID: explicitKeyID, key: key, authKeyPath: authKey.displayName, teamID: team)
            return SigningKeyWithIDs(key: key, keyID: ids.keyID, teamID: ids.teamID)
        }
    }

    /// The bearer token to send (cached in `cache` unless `no-token-cache`) with its ids; nil without a key.
    func providerToken(now: Int64 = SystemClock.now(), cache: ProviderTokenCache? = .standard)
        throws(CLIError) -> (token: String, keyID: String, teamID: String)? {
        guard let loaded = try loadSigningKey() else { return nil }
        return (try loaded.providerToken(noCache: isOn("no-token-cache"), now: now, cache: cache), loaded.keyID, loaded.teamID)
    }
}

/// A signing key with its checked key id and team id.
struct SigningKeyWithIDs {
    let key: SigningKey
    let keyID: String
    let teamID: String

    /// A provider token: from `cache` (signed and stored when older than 50 minutes) unless `noCache`.
    func providerToken(noCache: Bool, now: Int64, cache: ProviderTokenCache?) throws(CLIError) -> String {
        do {
            if !noCache, let cache {
                return try cache.token(key: key, keyID: keyID, teamID: teamID, now: now)
            }
            if !noCache {
                StandardStreams.warning("no home directory ($HOME and $XDG_CACHE_HOME are unset and the password database "
                    + "has none): the provider token is not cached; set XDG_CACHE_HOME to a directory of yours to cache it")
            }
            return try ProviderToken.make(key: key, keyID: keyID, teamID: teamID, issuedAt: now)
        } catch {
            throw .internalError("signing the provider token failed: \(error)")
        }
    }
}
