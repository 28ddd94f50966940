import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

extension CredentialSource {
    /// What the loader reads: the file (`-`: the world's standard input), or the PEM text in memory under its
    /// display name (never a file).
    func input(in world: CommandWorld) -> CredentialInput {
        switch self {
        case .file(let path): return .given(path, in: world)
        case .pem(let text, _): return .memory(Array(text.utf8), name: displayName)
        }
    }
}

extension CredentialInput {
    /// A credential file named on the command line; `-` is the command's standard input, which in-process is the
    /// world's, not the process's.
    /// On a terminal, saying so: the read ends at Ctrl-D.
    static func given(_ path: String, in world: CommandWorld) -> CredentialInput {
        guard FileSystem.namesStandardInput(path) else { return .file(path) }
        world.sayWhenReadingTheTerminal(nil, "a credential (\(path))", "paste the PEM (it is not shown)")
        return .standardInput(world.standardInput, name: path)
    }

    /// A credential of `-` read whole now and held in memory under its name, for a command that looks at its bytes
    /// before loading them (a piped profile for inspect, a `.p12` convert refuses on a terminal); nil for a file,
    /// which loading reads.
    static func readNow(_ path: String, in world: CommandWorld) throws(CLIError) -> (
        input: CredentialInput, bytes: [UInt8]
    )? {
        guard FileSystem.namesStandardInput(path) else { return nil }
        let given = CredentialInput.given(path, in: world)
        let bytes = try withCredentialErrors { () throws(CredentialProblem) in try CredentialLoader.read(given) }
        return (.memory(bytes, name: given.name), bytes)
    }
}

/// The credentials of a resolved command: loaded from their files or from PEM held in `APNSCTL_*` variables,
/// with every message naming where each part came from (`--cert`, `APNSCTL_CERT`, `cert in profile dev (…)`).
extension ResolvedSettings {
    /// `problem` as the CLI says it; a certificate refused for the environment a variable or a profile chose
    /// names that origin, where "use --env" alone sent the user to a flag they had not given.
    func credentialError(_ problem: CredentialProblem) -> CLIError {
        guard case .environmentNotAllowed(let path, let requested, let available) = problem,
            let origin = self[.env]?.origin, origin != .defaultValue
        else { return CLIError(problem) }
        if case .flag = origin { return CLIError(problem) }
        let has = available.isEmpty ? "no APNs environment" : available.map(\.rawValue).joined(separator: " and ")
        let instead = available.first.map { "pass --env \($0.rawValue) (a flag wins over it), or " } ?? ""
        return .credential(
            "\(path): the certificate is not valid for \(requested.rawValue) (it allows \(has)), which \(label(.env)) chose; \(instead)use a certificate for \(requested.rawValue)"
        )
    }

    /// The passphrase, as resolved (`--passphrase`, `APNSCTL_PASSPHRASE` or `--passphrase-file`, whichever came
    /// first), else a prompt on a terminal.
    func passphraseSource(in world: CommandWorld) -> PassphraseSource {
        PassphraseSource.given(text: self[.passphrase]?.value, file: self[.passphraseFile]?.value, in: world)
    }

    /// `[path: label]` for the credential files, so a missing one is named by where it was given.
    private var credentialLabels: [String: String] {
        var out: [String: String] = [:]
        for key in [SettingKey<CredentialSource>.cert, .key, .authKey] {
            if case .file(let path)? = self[key]?.value, out[path] == nil { out[path] = label(key) }
        }
        return out
    }

    /// Runs credential code, its problems as CLI errors naming each file's origin.
    /// `passphraseFile`: the file the passphrase was read from (none when `--passphrase-file -` was typed at the
    /// prompt), for a wrong one's message.
    private func credentialErrors<T>(passphraseFile: String? = nil, _ body: () throws(CredentialProblem) -> T)
        throws(CLIError) -> T
    {
        do { return try body() } catch {
            throw CLIError(
                error, passphraseFileFlag: label(.passphraseFile), flags: credentialLabels,
                passphrase: self[.passphrase].map { ($0.value, label(.passphrase)) },
                passphraseFile: passphraseFile, keyIDAdvice: keyIDAdvice, keyAdvice: keyAdvice,
                takesCertificates: command != .jwt)
        }
    }

