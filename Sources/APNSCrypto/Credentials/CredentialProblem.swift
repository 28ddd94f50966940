import APNSCore

/// Every way a credential can be unusable, each with a one-line message saying where, what and what to do.
/// The CLI maps `isInputMissing` to exit 66 and everything else to exit 77.
public enum CredentialProblem: Error, Equatable, Sendable {
    case fileMissing(path: String)
    case fileUnreadable(path: String, reason: String)
    case empty(path: String)
    /// Not PEM, not DER: text or bytes that hold no credential at all.
    case notACredential(path: String, detail: String)
    /// Looks like a credential but cannot be decoded (damaged base64, truncated DER, bad structure).
    case corrupt(path: String, detail: String)
    /// Encrypted, and no passphrase could be obtained (no flag, no env, no terminal).
    case passphraseRequired(path: String)
    case wrongPassphrase(path: String)
    /// The user ended the passphrase prompt (Ctrl-D) without typing one.
    case passphraseEntryEnded(path: String)
    /// OpenSSL cannot run an algorithm the file needs (for example legacy RC2 without the legacy provider).
    case unsupportedAlgorithm(path: String, detail: String)
    case noCertificate(path: String)
    case noPrivateKey(path: String)
    case keyDoesNotMatchCertificate(certificatePath: String, keyPath: String)
    case expired(path: String, notAfter: Int64, daysAgo: Int)
    case notYetValid(path: String, notBefore: Int64, daysAhead: Int)
    /// A `.p8` that is not an EC P-256 key; `found` names what it is.
    case notSigningKey(path: String, found: String)
    /// An `--auth-key` PEM that is encrypted: Apple's `.p8` keys never are, and `jwt`/`send` take no
    /// passphrase for them.
    case encryptedSigningKey(path: String)
    case missingKeyID(authKeyPath: String)
    case invalidKeyID(String)
    /// The `<ID>` of `AuthKey_<ID>.p8` is not a key id (and no `--key-id` was given).
    case invalidKeyIDInFileName(path: String, keyID: String)
    case missingTeamID
    case invalidTeamID(String)
    /// `--env` asks for an environment the certificate is not valid for.
    case environmentNotAllowed(path: String, requested: APNSEnvironment, available: [APNSEnvironment])

    /// Whether this is a missing or unreadable input file (exit 66) rather than a bad credential (77).
    public var isInputMissing: Bool {
        switch self {
        case .fileMissing, .fileUnreadable: return true
        default: return false
        }
    }

    private static let passphraseHelp =
        "pass it with --passphrase-file FILE, APNSCTL_PASSPHRASE or --passphrase, or run on a terminal to be asked"

    /// One line: where, what is wrong, what to do.
    public var message: String {
        switch self {
        case .fileMissing(let p):
            return "\(p): no such file; check the path"
        case .fileUnreadable(let p, let r):
            return "\(p): cannot read: \(r)"
        case .empty(let p):
            return "\(p): the file is empty; export the certificate or key again"
        case .notACredential(let p, let d):
            return "\(p): not a certificate, private key or PKCS#12 file (\(d)); pass a .pem, .p12 or .p8 file"
        case .corrupt(let p, let d):
            return "\(p): damaged or truncated (\(d)); export or download the file again"
        case .passphraseRequired(let p):
            return "\(p): encrypted, and no passphrase was given; \(Self.passphraseHelp)"
        case .passphraseEntryEnded(let p):
            return "\(p): the passphrase input ended (Ctrl-D) before a passphrase was typed; run again and type it, "
                + "or pass it with --passphrase-file FILE or APNSCTL_PASSPHRASE"
        case .wrongPassphrase(let p):
            return "\(p): wrong passphrase; check it, and pass it with --passphrase-file FILE or APNSCTL_PASSPHRASE"
        case .unsupportedAlgorithm(let p, let d):
            return "\(p): uses an algorithm OpenSSL cannot run here (\(d)); "
                + "install OpenSSL's legacy provider (legacy.so) or re-export with modern encryption"
        case .noCertificate(let p):
            return "\(p): holds a private key but no certificate; pass the certificate file, with this file as its --key"
        case .noPrivateKey(let p):
            return "\(p): holds a certificate but no private key; pass the key with --key FILE, "
                + "or export the certificate together with its key as .p12"
        case .keyDoesNotMatchCertificate(let c, let k):
            return c == k
                ? "\(c): the private key does not belong to the certificate; export the certificate with its own key"
                : "\(k): the private key does not belong to the certificate in \(c); pass the key made for that certificate"
        case .expired(let p, let t, let days):
            return "\(p): the certificate expired on \(ISO8601.format(epochSeconds: t)) (\(days) days ago); "
                + "create a new push certificate in the Apple Developer portal"
        case .notYetValid(let p, let t, let days):
            return "\(p): the certificate is not valid before \(ISO8601.format(epochSeconds: t)) (in \(days) days); "
                + "check the system clock or wait"
        case .notSigningKey(let p, let found):
            return "\(p): not an APNs signing key (found \(found), need an EC P-256 key in PKCS#8 PEM); "
                + "download the .p8 key from the Apple Developer portal"
        case .encryptedSigningKey(let p):
            return "\(p): the key is encrypted, and Apple's .p8 keys are not; "
                + "decrypt it (openssl pkey -in \(p) -out AuthKey_KEYID.p8) or download the .p8 key again"
        case .invalidKeyIDInFileName(let p, let id):
            return "\(FileSystem.baseName(p)): '\(id)' in the file name is not a key id (10 characters A-Z and 0-9); "
                + "pass --key-id with the key id from the Apple Developer portal"
        case .missingKeyID(let p):
            return "--key-id: missing, and the file name \(FileSystem.baseName(p)) does not carry one "
                + "(AuthKey_<KEYID>.p8); pass --key-id with the 10-character key id"
        case .invalidKeyID(let v):
            return "--key-id: '\(v)' is not a key id; it must be 10 characters A-Z and 0-9, as shown in the Apple Developer portal"
        case .missingTeamID:
            return "--team-id: missing; pass --team-id or set APNSCTL_TEAM_ID to your 10-character team id"
        case .invalidTeamID(let v):
            return "--team-id: '\(v)' is not a team id; it must be 10 characters A-Z and 0-9, as shown in the Apple Developer portal"
        case .environmentNotAllowed(let p, let r, let a):
            let has = a.isEmpty ? "no APNs environment" : a.map(\.rawValue).joined(separator: " and ")
            return "\(p): the certificate is not valid for \(r.rawValue) (it allows \(has)); "
                + "use --env matching the certificate or a certificate for \(r.rawValue)"
        }
    }

    /// Turns a file-system failure while reading `path` into the matching problem.
    init(reading failure: FileSystem.Failure) {
        switch failure {
        case .missing(let p): self = .fileMissing(path: p)
        case .unreadable(let p, let r): self = .fileUnreadable(path: p, reason: r)
        case .isDirectory(let p): self = .fileUnreadable(path: p, reason: "is a directory, not a file")
        case .exists(let p), .cannotCreate(let p, _): self = .fileUnreadable(path: p, reason: failure.message)
        }
    }
}
