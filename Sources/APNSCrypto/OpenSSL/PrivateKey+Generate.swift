internal import COpenSSL

/// Which kind of key to generate: RSA for realism (Apple's push certificates use RSA 2048),
/// EC P-256 where speed matters (tests, `.p8` keys).
public enum KeyAlgorithm: Sendable, Equatable {
    case rsa(bits: Int)
    case ecP256
}

extension PrivateKey {
    /// A fresh key from OpenSSL's random generator.
    public static func generate(_ algorithm: KeyAlgorithm) throws(OpenSSLError) -> PrivateKey {
        let name = algorithm == .ecP256 ? "EC" : "RSA"
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, name, nil) else {
            throw OpenSSLError("creating a key generator")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_keygen_init(ctx) == 1 else { throw OpenSSLError("starting key generation") }
        switch algorithm {
        case .ecP256:
            guard EVP_PKEY_CTX_set_group_name(ctx, "P-256") == 1 else { throw OpenSSLError("choosing curve P-256") }
        case .rsa(let bits):
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, Int32(bits)) == 1 else {
                throw OpenSSLError("choosing RSA \(bits)")
            }
        }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_generate(ctx, &key) == 1, let k = key else { throw OpenSSLError("generating a key") }
        return PrivateKey(takingOwnership: k)
    }
}
