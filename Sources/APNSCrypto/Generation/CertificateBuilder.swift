import APNSCore
internal import COpenSSL

/// Assembles one X.509 v3 certificate: random serial, validity, subject, extensions, signature.
/// Used only by `CredentialGenerator`; owns its `X509*` until `sign` hands it to an `X509Certificate`.
final class CertificateBuilder {
    private var pointer: OpaquePointer?
    private let subjectKey: PrivateKey

    /// Starts a certificate for `subjectKey` with `subject` entries (short names: `CN`, `UID`, `OU`, …).
    init(subject: [(String, String)], subjectKey: PrivateKey, notBefore: Int64, notAfter: Int64) throws(OpenSSLError) {
        self.subjectKey = subjectKey
        guard let x = X509_new() else { throw OpenSSLError("allocating a certificate") }
        pointer = x
        guard X509_set_version(x, 2) == 1 else { throw OpenSSLError("setting version 3") }
        try setSerial(x)
        guard ASN1_TIME_set(X509_getm_notBefore(x), time_t(notBefore)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(x), time_t(notAfter)) != nil
        else {
            throw OpenSSLError("setting the validity")
        }
        guard let name = X509_get_subject_name(x) else { throw OpenSSLError("reading the subject") }
        for (field, value) in subject {
            let ok = X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, -1, -1, 0)
            guard ok == 1 else { throw OpenSSLError("adding \(field) to the subject") }
        }
        guard X509_set_pubkey(x, subjectKey.pointer) == 1 else { throw OpenSSLError("setting the public key") }
    }

    private func setSerial(_ x: OpaquePointer) throws(OpenSSLError) {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { throw OpenSSLError("drawing a serial number") }
        bytes[0] = (bytes[0] & 0x7F) | 0x40  // positive, and always 16 bytes long
        guard let bn = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw OpenSSLError("making a serial number") }
        defer { BN_free(bn) }
        guard BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x)) != nil else { throw OpenSSLError("setting the serial") }
    }

    /// Adds a standard extension in OpenSSL's config syntax (`critical,CA:TRUE`, `DNS:localhost,IP:127.0.0.1`).
    /// `issuer` nil means self-signed.
    func addExtension(_ nid: Int32, _ value: String, issuer: X509Certificate?) throws(OpenSSLError) {
        guard let x = pointer else { throw OpenSSLError("certificate already signed") }
        var ctx = X509V3_CTX()
        X509V3_set_ctx(&ctx, issuer?.pointer ?? x, x, nil, nil, 0)
        guard let ext = X509V3_EXT_nconf_nid(nil, &ctx, nid, value) else {
            throw OpenSSLError("making extension \(value)")
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(x, ext, -1) == 1 else { throw OpenSSLError("adding extension \(value)") }
    }

    /// Adds a private extension by dotted OID with DER `value` (Apple's push markers).
    func addExtension(oid: String, value: [UInt8]) throws(OpenSSLError) {
        guard let x = pointer else { throw OpenSSLError("certificate already signed") }
        guard let object = OBJ_txt2obj(oid, 1) else { throw OpenSSLError("parsing OID \(oid)") }
        defer { ASN1_OBJECT_free(object) }
        guard let octets = ASN1_OCTET_STRING_new() else { throw OpenSSLError("allocating an octet string") }
        defer { ASN1_OCTET_STRING_free(octets) }
        guard ASN1_OCTET_STRING_set(octets, value, Int32(value.count)) == 1,
            let ext = X509_EXTENSION_create_by_OBJ(nil, object, 0, octets)
        else {
            throw OpenSSLError("making extension \(oid)")
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(x, ext, -1) == 1 else { throw OpenSSLError("adding extension \(oid)") }
    }

    /// Sets the issuer name, signs with SHA-256 and returns the finished certificate.
    /// `issuer` nil means self-signed with the subject's own key.
    func sign(issuer: X509Certificate?, issuerKey: PrivateKey?) throws(OpenSSLError) -> X509Certificate {
        guard let x = pointer else { throw OpenSSLError("certificate already signed") }
        let issuerName = issuer.map { X509_get_subject_name($0.pointer) } ?? X509_get_subject_name(x)
        guard X509_set_issuer_name(x, issuerName) == 1 else { throw OpenSSLError("setting the issuer") }
        guard X509_sign(x, (issuerKey ?? subjectKey).pointer, EVP_sha256()) > 0 else {
            throw OpenSSLError("signing the certificate")
        }
        pointer = nil
        return X509Certificate(takingOwnership: x)
    }

    deinit { if let pointer { X509_free(pointer) } }
}

/// NIDs of the standard extensions the generator writes.
enum ExtensionID {
    static let basicConstraints = NID_basic_constraints
    static let keyUsage = NID_key_usage
    static let extendedKeyUsage = NID_ext_key_usage
    static let subjectKeyIdentifier = NID_subject_key_identifier
    static let authorityKeyIdentifier = NID_authority_key_identifier
    static let subjectAltName = NID_subject_alt_name
}
