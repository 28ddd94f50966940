import APNSCore
internal import COpenSSL

/// Raw field access on a certificate; `CertificateInfo` turns these into the view `inspect` shows.
extension X509Certificate {
    /// One relative distinguished name entry: short name (`CN`, `UID`, `OU`) and UTF-8 value.
    struct NameEntry: Equatable {
        let name: String
        let value: String
    }

    /// Subject entries in certificate order.
    var subjectEntries: [NameEntry] { Self.entries(of: X509_get_subject_name(pointer)) }

    /// Issuer entries in certificate order.
    var issuerEntries: [NameEntry] { Self.entries(of: X509_get_issuer_name(pointer)) }

    private static func entries(of name: OpaquePointer?) -> [NameEntry] {
        guard let name else { return [] }
        var out: [NameEntry] = []
        let count = X509_NAME_entry_count(name)
        guard count > 0 else { return [] }
        for i in 0..<count {
            guard let entry = X509_NAME_get_entry(name, i),
                let object = X509_NAME_ENTRY_get_object(entry),
                let data = X509_NAME_ENTRY_get_data(entry)
            else { continue }
            let nid = OBJ_obj2nid(object)
            var label: String
            if nid != NID_undef, let sn = OBJ_nid2sn(nid) {
                label = String(cString: sn)
            } else {
                var buf = [CChar](repeating: 0, count: 128)
                _ = OBJ_obj2txt(&buf, Int32(buf.count), object, 1)
                label = buf.withUnsafeBufferPointer { p in p.baseAddress.map { String(cString: $0) } ?? "?" }
            }
            if label == "userId" { label = "UID" }
            var utf8: UnsafeMutablePointer<UInt8>? = nil
            let n = ASN1_STRING_to_UTF8(&utf8, data)
            guard n >= 0, let bytes = utf8 else {
                OpenSSLError.clearQueue()
                continue
            }
            let value = String(decoding: UnsafeBufferPointer(start: bytes, count: Int(n)), as: UTF8.self)
            COpenSSL_OPENSSL_free(bytes)
            out.append(NameEntry(name: label, value: value))
        }
        return out
    }

    /// The serial number as uppercase hex without colons (`0` for a zero serial).
    var serialHex: String {
        guard let serial = X509_get0_serialNumber(pointer), let bn = ASN1_INTEGER_to_BN(serial, nil) else {
            OpenSSLError.clearQueue()
            return ""
        }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return "" }
        defer { COpenSSL_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    /// notBefore in seconds since the epoch.
    var notBefore: Int64 { Self.epochSeconds(X509_get0_notBefore(pointer)) }

    /// notAfter in seconds since the epoch.
    var notAfter: Int64 { Self.epochSeconds(X509_get0_notAfter(pointer)) }

    private static func epochSeconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64 {
        var t = tm()
        guard let time, ASN1_TIME_to_tm(time, &t) == 1 else {
            OpenSSLError.clearQueue()
            return 0
        }
        return ISO8601.epochSeconds(
            year: Int64(t.tm_year) + 1900, month: Int64(t.tm_mon) + 1, day: Int64(t.tm_mday),
            hour: Int64(t.tm_hour), minute: Int64(t.tm_min), second: Int64(t.tm_sec))
    }

    /// Lowercase hex SHA-256 of the DER encoding (the fingerprint `openssl x509 -fingerprint -sha256` shows).
    var sha256Hex: String {
        var md = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var len: UInt32 = 0
        guard X509_digest(pointer, EVP_sha256(), &md, &len) == 1 else {
            OpenSSLError.clearQueue()
            return ""
        }
        return Hex.lower(md.prefix(Int(len)))
    }

    /// basicConstraints says CA:TRUE.
    var hasCABasicConstraint: Bool {
        let flags = X509_get_extension_flags(pointer)
        OpenSSLError.clearQueue()
        return flags & UInt32(EXFLAG_CA) != 0
    }

    /// An extended key usage extension is present and names serverAuth (without the extension, any use is
    /// allowed, which says nothing about what the certificate is for).
    var hasServerAuthUsage: Bool {
        let flags = X509_get_extension_flags(pointer)
        let usage = X509_get_extended_key_usage(pointer)
        OpenSSLError.clearQueue()
        return flags & UInt32(EXFLAG_XKUSAGE) != 0 && usage & UInt32(XKU_SSL_SERVER) != 0
    }

    /// Whether the extended key usage allows TLS client authentication (a dual-use certificate of a private CA,
    /// say): such a certificate may be a client's, whatever else it allows.
    var hasClientAuthUsage: Bool {
        let flags = X509_get_extension_flags(pointer)
        let usage = X509_get_extended_key_usage(pointer)
        OpenSSLError.clearQueue()
        return flags & UInt32(EXFLAG_XKUSAGE) != 0 && usage & UInt32(XKU_SSL_CLIENT) != 0
    }

    /// `RSA 2048`, `EC P-256`, … for the certificate's public key.
    var keyTypeDescription: String {
        guard let key = X509_get0_pubkey(pointer) else {
            OpenSSLError.clearQueue()
            return "unknown"
        }
        return KeyDescription.describe(key)
    }

    /// The certificate's public key.
    public var publicKey: PublicKey {
        get throws(OpenSSLError) {
            guard let key = X509_get0_pubkey(pointer) else {
                throw OpenSSLError("reading the certificate's public key")
            }
            return try PublicKey(der: KeyDescription.publicDER(key))
        }
    }

    /// The DER content of the extension with dotted `oid`, or nil when the certificate lacks it.
    func extensionValue(oid: String) -> [UInt8]? {
        guard let object = OBJ_txt2obj(oid, 1) else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(pointer, object, -1)
        guard index >= 0, let ext = X509_get_ext(pointer, index), let data = X509_EXTENSION_get_data(ext) else {
            return nil
        }
        let n = Int(ASN1_STRING_length(data))
        guard n > 0, let bytes = ASN1_STRING_get0_data(data) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: n))
    }

    /// The DNS names and IP addresses the certificate is for (its subjectAltName), in order, at most `limit`: what a
    /// name that did not match should have been.
    public func serverNames(limit: Int = 5) -> [String] {
        guard let value = extensionValue(oid: "2.5.29.17"), let outer = DER.elements(value[...]), outer.count == 1,
            let names = outer[0].children
        else { return [] }
        var out: [String] = []
        for name in names where out.count < limit {
            let bytes = Array(name.content)
            switch name.tag {
            case 0x82:  // dNSName, IA5String
                out.append(String(decoding: bytes.prefix(253), as: UTF8.self))
            case 0x87 where bytes.count == 4:  // iPAddress, IPv4
                out.append(bytes.map(String.init).joined(separator: "."))
            case 0x87 where bytes.count == 16:  // iPAddress, IPv6, uncompressed
                out.append(
                    stride(from: 0, to: 16, by: 2).map { String(Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]), radix: 16) }
                        .joined(separator: ":"))
            default:
                continue
            }
        }
        return out
    }

    /// Whether the certificate was issued by `issuer` and its signature verifies with the issuer's key.
    public func isSigned(by issuer: X509Certificate) -> Bool {
        guard X509_check_issued(issuer.pointer, pointer) == X509_V_OK else {
            OpenSSLError.clearQueue()
            return false
        }
        guard let key = X509_get0_pubkey(issuer.pointer) else {
            OpenSSLError.clearQueue()
            return false
        }
        let ok = X509_verify(pointer, key) == 1
        OpenSSLError.clearQueue()
        return ok
    }
}

/// Hex encoding without Foundation.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Lowercase hex of `bytes`.
    static func lower<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var out: [UInt8] = []
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
