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
        return chain.filter {
            let info = $0.info
            return !Self.signsOthers(info) && seen.insert(info.sha256).inserted
        }
    }
    /// The leaf's chain: the CA certificates that signed it, or signed one of those, and so on (an intermediate, a
    /// root; a re-issued or cross-signed copy too), checked by signature as OpenSSL checks an issuer, the leaf's own
    /// issuers first. A CA that signed none of them (an old or unrelated intermediate bundled in) is no part of it.
    /// Without a leaf, or when none of the CAs signed it (names compared in another form), every CA certificate, as
    /// before any was left out.
    public var certificateChain: [X509Certificate] { chainAndUnrelated.chain }

    /// CA certificates in the file that signed neither the leaf nor its chain: left out of it, and said.
    public var unrelatedAuthorities: [X509Certificate] { chainAndUnrelated.unrelated }

    private var chainAndUnrelated: (chain: [X509Certificate], unrelated: [X509Certificate]) {
        // A copy of one CA certificate (a bundle appended to a file that already ends with it) counts once: the chain
        // lists, sends and writes each CA once.
        var seen: Set<String> = []
        let authorities = chain.filter {
            let info = $0.info
            return Self.signsOthers(info) && seen.insert(info.sha256).inserted
        }
        guard let leaf, !authorities.isEmpty else { return (authorities, []) }
        var inChain = [Bool](repeating: false, count: authorities.count)
        var order: [Int] = []
        var frontier = [leaf]
        while !frontier.isEmpty {
            var next: [X509Certificate] = []
            for signed in frontier {
                for (i, ca) in authorities.enumerated() where !inChain[i] && signed.isSigned(by: ca) {
                    inChain[i] = true
                    order.append(i)
                    next.append(ca)
                }
            }
            frontier = next
        }
        guard !order.isEmpty else { return (authorities, []) }
        let unrelated = authorities.indices.filter { !inChain[$0] }.map { authorities[$0] }
        return (order.map { authorities[$0] }, unrelated)
    }

    /// A CA: basicConstraints CA:TRUE, or a self-signed root of the old kind (X.509 v1, with no extensions), which
    /// OpenSSL takes as a trust anchor.
    private static func signsOthers(_ info: CertificateInfo) -> Bool {
        info.isCertificateAuthority || info.subject == info.issuer
    }
}
