internal import COpenSSL

/// Writing keys out: PKCS#8 PEM (what `.p8` files and `openssl pkey` use), optionally AES-256 encrypted.
extension PrivateKey {
    /// `-----BEGIN PRIVATE KEY-----`, or `-----BEGIN ENCRYPTED PRIVATE KEY-----` (PBES2, AES-256-CBC)
    /// when `passphrase` is given.
    public func pkcs8PEM(passphrase: SecretBytes?) throws(OpenSSLError) -> [UInt8] {
        let bio = try MemoryBIO()
        let ok: Int32
        if let passphrase {
            ok = passphrase.withCStringAndLength { pass, length in
                PEM_write_bio_PKCS8PrivateKey(
                    bio.pointer, pointer, EVP_aes_256_cbc(),
                    pass.assumingMemoryBound(to: CChar.self), length, nil, nil)
            }
        } else {
            ok = PEM_write_bio_PKCS8PrivateKey(bio.pointer, pointer, nil, nil, 0, nil, nil)
        }
        guard ok == 1 else { throw OpenSSLError("writing the private key") }
        return bio.contents
    }
}