    /// Where a certificate's missing key goes: beside it, as a key given elsewhere is refused; nil for `--cert`
    /// (the general advice, `--key FILE`, fits it).
    private var keyAdvice: String? {
        // A key given where it is not read (below the certificate's place) is named, or it seems ignored.
        let unread =
            ignoredKeyLabel.map {
                " (\($0) is not read: credentials are taken from one place, here \(label(.cert)))"
            } ?? ""
        switch self[.cert]?.origin {
        case .variable?: return "set APNSCTL_KEY to its key file (the certificate comes from APNSCTL_CERT)" + unread
        case .profile(let name, _, _)?:
            return
                "set key in profile \(name) (\(location.configCommand("set")) --profile \(ShellWord.of(name)) key FILE)"
                + unread
        default: return unread.isEmpty ? nil : "pass the key with --key FILE" + unread
        }
    }

    /// Where a missing key id goes: beside its key, since a key id given above the key's layer is refused.
    private var keyIDAdvice: String {
        // A key id given where it is not read (below the key's place) is named, or it seems ignored.
        let unread =
            ignoredKeyIDLabel.map {
                " (\($0) is not read: a key id belongs to its key, given here by \(label(.authKey)))"
            } ?? ""
        switch self[.authKey]?.origin {
        case .variable?: return "set APNSCTL_KEY_ID (the key comes from APNSCTL_AUTH_KEY)" + unread
        case .profile(let name, _, _)?:
            return
                "set key-id in profile \(name) (\(location.configCommand("set")) --profile \(ShellWord.of(name)) key-id KEYID)"
                + unread
        default: return "pass --key-id" + unread
        }
    }

    /// The certificate and its key, checked for match and dates at `now` (nil: no date check); nil with token
    /// auth. Warns for a certificate without Apple's push markers.
    func loadIdentity(now: Int64?, in world: CommandWorld) throws(CLIError) -> PushIdentity? {
        guard let cert = self[.cert]?.value else { return nil }
        let keyInput = self[.key]?.value.input(in: world)
        let source = passphraseSource(in: world)
        let identity = try credentialErrors(passphraseFile: source.filePath) { () throws(CredentialProblem) in
            try CredentialLoader.loadIdentity(
                certificate: cert.input(in: world), key: keyInput, passphrase: source, now: now)
        }
        if !identity.info.hasApplePushExtensions {
            world.standardError.warning(CredentialMessages.notApplePush(cert.displayName, info: identity.info))
        }
        if !identity.leftOut.isEmpty {
            world.standardError.warning(
                CredentialMessages.otherCertificates(
                    cert.displayName, used: identity.info, others: identity.leftOut))
        }
        return identity
    }

    /// The `.p8` key, decoded, with its checked key id and team id; nil with certificate auth. Missing ids, and
    /// a malformed key id in the file name, are credential problems (77); the settings refused malformed ones
    /// given anywhere else (64).
    func loadSigningKey(warningsTo messages: MessageStream? = nil, in world: CommandWorld) throws(CLIError)
        -> SigningKeyWithIDs?
    {
        guard let loaded = try readSigningKey(warningsTo: messages, in: world) else { return nil }
        _ = try loaded.key()
        return loaded
    }

