internal import COpenSSL

/// A password-based key derivation a file asks for that apnsctl will not run (CLI.md, "Exit codes"): PBKDF2
/// or PKCS#12-KDF with more than 10,000,000 iterations, or scrypt needing more than 32 MiB or N·r·p above
/// 2^24. Exporters stay far below (2,048 to 600,000 iterations; scrypt N=16384, r=8, p=1: 16 MiB, 2^17); a
/// file above would keep OpenSSL busy for minutes, or take the memory, before any passphrase is known wrong.
public enum ExcessiveKeyDerivation: Equatable, Sendable {
    /// PBKDF2 or PKCS#12-KDF rounds (`Int64.max`: too large to read).
    case iterations(Int64)
    /// scrypt's cost, block size and parallelization (`UInt64.max`: too large to read).
    case scrypt(n: UInt64, r: UInt64, p: UInt64)

    public static let maximumIterations: Int64 = 10_000_000
    /// The most OpenSSL's PKCS#8 and PKCS#12 decryption lets scrypt take (its `SCRYPT_MAX_MEM`, which those
    /// callers cannot raise): a file needing more is refused by OpenSSL as if its passphrase were wrong.
    public static let maximumScryptBytes: UInt64 = 32 << 20
    public static let maximumScryptWork: UInt64 = 1 << 24

    /// The memory OpenSSL's scrypt allocates, 128·r·(N + p + 2) bytes (its B and V arrays); `UInt64.max` on
    /// overflow.
    public static func scryptBytes(n: UInt64, r: UInt64, p: UInt64) -> UInt64 {
        let (sum, o1) = n.addingReportingOverflow(p)
        let (elements, o2) = sum.addingReportingOverflow(2)
        let (perBlock, o3) = r.multipliedReportingOverflow(by: 128)
        let (total, o4) = perBlock.multipliedReportingOverflow(by: elements)
        return o1 || o2 || o3 || o4 ? UInt64.max : total
    }

    /// N·r·p, the number of block mixes scrypt runs; `UInt64.max` on overflow.
    public static func scryptWork(n: UInt64, r: UInt64, p: UInt64) -> UInt64 {
        let (nr, o1) = n.multipliedReportingOverflow(by: r)
        let (nrp, o2) = nr.multipliedReportingOverflow(by: p)
        return o1 || o2 ? UInt64.max : nrp
    }

    /// The excess of an iteration count; nil within the bound.
    static func checking(iterations: Int64) -> ExcessiveKeyDerivation? {
        iterations > maximumIterations ? .iterations(iterations) : nil
    }

    /// The excess of scrypt parameters; nil within both bounds.
    static func checking(n: UInt64, r: UInt64, p: UInt64) -> ExcessiveKeyDerivation? {
        scryptBytes(n: n, r: r, p: p) > maximumScryptBytes || scryptWork(n: n, r: r, p: p) > maximumScryptWork
            ? .scrypt(n: n, r: r, p: p) : nil
    }
}

/// Reads the key-derivation parameters of password-based encryption algorithm identifiers from the structure
/// alone, with OpenSSL's own ASN.1 templates (the ones its derivation decodes them with), so no derivation
/// runs and no parameter set OpenSSL would act on is read differently here.
enum KeyDerivation {
    /// The excess of a PBES1/PKCS#12 PBE (`PBEParameter`) or PBES2 (PBKDF2 or scrypt) algorithm identifier;
    /// nil within bounds and for anything else (which derives no key from a password). Parameters OpenSSL
    /// cannot decode are nil too: its derivation fails on them before any work.
    static func excess(of algorithm: UnsafePointer<X509_ALGOR>) -> ExcessiveKeyDerivation? {
        guard let (nid, der) = parameters(of: algorithm) else { return nil }
        if nid == NID_pbes2 {
            guard let pbes2 = decode(der, d2i_PBE2PARAM) else { return nil }
            defer { PBE2PARAM_free(pbes2) }
            guard let function = pbes2.pointee.keyfunc, let (functionNID, functionDER) = parameters(of: function) else {
                return nil
            }
            switch functionNID {
            case NID_id_pbkdf2:
                guard let pbkdf2 = decode(functionDER, d2i_PBKDF2PARAM) else { return nil }
                defer { PBKDF2PARAM_free(pbkdf2) }
                return ExcessiveKeyDerivation.checking(
                    iterations: pbkdf2.pointee.iter.map { signed(UnsafePointer($0)) } ?? 1)
            case NID_id_scrypt:
                guard let scrypt = decode(functionDER, d2i_SCRYPT_PARAMS) else { return nil }
                defer { SCRYPT_PARAMS_free(scrypt) }
                let n = unsigned(scrypt.pointee.costParameter)
                let r = unsigned(scrypt.pointee.blockSize)
                let p = unsigned(scrypt.pointee.parallelizationParameter)
                return ExcessiveKeyDerivation.checking(n: n, r: r, p: p)
            default:
                return nil
            }
        }
        guard let pbes1 = decode(der, d2i_PBEPARAM) else { return nil }
        defer { PBEPARAM_free(pbes1) }
        return ExcessiveKeyDerivation.checking(iterations: pbes1.pointee.iter.map { signed(UnsafePointer($0)) } ?? 1)
    }

