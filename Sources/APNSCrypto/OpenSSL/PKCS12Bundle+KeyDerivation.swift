internal import COpenSSL

extension PKCS12Bundle {
    /// The first key derivation out of bounds (`ExcessiveKeyDerivation`) among those readable without the
    /// password: the MAC's, and that of every password-based encryption — encrypted authenticated safes, and
    /// shrouded key bags in plain ones (those inside encrypted safes are `excessiveNestedKeyDerivation`).
    /// Read from the structure alone; nothing is derived. A MAC count too large to read counts as `Int64.max`.
    var excessiveKeyDerivation: ExcessiveKeyDerivation? {
        if hasMAC {
            var iterations: UnsafePointer<ASN1_INTEGER>? = nil
            PKCS12_get0_mac(nil, nil, nil, &iterations, pointer)
            // An absent count is the default, 1.
            if let excess = ExcessiveKeyDerivation.checking(iterations: iterations.map(KeyDerivation.signed) ?? 1) {
                return excess
            }
        }
        defer { OpenSSLError.clearQueue() }
        guard let safes = PKCS12_unpack_authsafes(pointer) else { return nil }
        defer { COpenSSL_sk_PKCS7_pop_free(safes) }
        for index in 0..<COpenSSL_sk_PKCS7_num(safes) {
            guard let safe = COpenSSL_sk_PKCS7_value(safes, index) else { continue }
            switch COpenSSL_PKCS7_type_nid(safe) {
            case NID_pkcs7_encrypted:
                if let algorithm = COpenSSL_PKCS7_encrypted_algorithm(safe),
                    let excess = KeyDerivation.excess(of: algorithm)
                {
                    return excess
                }
            case NID_pkcs7_data:
                guard let bags = PKCS12_unpack_p7data(safe) else { continue }
                defer { COpenSSL_sk_PKCS12_SAFEBAG_pop_free(bags) }
                if let excess = Self.excessiveShroudedKeyDerivation(in: bags) { return excess }
            default:
                continue
            }
        }
        return nil
    }

    /// The same for the shrouded key bags inside the encrypted safes, which only the password opens: each safe
    /// is decrypted (its own derivation already checked by `excessiveKeyDerivation`), its key bags are read,
    /// and nothing else is derived. nil `secret` is the empty password, both ways OpenSSL writes it.
    func excessiveNestedKeyDerivation(_ secret: SecretBytes?) -> ExcessiveKeyDerivation? {
        defer { OpenSSLError.clearQueue() }
        guard let safes = PKCS12_unpack_authsafes(pointer) else { return nil }
        defer { COpenSSL_sk_PKCS7_pop_free(safes) }
        for index in 0..<COpenSSL_sk_PKCS7_num(safes) {
            guard let safe = COpenSSL_sk_PKCS7_value(safes, index), COpenSSL_PKCS7_type_nid(safe) == NID_pkcs7_encrypted
            else { continue }
            let bags: OpaquePointer?
            if let secret {
                bags = secret.withCStringAndLength { pass, length in
                    PKCS12_unpack_p7encdata(safe, pass.assumingMemoryBound(to: CChar.self), length)
                }
            } else {
                bags = PKCS12_unpack_p7encdata(safe, "", 0) ?? PKCS12_unpack_p7encdata(safe, nil, 0)
            }
            guard let bags else { continue }
            defer { COpenSSL_sk_PKCS12_SAFEBAG_pop_free(bags) }
            if let excess = Self.excessiveShroudedKeyDerivation(in: bags) { return excess }
        }
        return nil
    }

    /// The first excessive derivation of the shrouded key bags (PKCS#8 encrypted keys) in a list of safe bags,
    /// nested safe-contents bags included (OpenSSL's parser descends into them too; ASN.1 decoding already
    /// bounds their depth).
    private static func excessiveShroudedKeyDerivation(in bags: OpaquePointer) -> ExcessiveKeyDerivation? {
        for bagIndex in 0..<COpenSSL_sk_PKCS12_SAFEBAG_num(bags) {
            guard let bag = COpenSSL_sk_PKCS12_SAFEBAG_value(bags, bagIndex) else { continue }
            switch PKCS12_SAFEBAG_get_nid(bag) {
            case NID_pkcs8ShroudedKeyBag:
                guard let shrouded = PKCS12_SAFEBAG_get0_pkcs8(bag) else { continue }
                var algorithm: UnsafePointer<X509_ALGOR>? = nil
                X509_SIG_get0(shrouded, &algorithm, nil)
                if let algorithm, let excess = KeyDerivation.excess(of: algorithm) { return excess }
            case NID_safeContentsBag:
                guard let nested = PKCS12_SAFEBAG_get0_safes(bag) else { continue }
                if let excess = excessiveShroudedKeyDerivation(in: nested) { return excess }
            default:
                continue
            }
        }
        return nil
    }
}
