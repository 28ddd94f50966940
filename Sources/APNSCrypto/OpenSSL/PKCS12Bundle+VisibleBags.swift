internal import COpenSSL

extension PKCS12Bundle {
    /// Whether the file shows, without its password, that it holds a private key and no certificate (a key
    /// exported alone): every safe is unencrypted, so every bag's kind can be read, and there is a key bag and no
    /// certificate bag. A safe encrypted with the password (where exports put certificates) hides its bags: false.
    var visiblyHoldsOnlyAKey: Bool {
        defer { OpenSSLError.clearQueue() }
        guard let safes = PKCS12_unpack_authsafes(pointer) else { return false }
        defer { COpenSSL_sk_PKCS7_pop_free(safes) }
        var kinds = BagKinds()
        for index in 0..<COpenSSL_sk_PKCS7_num(safes) {
            guard let safe = COpenSSL_sk_PKCS7_value(safes, index), COpenSSL_PKCS7_type_nid(safe) == NID_pkcs7_data,
                let bags = PKCS12_unpack_p7data(safe)
            else { return false }
            defer { COpenSSL_sk_PKCS12_SAFEBAG_pop_free(bags) }
            Self.note(bags, in: &kinds)
        }
        return kinds.key && !kinds.certificate
    }

    private struct BagKinds {
        var key = false
        var certificate = false
    }

    /// The kinds of bag in a list, nested safe-contents bags included (ASN.1 decoding already bounds their depth).
    private static func note(_ bags: OpaquePointer, in kinds: inout BagKinds) {
        for index in 0..<COpenSSL_sk_PKCS12_SAFEBAG_num(bags) {
            guard let bag = COpenSSL_sk_PKCS12_SAFEBAG_value(bags, index) else { continue }
            switch PKCS12_SAFEBAG_get_nid(bag) {
            case NID_keyBag, NID_pkcs8ShroudedKeyBag: kinds.key = true
            case NID_certBag: kinds.certificate = true
            case NID_safeContentsBag:
                if let nested = PKCS12_SAFEBAG_get0_safes(bag) { note(nested, in: &kinds) }
            default: continue
            }
        }
    }
}