    /// The excess of the encryption of a PEM `ENCRYPTED PRIVATE KEY` block (PKCS#8 `EncryptedPrivateKeyInfo`);
    /// nil within bounds or when the block does not decode (the key reader then says why).
    static func excess(encryptedPKCS8PEM pem: [UInt8]) -> ExcessiveKeyDerivation? {
        defer { OpenSSLError.clearQueue() }
        guard let bio = try? MemoryBIO(bytes: pem),
            // The callback answers "no passphrase": a Proc-Type header here must not make OpenSSL prompt.
            let signature = PEM_read_bio_PKCS8(bio.pointer, nil, privateKeyPassphraseCallback, nil)
        else { return nil }
        defer { X509_SIG_free(signature) }
        var algorithm: UnsafePointer<X509_ALGOR>? = nil
        X509_SIG_get0(signature, &algorithm, nil)
        return algorithm.flatMap(excess(of:))
    }

    /// The algorithm's NID and the DER of its SEQUENCE parameters; nil when it has none.
    private static func parameters(of algorithm: UnsafePointer<X509_ALGOR>) -> (Int32, [UInt8])? {
        var object: OpaquePointer? = nil
        var type: Int32 = 0
        var parameter: UnsafeRawPointer? = nil
        X509_ALGOR_get0(&object, &type, &parameter, algorithm)
        guard type == V_ASN1_SEQUENCE, let parameter else { return nil }
        let sequence = parameter.assumingMemoryBound(to: ASN1_STRING.self)
        guard let data = ASN1_STRING_get0_data(sequence) else { return nil }
        return (OBJ_obj2nid(object), Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(sequence)))))
    }

    /// `d2i_X` on `der`, the pointer never leaving the closure.
    private static func decode<T>(
        _ der: [UInt8],
        _ d2i: (UnsafeMutablePointer<UnsafeMutablePointer<T>?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) ->
            UnsafeMutablePointer<T>?
    )
        -> UnsafeMutablePointer<T>?
    {
        der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i(nil, &cursor, buffer.count)
        }
    }

    /// An iteration count as Int64, read as OpenSSL's PBKDF2 and PKCS#12-KDF read it: negative counts are 0,
    /// counts beyond Int64 are `Int64.max`.
    static func signed(_ integer: UnsafePointer<ASN1_INTEGER>) -> Int64 {
        var out: Int64 = 0
        guard ASN1_INTEGER_get_int64(&out, integer) == 1 else { return Int64.max }
        return max(out, 0)
    }

    /// An scrypt parameter as OpenSSL reads it (`ASN1_INTEGER_get_uint64`); absent, negative or beyond UInt64
    /// counts as `UInt64.max`, so it is refused here rather than guessed at.
    private static func unsigned(_ integer: UnsafeMutablePointer<ASN1_INTEGER>?) -> UInt64 {
        var out: UInt64 = 0
        guard let integer, ASN1_INTEGER_get_uint64(&out, integer) == 1 else { return UInt64.max }
        return out
    }
}