    /// The `.p8` key read, not decoded, with its checked ids: a cached token for the same bytes needs no more.
    /// A bad key is still named before bad ids, as when the key was decoded first.
    /// `refusingMixedUpIDs`: a team id that is the key id (`TokenIDMixUp`) is a usage error, ids that look swapped
    /// by the file's name a warning; doctor passes false to say both in its report instead.
    /// `messages`: where a key id that differs from the file name's is warned about (APNs answers such a token
    /// InvalidProviderToken unless the file was renamed).
    func readSigningKey(
        refusingMixedUpIDs: Bool = true, warningsTo messages: MessageStream? = nil, in world: CommandWorld
    ) throws(CLIError) -> SigningKeyWithIDs? {
        guard let authKey = self[.authKey]?.value else { return nil }
        let explicitKeyID = self[.keyID]?.value
        let team = self[.teamID]?.value
        let report = { @Sendable (problem: CredentialProblem) -> CLIError in
            CLIError(
                problem, passphraseFileFlag: label(.passphraseFile), flags: credentialLabels, keyIDAdvice: keyIDAdvice,
                takesCertificates: command != .jwt)
        }
        let loaded = try credentialErrors { () throws(CredentialProblem) in
            let file = try SigningKeyFile.read(authKey.input(in: world))
            let ids: (keyID: String, teamID: String)
            do throws(CredentialProblem) {
                ids = try ProviderToken.identifiers(
                    explicitKeyID: explicitKeyID, keyIDFromFileName: file.keyIDFromFileName,
                    authKeyPath: authKey.displayName, teamID: team)
            } catch {
                _ = try file.decode()
                throw error
            }
            return SigningKeyWithIDs(file: file, keyID: ids.keyID, teamID: ids.teamID, report: report)
        }
        // Ids mixed up would be answered InvalidProviderToken, which reads like a clock or key problem: refused
        // here, before a token is signed (doctor, which explains every answer, warns instead).
        if refusingMixedUpIDs,
            let mixUp = TokenIDMixUp.of(path: authKey.displayName, keyID: loaded.keyID, teamID: loaded.teamID)
        {
            switch mixUp {
            case .swapped(let fileKeyID):
                // A guess from the file's name, which its owner may have chosen (a key named after its team): said,
                // not refused, since both ids were given and nothing else could override a refusal.
                messages?.warning(
                    "\(label(.teamID)) \(fileKeyID) is the key's id in its file name (\(FileSystem.baseName(authKey.displayName))), and \(label(.keyID)) \(loaded.keyID) is given: if the ids are swapped, APNs answers InvalidProviderToken; then give \(label(.teamID)) \(loaded.keyID) and \(label(.keyID)) \(fileKeyID)"
                )
            case .keyIDIsTeamID(let fileKeyID):
                throw .usage(
                    "\(label(.keyID)) \(loaded.keyID) is the team id given too (\(label(.teamID))); the key's id is its file name's, \(fileKeyID) (\(FileSystem.baseName(authKey.displayName))): give \(label(.keyID)) \(fileKeyID), or leave it out"
                )
            case .teamIsKeyID:
                throw .usage(
                    "\(label(.teamID)) \(loaded.teamID): that is the key's id, not a team id; give the team id shown as Team ID on the Apple Developer portal's Membership page"
                )
            case .keyIDDiffersFromFileName(let fileKeyID):
                messages?.warning(
                    "\(label(.keyID)) \(loaded.keyID) differs from the file name's key id \(fileKeyID) (\(FileSystem.baseName(authKey.displayName))); Apple names the file after the key's id, so APNs may answer InvalidProviderToken"
                )
            }
        }
        return loaded
    }

    /// The bearer token to send (cached in the world's cache directory unless `no-token-cache`) with its ids and
    /// how a run renews it; nil without a key.
    func providerToken(now: Int64, refusingMixedUpIDs: Bool = true, in world: CommandWorld) throws(CLIError) -> (
        token: String, keyID: String, teamID: String, renewal: ProviderTokenRenewal
    )? {
        guard
            let loaded = try readSigningKey(
                refusingMixedUpIDs: refusingMixedUpIDs, warningsTo: refusingMixedUpIDs ? world.standardError : nil,
                in: world)
        else { return nil }
        let cache = world.tokenCacheDirectory.map { directory in
            var cache = ProviderTokenCache(directory: directory)
            let stream = world.standardError
            cache.warn = { stream.warning($0) }
            return cache
        }
        let noCache = isOn(.noTokenCache)
        let token = try loaded.providerToken(noCache: noCache, now: now, cache: cache, in: world)
        // A new token is signed, never taken from the cache: another apnsctl may have stored one there minutes
        // after ours, and APNs refuses a second token on a connection within 20 minutes of the first.
        let warned = LockedValue(false)
        let renewal = ProviderTokenRenewal(
            issuedAt: ProviderToken.Parts(token)?.issuedAt ?? now, maximumAge: ProviderTokenCache.maximumAge,
            now: world.clock.now,
            sign: { time in
                do throws(CLIError) { return try loaded.signedToken(issuedAt: time) } catch {
                    let first = warned.withLock { said in
                        defer { said = true }
                        return !said
                    }
                    if first {
                        // The cause alone: the warning says what follows from it.
                        let cause: String
                        switch error {
                        case .internalError(let m): cause = m
                        default: cause = error.message ?? "\(error)"
                        }
                        world.standardError.warning(
                            "a new provider token could not be signed (\(cause)); requests keep the one they have, "
                                + "which APNs refuses once it is an hour old")
                    }
                    return nil
                }
            })
        return (token, loaded.keyID, loaded.teamID, renewal)
    }
}

