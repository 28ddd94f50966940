import APNSCore
internal import COpenSSL

/// An owned OpenSSL `EVP_PKEY` holding a private key: the client certificate's key or a `.p8` signing key.
public final class PrivateKey: @unchecked Sendable {
    /// The owned `EVP_PKEY*`.
    let pointer: OpaquePointer

    /// Takes ownership of an `EVP_PKEY*`.
    init(takingOwnership pointer: OpaquePointer) { self.pointer = pointer }

    /// Reads the first private key in PEM text (PKCS#1, PKCS#8, SEC1; encrypted ones need `passphrase`).
    /// Always passes a callback: OpenSSL's default one would prompt on the terminal and hang.
    public convenience init(pem: [UInt8], passphrase: String?) throws(OpenSSLError) {
        let secret = passphrase.map { SecretBytes(Array($0.utf8)) }
        try self.init(pem: pem, secret: secret)
    }

    /// Reads the first private key in PEM text with the passphrase held in `secret` (nil: none).
    convenience init(pem: [UInt8], secret: SecretBytes?) throws(OpenSSLError) {
        if secret == nil, let key = Self.decodeNamedType(pem: pem) {
            self.init(takingOwnership: key)
            return
        }
        let bio = try MemoryBIO(bytes: pem)
        let key: OpaquePointer?
        if let secret {
            key = secret.withCString { PEM_read_bio_PrivateKey(bio.pointer, nil, privateKeyPassphraseCallback, $0) }
        } else {
            key = PEM_read_bio_PrivateKey(bio.pointer, nil, privateKeyPassphraseCallback, nil)
        }
        guard let k = key else { throw OpenSSLError("reading the private key") }
        self.init(takingOwnership: k)
    }

    /// An unencrypted RSA or EC key, decoded as the one type its PEM label or PKCS#8 algorithm names.
    /// OpenSSL 3.0's generic reader first builds a decoder chain over every key type and format (about a
    /// fifteenth of a one-device send); naming the type skips that search. Nil for anything
    /// else (encrypted, another type or label, a decoding failure): the generic reader then reads it or says
    /// why not, so no key it took is refused. The DER copy of the key is wiped before it is freed.
    private static func decodeNamedType(pem: [UInt8]) -> OpaquePointer? {
        guard let bio = try? MemoryBIO(bytes: pem) else { return nil }
        var name: UnsafeMutablePointer<CChar>?
        var header: UnsafeMutablePointer<CChar>?
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard PEM_read_bio(bio.pointer, &name, &header, &data, &length) == 1 else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer {
            COpenSSL_OPENSSL_free(name)
            COpenSSL_OPENSSL_free(header)
            CRYPTO_clear_free(data, length, nil, 0)
        }
        // A header (Proc-Type: 4,ENCRYPTED) means an encrypted traditional key: not for this path.
        guard let name, let header, header.pointee == 0, let data else { return nil }
        let type: Int32
        switch String(cString: name) {
        case "RSA PRIVATE KEY": type = EVP_PKEY_RSA
        case "EC PRIVATE KEY": type = EVP_PKEY_EC
        case "PRIVATE KEY":
            guard let named = pkcs8KeyType(data, length) else { return nil }
            type = named
        default: return nil
        }
        var cursor: UnsafePointer<UInt8>? = UnsafePointer(data)
        guard let key = d2i_PrivateKey(type, nil, &cursor, length) else {
            OpenSSLError.clearQueue()
            return nil
        }
        return key
    }

    /// The key type a PKCS#8 `PrivateKeyInfo` names (RSA or EC), or nil for any other algorithm.
    private static func pkcs8KeyType(_ der: UnsafeMutablePointer<UInt8>, _ length: Int) -> Int32? {
        var cursor: UnsafePointer<UInt8>? = UnsafePointer(der)
        guard let info = d2i_PKCS8_PRIV_KEY_INFO(nil, &cursor, length) else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        var algorithm: OpaquePointer?
        guard PKCS8_pkey_get0(&algorithm, nil, nil, nil, info) == 1 else { return nil }
        switch OBJ_obj2nid(algorithm) {
        case NID_rsaEncryption: return EVP_PKEY_RSA
        case NID_X9_62_id_ecPublicKey: return EVP_PKEY_EC
        default: return nil
        }
    }

    /// Reads an unencrypted DER private key (PKCS#8, or the traditional RSA/EC forms).
    convenience init(der: [UInt8]) throws(OpenSSLError) {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_AutoPrivateKey(nil, &p, buf.count)
        }
        guard let k = parsed else { throw OpenSSLError("parsing a DER private key") }
        self.init(takingOwnership: k)
    }

    /// Whether this key is the private half of `certificate`'s public key.
    public func matches(_ certificate: X509Certificate) -> Bool {
        let ok = X509_check_private_key(certificate.pointer, pointer) == 1
        OpenSSLError.clearQueue()
        return ok
    }

    /// `RSA 2048`, `EC P-256`, …: the wording of `inspect`'s `key_type`.
    public var typeDescription: String { KeyDescription.describe(pointer) }

    /// The public half, as a separate public-only key.
    public var publicKey: PublicKey {
        get throws(OpenSSLError) { try PublicKey(der: KeyDescription.publicDER(pointer)) }
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

/// Names and encodes any `EVP_PKEY` (private or public) the same way, for keys and certificates alike.
enum KeyDescription {
    /// `RSA 2048`, `EC P-256`, `EC P-384`, `Ed25519`, or the OpenSSL type name with its size.
    static func describe(_ key: OpaquePointer) -> String {
        let bits = EVP_PKEY_get_bits(key)
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS: return "RSA \(bits)"
        case EVP_PKEY_EC:
            let group = groupName(key)
            switch group {
            case "prime256v1", "P-256": return "EC P-256"
            case "secp384r1", "P-384": return "EC P-384"
            case "secp521r1", "P-521": return "EC P-521"
            default: return "EC \(group ?? String(bits))"
            }
        case EVP_PKEY_ED25519: return "Ed25519"
        default:
            guard let name = EVP_PKEY_get0_type_name(key) else { return "unknown \(bits)" }
            return "\(String(cString: name)) \(bits)"
        }
    }

    /// Whether `key` is an EC key on P-256 (the only curve APNs accepts for provider tokens).
    static func isP256(_ key: OpaquePointer) -> Bool {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return false }
        let g = groupName(key)
        return g == "prime256v1" || g == "P-256"
    }

    /// The curve's OpenSSL name (`prime256v1`), nil for non-EC keys.
    static func groupName(_ key: OpaquePointer) -> String? {
        var buf = [CChar](repeating: 0, count: 64)
        var len = 0
        guard EVP_PKEY_get_group_name(key, &buf, buf.count, &len) == 1 else {
            OpenSSLError.clearQueue()
            return nil
        }
        return buf.withUnsafeBufferPointer { p in p.baseAddress.map { String(cString: $0) } }
    }

    /// SubjectPublicKeyInfo DER of the public half.
    static func publicDER(_ key: OpaquePointer) throws(OpenSSLError) -> [UInt8] {
        guard let out = DEREncoding.encode({ i2d_PUBKEY(key, $0) }) else { throw OpenSSLError("encoding a public key") }
        return out
    }
}
