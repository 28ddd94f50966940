import APNSCore
internal import COpenSSL

/// HMAC-SHA256 under a secret key, through OpenSSL's one-shot `HMAC`. The key stays in `SecretBytes` (wiped
/// when the last owner lets go) and is lent to OpenSSL only for the call.
final class HMACSHA256: Sendable {
    /// The key's length that gives HMAC-SHA256 its full strength (the digest's size).
    static let keyLength = 32
    private let key: SecretBytes

    init(key: SecretBytes) { self.key = key }

    /// Lower-case hex of the HMAC of `bytes`; nil only if OpenSSL refuses (it has no reason to).
    func hex(_ bytes: [UInt8]) -> String? {
        var md = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withCStringAndLength { k, kLength in
            bytes.withUnsafeBufferPointer { HMAC(EVP_sha256(), k, kLength, $0.baseAddress, $0.count, &md, &length) }
        }
        guard result != nil, length == 32 else {
            OpenSSLError.clearQueue()
            return nil
        }
        return Hex.lower(md.prefix(Int(length)))
    }
}
