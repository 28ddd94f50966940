internal import COpenSSL

/// How a written PKCS#12 file is encrypted.
public enum PKCS12Encryption: Sendable {
    /// OpenSSL 3's default: PBES2 / PBKDF2 / AES-256-CBC, SHA-256 MAC.
    case modern
    /// What older macOS keychains write and read: certificates under RC2-40, key under 3DES, SHA-1 MAC.
    case legacy
    /// Certificates and key under 3DES, SHA-1 MAC (readable without the legacy provider).
    case tripleDES
}

/// An owned OpenSSL `PKCS12` structure: parse a `.p12`/`.pfx`, or build one.
final class PKCS12Bundle {
    let pointer: OpaquePointer

    /// Decodes DER; fails on anything that is not a complete PKCS#12 structure.
    init(der: [UInt8]) throws(OpenSSLError) {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_PKCS12(nil, &p, buf.count)
        }
        guard let p = parsed else { throw OpenSSLError("parsing PKCS#12") }
        pointer = p
    }

    /// Whether the file carries an integrity MAC (almost all do; `-nomac` files do not).
    var hasMAC: Bool { PKCS12_mac_present(pointer) == 1 }

    /// Whether `secret` is the password the MAC was made with. nil tries the empty password both ways
    /// OpenSSL writes it (empty string and absent), as `openssl pkcs12` does.
    func verifyMAC(_ secret: SecretBytes?) -> Bool {
        defer { OpenSSLError.clearQueue() }
        if let secret {
            return secret.withCStringAndLength {
                PKCS12_verify_mac(pointer, $0.assumingMemoryBound(to: CChar.self), $1)
            } == 1
        }
        return PKCS12_verify_mac(pointer, "", 0) == 1 || PKCS12_verify_mac(pointer, nil, 0) == 1
    }

    /// Adds a MAC made with `secret` to a file that has none (`-nomac`), because OpenSSL 3.0's
    /// `PKCS12_parse` refuses a non-empty password without a MAC to check it against.
    func addMAC(_ secret: SecretBytes) -> Bool {
        defer { OpenSSLError.clearQueue() }
        return secret.withCStringAndLength { pass, length in
            PKCS12_set_mac(pointer, pass.assumingMemoryBound(to: CChar.self), length, nil, 0, 2048, EVP_sha256())
        } == 1
    }

    /// The key, the certificate OpenSSL pairs with it, and every other certificate, decrypted with `secret`
    /// (nil: the empty password).
    func parse(_ secret: SecretBytes?) throws(OpenSSLError) -> (key: PrivateKey?, certificates: [X509Certificate]) {
        var key: OpaquePointer? = nil
        var cert: OpaquePointer? = nil
        var others: OpaquePointer? = nil
        var ok: Int32
        if let secret {
            ok = secret.withCStringAndLength { pass, _ in
                PKCS12_parse(pointer, pass.assumingMemoryBound(to: CChar.self), &key, &cert, &others)
            }
        } else {
            ok = PKCS12_parse(pointer, "", &key, &cert, &others)
            if ok != 1 {
                OpenSSLError.clearQueue()
                ok = PKCS12_parse(pointer, nil, &key, &cert, &others)
            }
        }
        guard ok == 1 else { throw OpenSSLError("decrypting PKCS#12") }
        var certificates: [X509Certificate] = []
        if let cert { certificates.append(X509Certificate(takingOwnership: cert)) }
        if let others {
            while let x = COpenSSL_sk_X509_shift(others) { certificates.append(X509Certificate(takingOwnership: x)) }
            COpenSSL_sk_X509_free(others)
        }
        return (key.map(PrivateKey.init(takingOwnership:)), certificates)
    }

    /// DER of a new PKCS#12 holding `key`, `certificate` and `chain`, under `password` (may be empty).
    static func encode(
        key: PrivateKey, certificate: X509Certificate, chain: [X509Certificate],
        password: SecretBytes, encryption: PKCS12Encryption, friendlyName: String?
    ) throws(OpenSSLError) -> [UInt8] {
        if encryption == .legacy { try OpenSSLProviders.loadLegacy() }
        guard let stack = COpenSSL_sk_X509_new_null() else { throw OpenSSLError("allocating a certificate list") }
        defer { COpenSSL_sk_X509_pop_free(stack) }
        for c in chain {
            let retained = c.retainedPointer()
            if COpenSSL_sk_X509_push(stack, retained) == 0 {
                X509_free(retained)
                throw OpenSSLError("collecting the chain")
            }
        }
        let (certNID, keyNID, iterations): (Int32, Int32, Int32) =
            switch encryption {
            case .modern: (0, 0, 2048)
            case .legacy: (NID_pbe_WithSHA1And40BitRC2_CBC, NID_pbe_WithSHA1And3_Key_TripleDES_CBC, 2048)
            case .tripleDES: (NID_pbe_WithSHA1And3_Key_TripleDES_CBC, NID_pbe_WithSHA1And3_Key_TripleDES_CBC, 2048)
            }
        let made: OpaquePointer? = password.withCStringAndLength { pass, _ in
            let p = pass.assumingMemoryBound(to: CChar.self)
            // mac_iter -1: no MAC yet; it is added below with the digest each encryption calls for.
            // Argument order: key encryption first, then certificate encryption.
            return PKCS12_create(
                p, friendlyName, key.pointer, certificate.pointer, stack,
                keyNID, certNID, iterations, -1, 0)
        }
        guard let p12 = made else { throw OpenSSLError("building PKCS#12") }
        defer { PKCS12_free(p12) }
        let digest = encryption == .modern ? EVP_sha256() : EVP_sha1()
        let macOK = password.withCStringAndLength { pass, length in
            PKCS12_set_mac(p12, pass.assumingMemoryBound(to: CChar.self), length, nil, 0, iterations, digest)
        }
        guard macOK == 1 else { throw OpenSSLError("adding the PKCS#12 MAC") }
        guard let out = DEREncoding.encode({ i2d_PKCS12(p12, $0) }) else { throw OpenSSLError("encoding PKCS#12") }
        return out
    }

    deinit { PKCS12_free(pointer) }
}
