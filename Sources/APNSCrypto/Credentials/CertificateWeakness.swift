internal import COpenSSL

/// A certificate this machine's OpenSSL refuses for TLS at its security level (Debian's is 2): a key too small
/// (RSA 1024) or a signature too weak (SHA-1). Apple's push certificates pass; a home-made or very old one may not,
/// and it fails only when a send sets it up, so `inspect` and `doctor` check it too.
public struct CertificateWeakness: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The public key, as `CertificateInfo.keyType` names it (`RSA 1024`).
        case keyTooSmall(key: String)
        /// The signature's digest (`SHA-1`, `MD5`).
        case signatureTooWeak(digest: String)
    }

    public let reason: Reason
    /// The certificate refused.
    public let certificate: CertificateInfo
    /// Whether it is the push certificate itself, not one of its chain.
    public let isLeaf: Bool
    /// The context's security level (`SSL_CTX_get_security_level`).
    public let securityLevel: Int

    /// The weakness `error` reports for `certificate` (OpenSSL's "ee key too small", "ca key too small" or "ca md
    /// too weak"); nil for any other failure.
    init?(_ error: OpenSSLError, certificate: X509Certificate, isLeaf: Bool, in ctx: OpaquePointer) {
        if error.has(reason: SSL_R_EE_KEY_TOO_SMALL) || error.has(reason: SSL_R_CA_KEY_TOO_SMALL) {
            reason = .keyTooSmall(key: certificate.info.keyType)
        } else if error.has(reason: SSL_R_CA_MD_TOO_WEAK) {
            reason = .signatureTooWeak(digest: Self.digestName(of: certificate))
        } else {
            return nil
        }
        self.certificate = certificate.info
        self.isLeaf = isLeaf
        securityLevel = Int(SSL_CTX_get_security_level(ctx))
    }

    /// `SHA-1`, `MD5`: the signature's digest as people write it; `an unknown digest` when OpenSSL names none.
    private static func digestName(of certificate: X509Certificate) -> String {
        var digest: Int32 = 0
        var publicKey: Int32 = 0
        var bits: Int32 = 0
        var flags: UInt32 = 0
        guard X509_get_signature_info(certificate.pointer, &digest, &publicKey, &bits, &flags) == 1,
            digest != NID_undef, let short = OBJ_nid2sn(digest)
        else {
            OpenSSLError.clearQueue()
            return "an unknown digest"
        }
        let name = String(cString: short)
        if name.hasPrefix("SHA"), let digit = name.dropFirst(3).first, digit.isNumber {
            return "SHA-" + name.dropFirst(3)
        }
        return name
    }

    /// `the certificate's key (RSA 1024) is too small for TLS at this machine's OpenSSL security level 2`.
    public var description: String {
        let which =
            isLeaf ? "the certificate" : "the chain certificate \(certificate.commonName ?? certificate.subject)"
        let level = "for TLS at this machine's OpenSSL security level \(securityLevel)"
        switch reason {
        case .keyTooSmall(let key): return "\(which) has a key too small (\(key)) \(level)"
        case .signatureTooWeak(let digest): return "\(which) is signed with \(digest), too weak \(level)"
        }
    }
}
