internal import COpenSSL
import APNSCore

/// An owned OpenSSL `EVP_PKEY`: the client certificate's key or a `.p8` signing key.
public final class PrivateKey: @unchecked Sendable {
    /// The owned `EVP_PKEY*`.
    let pointer: OpaquePointer

    /// Takes ownership of an `EVP_PKEY*`.
    init(takingOwnership pointer: OpaquePointer) { self.pointer = pointer }

    /// Reads the first private key in PEM text (PKCS#1, PKCS#8, SEC1; encrypted ones need `passphrase`).
    /// Always passes a callback: OpenSSL's default one would prompt on the terminal and hang.
    public convenience init(pem: [UInt8], passphrase: String?) throws(OpenSSLError) {
        let bio = try MemoryBIO(bytes: pem)
        let key: OpaquePointer?
        if let pass = passphrase {
            var bytes = Array(pass.utf8CString)
            key = bytes.withUnsafeMutableBytes { raw in
                PEM_read_bio_PrivateKey(bio.pointer, nil, privateKeyPassphraseCallback, raw.baseAddress)
            }
            bytes.withUnsafeMutableBytes { COpenSSL_OPENSSL_cleanse($0.baseAddress, $0.count) }
        } else {
            key = PEM_read_bio_PrivateKey(bio.pointer, nil, privateKeyPassphraseCallback, nil)
        }
        guard let k = key else { throw OpenSSLError("reading the private key") }
        self.init(takingOwnership: k)
    }

    /// Whether this key is the private half of `certificate`'s public key.
    public func matches(_ certificate: X509Certificate) -> Bool {
        let ok = X509_check_private_key(certificate.pointer, pointer) == 1
        OpenSSLError.clearQueue()
        return ok
    }

    deinit { EVP_PKEY_free(pointer) }
}

/// Copies the NUL-terminated passphrase passed as `u`; returns -1 (no passphrase) when there is none,
/// so OpenSSL never falls back to prompting on the terminal.
func privateKeyPassphraseCallback(
    _ buf: UnsafeMutablePointer<CChar>?, _ size: Int32, _ rwflag: Int32, _ u: UnsafeMutableRawPointer?
) -> Int32 {
    guard let buf, let u else { return -1 }
    let pass = u.assumingMemoryBound(to: CChar.self)
    let len = Int(strlen(pass))
    guard len < Int(size) else { return -1 }
    memcpy(buf, pass, len)
    return Int32(len)
}
