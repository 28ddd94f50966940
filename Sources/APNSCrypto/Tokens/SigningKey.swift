import APNSCore
import APNSPlatform
internal import COpenSSL

/// A `.p8` provider-token key (EC P-256): signs JWTs as ES256 with a raw 64-byte `r||s` signature.
public final class SigningKey: Sendable {
    /// The key itself (also what the generator writes out as `.p8`).
    public let privateKey: PrivateKey
    /// The `<ID>` of `AuthKey_<ID>.p8` or `APNsAuthKey_<ID>.p8`, unchecked; nil for other names.
    public let keyIDFromFileName: String?

    /// Wraps an EC P-256 key (callers check the curve: `CredentialLoader.loadSigningKey` does).
    init(key: PrivateKey, keyIDFromFileName: String?) {
        privateKey = key
        self.keyIDFromFileName = keyIDFromFileName
    }

    /// The key id in a file name: `AuthKey_ABCDE12345.p8` and Apple's older `APNsAuthKey_ABCDE12345.p8`.
    public static func keyID(fromFileName path: String) -> String? {
        // The text up to the first dot: no key id holds one, and `.P8`, `.p8.txt` (a browser's) or `.pem` (renamed)
        // all end the same id.
        keyID(fromFileNamePrefix: path)
    }

    /// A key id as a second download names it: browsers and the Finder save `AuthKey_ABCDE12345.p8` again as
    /// `AuthKey_ABCDE12345 (1).p8`, `AuthKey_ABCDE12345-1.p8` or `AuthKey_ABCDE12345 copy.p8`; the key id is the
    /// ten characters before the mark. Anything else is left as it is, for the caller to judge.
    static func withoutCopyMark(_ text: Substring) -> Substring {
        let id = text.prefix(10)
        guard id.count == 10, id.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) else {
            return text
        }
        let mark = text.dropFirst(10)
        let isNumber: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
        if mark.hasPrefix(" (") && mark.hasSuffix(")") && isNumber(mark.dropFirst(2).dropLast()) { return id }
        if mark.hasPrefix("-") && isNumber(mark.dropFirst()) { return id }
        if mark == " copy" || (mark.hasPrefix(" copy ") && isNumber(mark.dropFirst(6))) { return id }
        return text
    }

    /// Whether a file is named as Apple names `.p8` signing keys: `AuthKey_ABCDE12345.p8`, `APNsAuthKey_….p8`,
    /// or any `….p8`.
    public static func isNamedAsSigningKey(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".p8") || keyID(fromFileNamePrefix: path) != nil
    }

    /// The key id at the start of a file name, whatever follows it: `AuthKey_ABCDE12345.pub.pem`,
    /// `AuthKey_ABCDE12345.p8` and `APNsAuthKey_ABCDE12345.cer` all give `ABCDE12345` (the text up to the first
    /// dot, unchecked). For public keys and certificates, which users name after the `.p8` they came from.
    public static func keyID(fromFileNamePrefix path: String) -> String? {
        let name = FileSystem.baseName(path)
        for prefix in ["AuthKey_", "APNsAuthKey_"] where name.hasPrefix(prefix) {
            let id = name.dropFirst(prefix.count).prefix { $0 != "." }
            return id.isEmpty ? nil : String(withoutCopyMark(id))
        }
        return nil
    }

    /// The public half, for verifiers.
    public var publicKey: PublicKey {
        get throws(OpenSSLError) { try privateKey.publicKey }
    }

    /// ECDSA P-256 over SHA-256 of `bytes`, as JWS wants it: `r` and `s` left-padded to 32 bytes each.
    public func sign(_ bytes: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        guard let ctx = EVP_MD_CTX_new() else { throw OpenSSLError("allocating a digest context") }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestSignInit(ctx, nil, EVP_sha256(), nil, privateKey.pointer) == 1 else {
            throw OpenSSLError("starting an ES256 signature")
        }
        var length = 0
        let sized = bytes.withUnsafeBufferPointer { EVP_DigestSign(ctx, nil, &length, $0.baseAddress, $0.count) }
        guard sized == 1, length > 0 else { throw OpenSSLError("sizing an ES256 signature") }
        var der = [UInt8](repeating: 0, count: length)
        let signed = der.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { EVP_DigestSign(ctx, out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard signed == 1 else { throw OpenSSLError("making an ES256 signature") }
        return try ECDSASignature.raw(fromDER: Array(der.prefix(length)))
    }
}

/// Converts ECDSA P-256 signatures between DER `SEQUENCE{r,s}` (OpenSSL) and raw `r||s` (JWS).
enum ECDSASignature {
    /// 64 bytes `r||s` from DER; `BN_bn2binpad` keeps leading zero bytes that `BN_bn2bin` would drop.
    static func raw(fromDER der: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_ECDSA_SIG(nil, &p, buf.count)
        }
        guard let sig = parsed else { throw OpenSSLError("decoding an ECDSA signature") }
        defer { ECDSA_SIG_free(sig) }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(sig, &r, &s)
        guard let r, let s else { throw OpenSSLError("reading an ECDSA signature") }
        var out = [UInt8](repeating: 0, count: 64)
        let ok = out.withUnsafeMutableBufferPointer { buf -> Bool in
            guard let base = buf.baseAddress else { return false }
            return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
        }
        guard ok else { throw OpenSSLError("encoding an ES256 signature") }
        return out
    }

    /// DER from 64 bytes `r||s`; nil when the input is not 64 bytes.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64, let sig = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(sig) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress.map { $0 + 32 }, 32, nil) }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        guard ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        return DEREncoding.encode { i2d_ECDSA_SIG(sig, $0) }
    }
}
