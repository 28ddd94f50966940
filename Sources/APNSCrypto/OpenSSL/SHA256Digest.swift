import APNSCore
internal import COpenSSL

/// SHA-256 of bytes in memory, through OpenSSL's one-shot digest.
enum SHA256Digest {
    /// Lower-case hex of the digest; nil only if OpenSSL refuses (it has no reason to).
    static func hex(_ bytes: [UInt8]) -> String? {
        var md = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBufferPointer { EVP_Digest($0.baseAddress, $0.count, &md, &length, EVP_sha256(), nil) }
        guard ok == 1 else { OpenSSLError.clearQueue(); return nil }
        return Hex.lower(md.prefix(Int(length)))
    }
}
