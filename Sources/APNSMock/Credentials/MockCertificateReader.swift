import APNSCore
import APNSCrypto

/// Reads what the request checks need from a client certificate, with the same Apple-extension parser
/// `apnsctl inspect` uses, so the mock and the client cannot disagree about topics or environments.
enum MockCertificateReader {
    /// `trusted` is the TLS layer's verdict on the chain to the mock's CA.
    static func read(_ certificate: X509Certificate, trusted: Bool) -> PresentedCertificate {
        let info = certificate.info
        return PresentedCertificate(trusted: trusted, topics: info.topics, environments: info.environments)
    }
}
