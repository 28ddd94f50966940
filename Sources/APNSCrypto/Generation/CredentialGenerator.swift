import APNSCore
import APNSPlatform

/// A certificate's validity window in seconds since the epoch; past or future windows make
/// expired and not-yet-valid certificates for tests.
public struct Validity: Sendable, Equatable {
    public let notBefore: Int64
    public let notAfter: Int64

    public init(notBefore: Int64, notAfter: Int64) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// Valid from an hour before `now` (clock skew) for `days` days.
    public static func days(_ days: Int64, from now: Int64 = SystemClock.now()) -> Validity {
        Validity(notBefore: now - 3600, notAfter: now + days * 86_400)
    }
}

/// Which APNs environments a generated push certificate serves, as Apple's three kinds do.
public enum PushCertificateKind: Sendable, Equatable {
    /// Extension .6.3.1, CN `Apple Development IOS Push Services: <bundle>`.
    case development
    /// Extension .6.3.2, CN `Apple Production IOS Push Services: <bundle>`.
    case production
    /// Extensions .6.3.1, .6.3.2 and the topics extension .6.3.6, CN `Apple Push Services: <bundle>`.
    case universal(topics: [String])
}

/// Makes real X.509 v3 credentials for tests and for `apnsctl mock`'s demo state: a CA, TLS server
/// certificates, Apple-style push certificates and `.p8` signing keys. Results are `PushIdentity`
/// values (certificate, key, chain) that the writers on `PushIdentity`/`PrivateKey` turn into PEM or PKCS#12.
public enum CredentialGenerator {
    /// A self-signed CA (basicConstraints CA:TRUE, keyCertSign) to issue everything else.
    public static func makeCA(
        commonName: String = "apnsctl Test CA", key algorithm: KeyAlgorithm = .ecP256,
        validity: Validity = .days(3650)
    ) throws(OpenSSLError) -> PushIdentity {
        let key = try PrivateKey.generate(algorithm)
        let b = try CertificateBuilder(
            subject: [("O", "apnsctl"), ("CN", commonName)], subjectKey: key,
            notBefore: validity.notBefore, notAfter: validity.notAfter)
        try b.addExtension(ExtensionID.basicConstraints, "critical,CA:TRUE", issuer: nil)
        try b.addExtension(ExtensionID.keyUsage, "critical,keyCertSign,cRLSign,digitalSignature", issuer: nil)
        try b.addExtension(ExtensionID.subjectKeyIdentifier, "hash", issuer: nil)
        try b.addExtension(ExtensionID.authorityKeyIdentifier, "keyid:always", issuer: nil)
        let cert = try b.sign(issuer: nil, issuerKey: nil)
        return PushIdentity(certificate: cert, privateKey: key, chain: [], certificatePath: commonName)
    }

