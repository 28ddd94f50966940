import APNSCore

/// A client certificate with its matching private key and the rest of its chain, ready for TLS
/// (`SSL_CTX_use_certificate`, `SSL_CTX_use_PrivateKey`, extra chain certificates).
public final class PushIdentity: Sendable {
    public let certificate: X509Certificate
    public let privateKey: PrivateKey
    /// The other certificates of the file (intermediates, CA), leaf excluded.
    public let chain: [X509Certificate]
    /// The file the certificate came from (for messages).
    public let certificatePath: String
    /// How the file was encoded (PEM/DER certificate or PKCS#12), as the loader detected it by content.
    public let container: CredentialContents.Kind
    /// Whether the files open only with a passphrase (an encrypted PEM key, a `.p12` with a password that is not
    /// empty): another tool (curl) must be given it.
    public let neededPassphrase: Bool
    /// Whether the certificate's file, and the key's, were bare DER (for the dry run's curl command).
    public let certificateIsDER: Bool
    public let keyIsDER: Bool
    /// Other push certificates the file held, left out of the chain (the CLI says so).
    public let leftOut: [CertificateInfo]

    /// Pairs a certificate and key; `certificatePath` names them in messages.
    public init(
        certificate: X509Certificate, privateKey: PrivateKey, chain: [X509Certificate] = [],
        certificatePath: String = "certificate", container: CredentialContents.Kind = .certificate,
        neededPassphrase: Bool = false, certificateIsDER: Bool = false, keyIsDER: Bool = false,
        leftOut: [CertificateInfo] = []
    ) {
        self.leftOut = leftOut
        self.certificate = certificate
        self.privateKey = privateKey
        self.chain = chain
        self.certificatePath = certificatePath
        self.container = container
        self.neededPassphrase = neededPassphrase
        self.certificateIsDER = certificateIsDER
        self.keyIsDER = keyIsDER
        self.info = certificate.info
    }

    /// The certificate's parsed view (bundle id, topics, environments, validity), parsed once: `send` consults
    /// it several times on its start-up path.
    public let info: CertificateInfo

    /// Fails with `.expired` or `.notYetValid` when the certificate is outside its validity at `now`.
    public func checkValidity(now: Int64) throws(CredentialProblem) {
        try info.checkValidity(path: certificatePath, now: now)
    }

    /// Fails when the certificate is not valid for `environment` (only for Apple push certificates:
    /// a certificate without Apple's markers is allowed everywhere, with a warning from the CLI).
    public func checkEnvironment(_ environment: APNSEnvironment) throws(CredentialProblem) {
        let i = info
        guard i.isApplePush, !i.environments.isEmpty, !i.environments.contains(environment) else { return }
        throw .environmentNotAllowed(path: certificatePath, requested: environment, available: i.sortedEnvironments)
    }

    /// The PEM a `curl --cert` accepts: certificate, chain, then the unencrypted PKCS#8 key.
    public func pem() throws(OpenSSLError) -> [UInt8] {
        var out = certificate.pem
        for c in chain { out += c.pem }
        out += try privateKey.pkcs8PEM(passphrase: nil)
        return out
    }

    /// A PKCS#12 file of certificate, key and chain, under `password` (which may be empty).
    public func pkcs12(
        password: SecretBytes, encryption: PKCS12Encryption = .modern,
        friendlyName: String? = nil
    ) throws(OpenSSLError) -> [UInt8] {
        try PKCS12Bundle.encode(
            key: privateKey, certificate: certificate, chain: chain, password: password,
            encryption: encryption, friendlyName: friendlyName ?? info.commonName)
    }
}
