@testable import APNSCrypto

extension CredentialGenerator {
    /// A plain clientAuth certificate without Apple's markers (what `inspect` warns about).
    static func makeClientCertificate(
        ca: PushIdentity, commonName: String, key algorithm: KeyAlgorithm = .ecP256,
        validity: Validity = .days(365)
    ) throws(OpenSSLError) -> PushIdentity {
        let key = try PrivateKey.generate(algorithm)
        let b = try CertificateBuilder(
            subject: [("O", "apnsctl"), ("CN", commonName)], subjectKey: key,
            notBefore: validity.notBefore, notAfter: validity.notAfter)
        try addLeafExtensions(b, ca: ca, usage: "clientAuth", rsa: algorithm != .ecP256)
        let cert = try b.sign(issuer: ca.certificate, issuerKey: ca.privateKey)
        return PushIdentity(certificate: cert, privateKey: key, chain: [ca.certificate], certificatePath: commonName)
    }
}
