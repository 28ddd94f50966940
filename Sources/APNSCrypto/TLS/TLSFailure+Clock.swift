internal import COpenSSL

extension TLSFailure {
    /// A server certificate refused for its dates (not yet valid, or expired): with a server that is otherwise
    /// trusted, the usual cause is this machine's clock, not the server or its CA.
    public var isAboutCertificateDates: Bool {
        guard case .verification(let reason) = self else { return false }
        return [X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_CERT_HAS_EXPIRED].contains {
            reason.hasPrefix(String(cString: X509_verify_cert_error_string(Int($0))))
        }
    }
}
