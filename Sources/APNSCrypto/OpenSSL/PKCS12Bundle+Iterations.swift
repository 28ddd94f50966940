internal import COpenSSL

extension PKCS12Bundle {
    /// The most key-derivation iterations apnsctl runs for one PKCS#12 (CLI.md, "Exit codes"). Exporters use
    /// 2,048 to 600,000; a file asking for more is refused before any derivation, which at a billion rounds
    /// would keep OpenSSL busy for minutes.
    static let maximumIterations: Int64 = 10_000_000

    /// The largest iteration count the file asks for: its MAC's and that of every password-based encryption
    /// readable without the password (encrypted authenticated safes, and shrouded key bags in plain ones; those
    /// inside encrypted safes are `largestNestedIterationCount`).
    /// Read from the structure alone; no key is derived. A count too large to read counts as `Int64.max`.
    var largestIterationCount: Int64 {
        var largest: Int64 = 0
        if hasMAC {
            var iterations: UnsafePointer<ASN1_INTEGER>? = nil
            PKCS12_get0_mac(nil, nil, nil, &iterations, pointer)
            // An absent count is the default, 1.
            largest = iterations.map(Self.value(of:)) ?? 1
        }
        defer { OpenSSLError.clearQueue() }
        guard let safes = PKCS12_unpack_authsafes(pointer) else { return largest }
        defer { COpenSSL_sk_PKCS7_pop_free(safes) }
        for index in 0..<COpenSSL_sk_PKCS7_num(safes) {
            guard let safe = COpenSSL_sk_PKCS7_value(safes, index) else { continue }
            switch COpenSSL_PKCS7_type_nid(safe) {
            case NID_pkcs7_encrypted:
                if let algorithm = COpenSSL_PKCS7_encrypted_algorithm(safe) {
                    largest = max(largest, Self.iterations(of: algorithm))
                }
            case NID_pkcs7_data:
                guard let bags = PKCS12_unpack_p7data(safe) else { continue }
                defer { COpenSSL_sk_PKCS12_SAFEBAG_pop_free(bags) }
                largest = max(largest, Self.largestShroudedIterations(in: bags))
            default:
                continue
            }
        }
        return largest
    }

    /// The largest count of the shrouded key bags inside the encrypted safes, which only the password opens:
    /// each safe is decrypted (its own count already checked by `largestIterationCount`), its key bags are read,
    /// and nothing else is derived. nil `secret` is the empty password, both ways OpenSSL writes it.
    func largestNestedIterationCount(_ secret: SecretBytes?) -> Int64 {
        defer { OpenSSLError.clearQueue() }
        guard let safes = PKCS12_unpack_authsafes(pointer) else { return 0 }
        defer { COpenSSL_sk_PKCS7_pop_free(safes) }
        var largest: Int64 = 0
        for index in 0..<COpenSSL_sk_PKCS7_num(safes) {
            guard let safe = COpenSSL_sk_PKCS7_value(safes, index), COpenSSL_PKCS7_type_nid(safe) == NID_pkcs7_encrypted
            else { continue }
            let bags: OpaquePointer?
            if let secret {
                bags = secret.withCString { pass, length in
                    PKCS12_unpack_p7encdata(safe, pass.assumingMemoryBound(to: CChar.self), length)
                }
            } else {
                bags = PKCS12_unpack_p7encdata(safe, "", 0) ?? PKCS12_unpack_p7encdata(safe, nil, 0)
            }
            guard let bags else { continue }
            defer { COpenSSL_sk_PKCS12_SAFEBAG_pop_free(bags) }
            largest = max(largest, Self.largestShroudedIterations(in: bags))
        }
        return largest
    }

    /// The largest count of the shrouded key bags (PKCS#8 encrypted keys) in a list of safe bags.
    private static func largestShroudedIterations(in bags: OpaquePointer) -> Int64 {
        var largest: Int64 = 0
        for bagIndex in 0..<COpenSSL_sk_PKCS12_SAFEBAG_num(bags) {
            guard let bag = COpenSSL_sk_PKCS12_SAFEBAG_value(bags, bagIndex),
                  PKCS12_SAFEBAG_get_nid(bag) == NID_pkcs8ShroudedKeyBag,
                  let shrouded = PKCS12_SAFEBAG_get0_pkcs8(bag) else { continue }
            var algorithm: UnsafePointer<X509_ALGOR>? = nil
            X509_SIG_get0(shrouded, &algorithm, nil)
            if let algorithm { largest = max(largest, iterations(of: algorithm)) }
        }
        return largest
    }

    /// The iteration count in a PBES1 (`PBEParameter`) or PBES2/PBKDF2 algorithm identifier; 0 for others.
    private static func iterations(of algorithm: UnsafePointer<X509_ALGOR>) -> Int64 {
        var object: OpaquePointer? = nil
        var type: Int32 = 0
        var parameter: UnsafeRawPointer? = nil
        X509_ALGOR_get0(&object, &type, &parameter, algorithm)
        guard type == V_ASN1_SEQUENCE, let parameter else { return 0 }
        let sequence = parameter.assumingMemoryBound(to: ASN1_STRING.self)
        let der = Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(sequence), count: Int(ASN1_STRING_length(sequence))))
        if OBJ_obj2nid(object) == NID_pbes2 {
            guard let pbes2 = decode(der, d2i_PBE2PARAM) else { return Int64.max }
            defer { PBE2PARAM_free(pbes2) }
            guard let function = pbes2.pointee.keyfunc else { return 0 }
            var functionObject: OpaquePointer? = nil
            var functionType: Int32 = 0
            var functionParameter: UnsafeRawPointer? = nil
            X509_ALGOR_get0(&functionObject, &functionType, &functionParameter, function)
            guard OBJ_obj2nid(functionObject) == NID_id_pbkdf2, functionType == V_ASN1_SEQUENCE,
                  let functionParameter else { return 0 }
            let inner = functionParameter.assumingMemoryBound(to: ASN1_STRING.self)
            let innerDER = Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(inner), count: Int(ASN1_STRING_length(inner))))
            guard let pbkdf2 = decode(innerDER, d2i_PBKDF2PARAM) else { return Int64.max }
            defer { PBKDF2PARAM_free(pbkdf2) }
            return pbkdf2.pointee.iter.map { value(of: UnsafePointer($0)) } ?? 1
        }
        guard let pbes1 = decode(der, d2i_PBEPARAM) else { return 0 }
        defer { PBEPARAM_free(pbes1) }
        return pbes1.pointee.iter.map { value(of: UnsafePointer($0)) } ?? 1
    }

    /// `d2i_X` on `der`, the pointer never leaving the closure.
    private static func decode<T>(_ der: [UInt8],
                                  _ d2i: (UnsafeMutablePointer<UnsafeMutablePointer<T>?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> UnsafeMutablePointer<T>?)
        -> UnsafeMutablePointer<T>? {
        der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i(nil, &cursor, buffer.count)
        }
    }

    /// An ASN.1 INTEGER as Int64; negative counts are 0, counts beyond Int64 are `Int64.max`.
    private static func value(of integer: UnsafePointer<ASN1_INTEGER>) -> Int64 {
        var out: Int64 = 0
        guard ASN1_INTEGER_get_int64(&out, integer) == 1 else { return Int64.max }
        return max(out, 0)
    }
}
