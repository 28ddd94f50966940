/// What a credential file turned out to hold, before any judgement: `inspect` shows this as is, and
/// `CredentialLoader.loadIdentity` demands a certificate with a matching key from it.
public struct CredentialContents: Sendable {
    /// How the file was encoded, by content.
    public enum Kind: String, Sendable {
        /// PEM or DER certificate(s), maybe with a key.
        case certificate
        /// A `.p12`/`.pfx`.
        case pkcs12
        /// A lone EC P-256 private key: a `.p8` provider-token signing key.
        case authKey = "auth-key"
    }

    public let kind: Kind
    /// The certificate the key belongs to, else the first Apple push certificate, else the first one.
    public let leaf: X509Certificate?
    /// Every other certificate, in file order.
    public let chain: [X509Certificate]
    public let privateKey: PrivateKey?
    /// Where the key came from (the certificate file, or `--key`).
    public let keyPath: String?
    /// nil without a key or certificate; else whether the key is the leaf's.
    public let keyMatches: Bool?
    /// Whether the file opened only with a passphrase (an encrypted PEM key, a `.p12` whose password is not empty).
    public let neededPassphrase: Bool
    /// The certificate file was bare DER (`aps.cer`), not PEM: curl needs `--cert-type DER`.
    public var certificateIsDER = false
    /// The key's file was bare DER: curl needs `--key-type DER`.
    public var keyIsDER = false

    /// Other certificates of their own beside the leaf, no CA's (a Keychain export of several items keeps one key:
    /// another app's push certificate, a code-signing one): not the leaf's chain, so never sent or written as one.
    /// A copy of the leaf, or of one another, is counted once.
    public var otherCertificates: [X509Certificate] {
        var seen: Set<String> = [leaf?.info.sha256 ?? ""]
        return chain.filter { !Self.signsOthers($0) && seen.insert($0.info.sha256).inserted }
    }
    /// The leaf's chain: the CA certificates that issued it, its issuer's issuer and so on (intermediates, a root),
    /// found by name; a CA that issued none of them (an old or unrelated intermediate bundled in) is no part of it.
    /// Without a leaf, every CA certificate.
    public var certificateChain: [X509Certificate] {
        let authorities = chain.filter(Self.signsOthers)
        guard let leaf else { return authorities }
        var path: [X509Certificate] = []
        var seen: Set<String> = [leaf.info.sha256]
        var current = leaf.info
        while current.subject != current.issuer,
            let next = authorities.first(where: { $0.info.subject == current.issuer && !seen.contains($0.info.sha256) })
        {
            path.append(next)
            seen.insert(next.info.sha256)
            current = next.info
        }
        return path
    }

    /// CA certificates in the file that issued neither the leaf nor its chain: left out of it, and said.
    public var unrelatedAuthorities: [X509Certificate] {
        guard leaf != nil else { return [] }
        let used = Set(certificateChain.map(\.info.sha256))
        var seen = used
        return chain.filter { Self.signsOthers($0) && seen.insert($0.info.sha256).inserted }
    }

    /// A CA: basicConstraints CA:TRUE, or a self-signed root of the old kind (X.509 v1, with no extensions), which
    /// OpenSSL takes as a trust anchor.
    private static func signsOthers(_ c: X509Certificate) -> Bool {
        c.info.isCertificateAuthority || c.info.subject == c.info.issuer
    }
}
