internal import COpenSSL

extension TLSFailure {
    /// A server certificate refused for its dates (not yet valid, or expired): with a server that is otherwise
    /// trusted, the usual cause is this machine's clock, not the server or its CA.
    public var isAboutCertificateDates: Bool {
        isVerification(failingWith: [X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_CERT_HAS_EXPIRED])
    }

    /// A server certificate that verified but is for another name than the one connected to: the CA is right, the
    /// name in `--endpoint` is not the certificate's.
    public var isAboutHostName: Bool {
        isVerification(failingWith: [X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH])
    }

    /// The name connected to, for a certificate refused as not for it: read back from the words `TLSConnection`
    /// writes (`… not for NAME)`), so a caller can tell Apple's own host from one given in `--endpoint`.
    public var refusedHostName: String? {
        guard isAboutHostName, case .verification(let reason) = self,
            let start = reason.ranges(of: "not for ").last?.upperBound
        else { return nil }
        let name = reason[start...].prefix { $0 != ")" }
        return name.isEmpty ? nil : String(name)
    }

    private func isVerification(failingWith errors: [Int32]) -> Bool {
        guard case .verification(let reason) = self else { return false }
        return errors.contains { reason.hasPrefix(String(cString: X509_verify_cert_error_string(Int($0)))) }
    }
}
