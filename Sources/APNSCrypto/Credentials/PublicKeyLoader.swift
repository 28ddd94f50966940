import APNSCore

/// Finds a public key in whatever file the mock's `--auth-key-pub` is given: a `PUBLIC KEY` PEM,
/// a `.p8` private key (its public half), or a certificate.
public enum PublicKeyLoader {
    /// The public key in `path`: EC P-256, the only kind that verifies an ES256 provider token, so a wrong file (a
    /// push certificate's RSA key) is said to be one instead of every token seeming signed by another key.
    public static func load(path: String) throws(CredentialProblem) -> PublicKey { try load(.file(path)) }

    /// The same, from a file or from PEM text held in memory (a key from `APNSCTL_AUTH_KEY`), named by `input.name`.
    /// `refusingCertificates`: a certificate (with or without its key) is refused as the certificate it is, not
    /// read for its key: a provider token is never signed by a certificate's key, so `jwt --decode` would only say
    /// "signed by another key" of it.
    public static func load(_ input: CredentialInput, refusingCertificates: Bool = false) throws(CredentialProblem)
        -> PublicKey
    {
        let path = input.name
        let (key, source) = try anyKey(input, refusingCertificates: refusingCertificates)
        guard key.isP256 else {
            let kind = key.typeDescription
            // Worded for any flag that reads a verifying key (jwt's --auth-key, the mock's --auth-key-pub): no advice
            // naming one of them.
            throw .notSigningKey(path: path, found: "an \(kind) \(source)")
        }
        return key
    }

    /// The public key in `path`, whatever its kind, and what held it (`public key`, `private key`, `key, from a
    /// certificate`).
    private static func anyKey(_ input: CredentialInput, refusingCertificates: Bool) throws(CredentialProblem) -> (
        PublicKey, String
    ) {
        let path = input.name
        let bytes = try CredentialLoader.read(input)
        if PEMBlock.looksLikePEM(bytes) {
            let (blocks, _) = PEMBlock.scan(bytes)
            if let block = blocks.first(where: { $0.label == "PUBLIC KEY" }) {
                do { return (try PublicKey(pem: block.text), "public key") } catch {
                    throw .corrupt(path: path, detail: "the PUBLIC KEY block does not decode")
                }
            }
        } else if let key = try? PublicKey(der: bytes) {
            return (key, "public key")
        }
        let parsed: CredentialLoader.Parsed
        do { parsed = try CredentialLoader.parse(bytes, path: path, passphrase: .none) } catch {
            guard case .passphraseRequired = error else { throw error }
            throw CredentialLoader.signingKeyProblem(needingAPassphrase: bytes, path: path)
        }
        if refusingCertificates, !parsed.certificates.isEmpty {
            throw .notSigningKey(path: path, found: parsed.key == nil ? "a certificate" : "a certificate and its key")
        }
        do {
            if let key = parsed.key { return (try key.publicKey, "private key") }
            if let cert = parsed.certificates.first { return (try cert.publicKey, "key, from a certificate") }
        } catch {
            throw .corrupt(path: path, detail: error.description)
        }
        throw .notACredential(path: path, detail: "no public key, private key or certificate found")
    }
}