/// A `.p8` key file with its checked key id and team id. The key is decoded when a token is signed or checked
/// (or a dry run asks for it), never for a cached token made from the same bytes.
final class SigningKeyWithIDs: Sendable {
    let file: SigningKeyFile
    let keyID: String
    let teamID: String
    /// Credential problems as the command reports them, naming where the key came from.
    private let report: @Sendable (CredentialProblem) -> CLIError
    /// The key once decoded, for the first token or a later one of the same run (`ProviderTokenRenewal`).
    private let decoded = LockedValue<SigningKey?>(nil)

    init(
        file: SigningKeyFile, keyID: String, teamID: String, report: @escaping @Sendable (CredentialProblem) -> CLIError
    ) {
        self.file = file
        self.keyID = keyID
        self.teamID = teamID
        self.report = report
    }

    /// The decoded key (decoded once).
    func key() throws(CLIError) -> SigningKey {
        if let key = decoded.current { return key }
        do {
            let key = try file.decode()
            decoded.withLock { $0 = key }
            return key
        } catch {
            throw report(error)
        }
    }

    /// A provider token: from `cache` (signed and stored when older than 50 minutes or made from other key
    /// bytes) unless `noCache`.
    func providerToken(noCache: Bool, now: Int64, cache: ProviderTokenCache?, in world: CommandWorld) throws(CLIError)
        -> String
    {
        if !noCache, let cache {
            do {
                return try cache.token(
                    file: file, keyID: keyID, teamID: teamID, now: now, decode: { () throws(CLIError) in try key() })
            } catch let failure as CLIError {
                throw failure
            } catch {
                throw .internalError("signing the provider token failed: \(error)")
            }
        }
        if !noCache {
            world.standardError.warning(
                "no home directory (\(world.settings.noHomeReason(xdg: "XDG_CACHE_HOME"))): "
                    + "the provider token is not cached; set XDG_CACHE_HOME to a directory of yours to cache it, "
                    + "or pass --no-token-cache"
            )
        }
        return try signedToken(issuedAt: now)
    }

    /// A token issued at `time`, signed now: the first of a run without the cache, or a renewal
    /// (`ProviderTokenRenewal`), which never takes one from the cache.
    func signedToken(issuedAt time: Int64) throws(CLIError) -> String {
        let signing = try key()
        do {
            return try ProviderToken.make(key: signing, keyID: keyID, teamID: teamID, issuedAt: time)
        } catch {
            throw .internalError("signing the provider token failed: \(error)")
        }
    }
}

/// How token ids given disagree with each other and with the key's file name (`AuthKey_<KEYID>.p8`): the one
/// rule `send` and `jwt` refuse or warn by and `doctor` reports by.
enum TokenIDMixUp: Equatable {
    /// The file name's key id is given as the team id, and another id as the key id.
    case swapped(fileKeyID: String)
    /// The team id is the key id itself.
    case teamIsKeyID
    /// The key id given is the team id, and the file name names another key id: the team id typed twice.
    case keyIDIsTeamID(fileKeyID: String)
    /// The key id differs from the file name's, which is not given as the team id.
    case keyIDDiffersFromFileName(fileKeyID: String)

    static func of(path: String, keyID: String, teamID: String) -> TokenIDMixUp? {
        let fileKeyID = SigningKey.keyID(fromFileName: path)
        // One id given as both is wrong whatever the file is called: checked first.
        if teamID == keyID {
            if let fileKeyID, fileKeyID != keyID { return .keyIDIsTeamID(fileKeyID: fileKeyID) }
            return .teamIsKeyID
        }
        if let fileKeyID, fileKeyID != keyID {
            return teamID == fileKeyID
                ? .swapped(fileKeyID: fileKeyID) : .keyIDDiffersFromFileName(fileKeyID: fileKeyID)
        }
        return nil
    }
}
