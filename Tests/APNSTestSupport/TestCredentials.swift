import APNSCore
import APNSCrypto
import Foundation

/// Credentials made in-process for tests, written to a private directory: a CA, a server certificate
/// for localhost/127.0.0.1, an Apple-style universal push certificate (PEM, certificate and key), a
/// plain client certificate, and a `.p8` signing key named `AuthKey_<KEYID>.p8`.
public final class TestCredentials: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let ca: PushIdentity
    public let server: PushIdentity
    public let push: PushIdentity
    public let signingKey: SigningKey
    public let keyID: String
    public let teamID: String
    public let bundleID: String

    /// `ca.pem`.
    public var caFile: String { directory.file("ca.pem") }
    /// `push.pem`: the push certificate, its chain and its unencrypted key.
    public var pushFile: String { directory.file("push.pem") }
    /// `AuthKey_<KEYID>.p8`.
    public var authKeyFile: String { directory.file("AuthKey_\(keyID).p8") }

    /// Makes and writes everything; `topics` go into the push certificate's topics extension.
    public init(bundleID: String = "com.example.demo", kind: PushCertificateKind? = nil) throws {
        directory = try TemporaryDirectory(prefix: "creds")
        self.bundleID = bundleID
        ca = try CredentialGenerator.makeCA()
        server = try CredentialGenerator.makeServerCertificate(ca: ca)
        push = try CredentialGenerator.makePushCertificate(
            ca: ca, bundleID: bundleID,
            kind: kind ?? .universal(topics: [bundleID, bundleID + ".voip", bundleID + ".complication"]))
        signingKey = try CredentialGenerator.makeSigningKey()
        keyID = CredentialGenerator.makeIdentifier()
        teamID = CredentialGenerator.makeIdentifier()
        try directory.write("ca.pem", ca.certificate.pem)
        try directory.write("push.pem", try push.pem(), mode: 0o600)
        try directory.write("AuthKey_\(keyID).p8", signingKey.p8PEM, mode: 0o600)
    }

    /// Writes another push certificate (e.g. production-only) as `name` and returns its path.
    public func writePushCertificate(_ name: String, kind: PushCertificateKind, validity: Validity = .days(365)) throws
        -> String
    {
        let identity = try CredentialGenerator.makePushCertificate(
            ca: ca, bundleID: bundleID, kind: kind, validity: validity)
        return try directory.write(name, try identity.pem(), mode: 0o600)
    }
}
