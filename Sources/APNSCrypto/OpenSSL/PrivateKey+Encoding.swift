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

extension PrivateKey {
    /// An encrypted PKCS#8 key in DER (`openssl pkcs8 -topk8 -outform DER`) as the PEM block the passphrase reader
    /// takes, re-encoded by OpenSSL; nil for any other bytes. Its envelope is written as it was: nothing is
    /// decrypted here.
    static func encryptedPKCS8PEM(der: [UInt8]) -> [UInt8]? {
        let envelope: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509_SIG(nil, &cursor, buffer.count)
        }
        guard let envelope else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer { X509_SIG_free(envelope) }
        guard let bio = try? MemoryBIO(), PEM_write_bio_PKCS8(bio.pointer, envelope) == 1 else {
            OpenSSLError.clearQueue()
            return nil
        }
        return bio.contents
    }
}
