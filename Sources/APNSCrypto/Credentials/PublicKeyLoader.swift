import APNSCore

/// Finds a public key in whatever file the mock's `--auth-key-pub` is given: a `PUBLIC KEY` PEM,
/// a `.p8` private key (its public half), or a certificate.
public enum PublicKeyLoader {
    /// The public key in `path`.
    public static func load(path: String) throws(CredentialProblem) -> PublicKey {
        let bytes = try CredentialLoader.read(.file(path))
        if PEMBlock.looksLikePEM(bytes) {
            let (blocks, _) = PEMBlock.scan(bytes)
            if let block = blocks.first(where: { $0.label == "PUBLIC KEY" }) {
                do { return try PublicKey(pem: block.text) } catch {
                    throw .corrupt(path: path, detail: "the PUBLIC KEY block does not decode")
                }
            }
        } else if let key = try? PublicKey(der: bytes) {
            return key
        }
        let parsed: CredentialLoader.Parsed
        do { parsed = try CredentialLoader.parse(bytes, path: path, passphrase: .none) } catch {
            guard case .passphraseRequired = error else { throw error }
            throw CredentialLoader.signingKeyProblem(needingAPassphrase: bytes, path: path)
        }
        do {
            if let key = parsed.key { return try key.publicKey }
            if let cert = parsed.certificates.first { return try cert.publicKey }
        } catch {
            throw .corrupt(path: path, detail: error.description)
        }
        throw .notACredential(path: path, detail: "no public key, private key or certificate found")
    }
}