    /// A TLS server certificate for `dnsNames` and `ipAddresses` (subjectAltName), signed by `ca`.
    public static func makeServerCertificate(
        ca: PushIdentity, dnsNames: [String] = ["localhost"],
        ipAddresses: [String] = ["127.0.0.1", "::1"],
        key algorithm: KeyAlgorithm = .ecP256,
        validity: Validity = .days(825)
    ) throws(OpenSSLError) -> PushIdentity {
        let key = try PrivateKey.generate(algorithm)
        let cn = dnsNames.first ?? ipAddresses.first ?? "localhost"
        let b = try CertificateBuilder(
            subject: [("O", "apnsctl"), ("CN", cn)], subjectKey: key,
            notBefore: validity.notBefore, notAfter: validity.notAfter)
        let san = (dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }).joined(separator: ",")
        try addLeafExtensions(b, ca: ca, usage: "serverAuth", rsa: algorithm != .ecP256)
        if !san.isEmpty { try b.addExtension(ExtensionID.subjectAltName, san, issuer: ca.certificate) }
        let cert = try b.sign(issuer: ca.certificate, issuerKey: ca.privateKey)
        return PushIdentity(certificate: cert, privateKey: key, chain: [ca.certificate], certificatePath: cn)
    }

    /// An Apple-style push client certificate: subject `UID=<bundle>, CN=<kind's prefix> <bundle>, OU=<team>`,
    /// clientAuth, Apple's environment OIDs and, for `.universal`, the topics extension.
    public static func makePushCertificate(
        ca: PushIdentity, bundleID: String, kind: PushCertificateKind,
        teamID: String = "ABCDE12345", key algorithm: KeyAlgorithm = .ecP256,
        validity: Validity = .days(365), reusing existing: PrivateKey? = nil
    ) throws(OpenSSLError) -> PushIdentity {
        // `existing`: a renewal from the same request, as the portal issues one, carries the same key.
        let key: PrivateKey
        if let existing { key = existing } else { key = try PrivateKey.generate(algorithm) }
        let prefix: String =
            switch kind {
            case .development: "Apple Development IOS Push Services:"
            case .production: "Apple Production IOS Push Services:"
            case .universal: "Apple Push Services:"
            }
        let subject = [
            ("UID", bundleID), ("CN", "\(prefix) \(bundleID)"), ("OU", teamID), ("O", "apnsctl test"), ("C", "US"),
        ]
        let b = try CertificateBuilder(
            subject: subject, subjectKey: key,
            notBefore: validity.notBefore, notAfter: validity.notAfter)
        try addLeafExtensions(b, ca: ca, usage: "clientAuth", rsa: algorithm != .ecP256)
        let null = DER.encode(tag: DER.Tag.null, content: [])
        switch kind {
        case .development:
            try b.addExtension(oid: ApplePush.developmentOID, value: null)
        case .production:
            try b.addExtension(oid: ApplePush.productionOID, value: null)
        case .universal(let topics):
            try b.addExtension(oid: ApplePush.developmentOID, value: null)
            try b.addExtension(oid: ApplePush.productionOID, value: null)
            try b.addExtension(
                oid: ApplePush.topicsOID, value: ApplePush.topicsExtension(bundleID: bundleID, topics: topics))
        }
        let cert = try b.sign(issuer: ca.certificate, issuerKey: ca.privateKey)
        return PushIdentity(certificate: cert, privateKey: key, chain: [ca.certificate], certificatePath: bundleID)
    }

    /// A fresh EC P-256 provider-token key; write it with `signingKey.p8PEM` as `AuthKey_<KEYID>.p8`.
    public static func makeSigningKey() throws(OpenSSLError) -> SigningKey {
        SigningKey(key: try PrivateKey.generate(.ecP256), keyIDFromFileName: nil)
    }

    /// A random 10-character `[A-Z0-9]` id, for demo key ids and team ids.
    public static func makeIdentifier() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var rng = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
    }

    static func addLeafExtensions(_ b: CertificateBuilder, ca: PushIdentity, usage: String, rsa: Bool)
        throws(OpenSSLError)
    {
        try b.addExtension(ExtensionID.basicConstraints, "critical,CA:FALSE", issuer: ca.certificate)
        try b.addExtension(
            ExtensionID.keyUsage, rsa ? "critical,digitalSignature,keyEncipherment" : "critical,digitalSignature",
            issuer: ca.certificate)
        try b.addExtension(ExtensionID.extendedKeyUsage, usage, issuer: ca.certificate)
        try b.addExtension(ExtensionID.subjectKeyIdentifier, "hash", issuer: ca.certificate)
        try b.addExtension(ExtensionID.authorityKeyIdentifier, "keyid:always", issuer: ca.certificate)
    }
}

extension SigningKey {
    /// The `.p8` file text: unencrypted PKCS#8 PEM, as Apple's download.
    public var p8PEM: [UInt8] {
        get throws(OpenSSLError) { try privateKey.pkcs8PEM(passphrase: nil) }
    }
}
