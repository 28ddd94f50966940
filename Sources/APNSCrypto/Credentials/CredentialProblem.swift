import APNSCore
import APNSPlatform

/// Every way a credential can be unusable, with the facts (file, dates, what was found). The CLI phrases
/// each as one line naming its own flags (`apnsctl`'s `CredentialProblem+Message.swift`), maps
/// `isInputMissing` to exit 66 and everything else to exit 77.
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
    /// The file that should hold the passphrase (`PassphraseSource.filePath`) could not be read.
    case passphraseFileUnreadable(path: String, failure: FileSystem.Failure)
    case wrongPassphrase(path: String)
    /// The user ended the passphrase prompt (Ctrl-D) without typing one.
    case passphraseEntryEnded(path: String)
    /// OpenSSL cannot run an algorithm the file needs (for example legacy RC2 without the legacy provider).
    case unsupportedAlgorithm(path: String, detail: String)
    /// A PKCS#12 file (`inPKCS12`) or an encrypted PEM key asking for a key derivation out of bounds; refused
    /// before any derivation and before asking for a passphrase.
    case excessiveKeyDerivation(path: String, ExcessiveKeyDerivation, inPKCS12: Bool)
    case noCertificate(path: String)
    /// A `.p12` holding a private key alone (a Keychain export of the key, not of the certificate).
    case keyOnlyPKCS12(path: String)
    /// A `.p8` provider-token signing key given where a certificate or its key belongs (`--cert`, `--key`,
    /// `convert`): it is used as it is, with `--auth-key`.
    case tokenSigningKeyNotCertificate(path: String)
    case noPrivateKey(path: String)
    /// A CA or TLS server certificate, without a key, given as the push certificate (`--cert ca.pem` for
    /// `--ca-file ca.pem`): no key would make it one.
    case notAClientCertificate(path: String, certificate: CertificateInfo)
    /// The key's file (`path`) holds certificates and no key; `swapped`: the certificate's file holds a key and no
    /// certificate, so the two files were given the other way round.
    case keyFileHoldsCertificate(path: String, certificatePath: String, swapped: Bool)
    case keyDoesNotMatchCertificate(certificatePath: String, keyPath: String)
    case expired(path: String, notAfter: Int64, daysAgo: Int)
    case notYetValid(path: String, notBefore: Int64, daysAhead: Int)
    /// The certificate, or one of its chain, is refused for TLS by this machine's OpenSSL security level.
    case tooWeak(path: String, CertificateWeakness)
    /// A `.p8` that is not an EC P-256 key; `found` names what it is.
    case notSigningKey(path: String, found: String)

    /// `notSigningKey`'s `found` for a public key where the signing key belongs (the CLI says what takes one).
    public static let publicKeyFound = "a public key, which signs nothing"
    /// `notSigningKey`'s `found` for a `.p12` that shows a private key and no certificate (a key exported alone).
    public static let keyOnlyPKCS12Found = "a PKCS#12 (.p12) file holding a private key alone, with no certificate"
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

    /// The file (or input name) the problem is about, where it is about one: the name a message starts with.
    public var path: String? {
        switch self {
        case .fileMissing(let p), .fileUnreadable(let p, _), .empty(let p), .notACredential(let p, _),
            .corrupt(let p, _),
            .passphraseRequired(let p), .wrongPassphrase(let p), .passphraseEntryEnded(let p),
            .unsupportedAlgorithm(let p, _), .excessiveKeyDerivation(let p, _, _), .noCertificate(let p),
            .keyOnlyPKCS12(let p),
            .tokenSigningKeyNotCertificate(let p), .noPrivateKey(let p), .notAClientCertificate(let p, _),
            .keyFileHoldsCertificate(let p, _, _), .expired(let p, _, _), .notYetValid(let p, _, _), .tooWeak(let p, _),
            .notSigningKey(let p, _), .encryptedSigningKey(let p), .environmentNotAllowed(let p, _, _):
            return p
        case .keyDoesNotMatchCertificate(_, let k): return k
        case .passphraseFileUnreadable, .missingKeyID, .invalidKeyID, .invalidKeyIDInFileName, .missingTeamID,
            .invalidTeamID:
            return nil
        }
    }

    /// Whether this is a missing or unreadable input file (exit 66) rather than a bad credential (77).
    public var isInputMissing: Bool {
        switch self {
        case .fileMissing, .fileUnreadable, .passphraseFileUnreadable: return true
        default: return false
        }
    }

    /// Turns a file-system failure while reading a credential into the matching problem.
    public init(reading failure: FileSystem.Failure) {
        switch failure {
        case .missing(let p): self = .fileMissing(path: p)
        case .unreadable(let p, let r): self = .fileUnreadable(path: p, reason: r)
        case .isDirectory(let p):
            self = .fileUnreadable(
                path: p,
                reason: "is a directory, not a file; give the credential file in it (a .p12, .pem, .cer or .p8)")
        case .tooLarge(let p, let limit):
            self = .fileUnreadable(path: p, reason: FileSystem.Failure.overLimitReason(limit))
        case .exists(let p), .cannotCreate(let p, _), .notARegularFile(let p, _), .writeFailed(let p, _),
            .interrupted(let p):
            self = .fileUnreadable(path: p, reason: failure.message)
        }
    }
}
