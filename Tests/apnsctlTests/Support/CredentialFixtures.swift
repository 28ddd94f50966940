import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation

@testable import APNSCrypto

/// Credentials for the end-to-end tests, generated once per run with the library's generator
/// (the same code that makes the mock's demo credentials) and written per test into a temp dir.
enum CredentialFixtures {
    static let passphrase = "Tr0ub4dor&3-secret"
    static let ca: PushIdentity = make { try CredentialGenerator.makeCA() }
    static let universal: PushIdentity = make {
        try CredentialGenerator.makePushCertificate(
            ca: ca, bundleID: "com.example.demo",
            kind: .universal(topics: ["com.example.demo", "com.example.demo.voip", "com.example.demo.complication"]))
    }
    static let development: PushIdentity = make {
        try CredentialGenerator.makePushCertificate(
            ca: ca, bundleID: "com.example.dev", kind: .development, key: .rsa(bits: 2048))
    }
    static let production: PushIdentity = make {
        try CredentialGenerator.makePushCertificate(ca: ca, bundleID: "com.example.prod", kind: .production)
    }
    static let plain: PushIdentity = make {
        try CredentialGenerator.makeClientCertificate(ca: ca, commonName: "not apple")
    }
    static let signingKey: SigningKey = {
        do { return try CredentialGenerator.makeSigningKey() } catch { fatalError("\(error)") }
    }()

    static func expired() throws -> PushIdentity {
        let now = SystemClock.now()
        return try CredentialGenerator.makePushCertificate(
            ca: ca, bundleID: "com.example.old", kind: .development,
            validity: Validity(notBefore: now - 400 * 86_400, notAfter: now - 30 * 86_400 - 60))
    }

    static func notYetValid() throws -> PushIdentity {
        let now = SystemClock.now()
        return try CredentialGenerator.makePushCertificate(
            ca: ca, bundleID: "com.example.new", kind: .production,
            validity: Validity(notBefore: now + 10 * 86_400 + 60, notAfter: now + 400 * 86_400))
    }

    private static func make(_ body: () throws -> PushIdentity) -> PushIdentity {
        do { return try body() } catch { fatalError("test credential generation failed: \(error)") }
    }
}

extension TemporaryDirectory {
    /// Writes `identity` as PEM (certificate, chain, key; key encrypted with `passphrase` when given).
    func pem(_ name: String, _ identity: PushIdentity, passphrase: String? = nil) throws -> String {
        var bytes = identity.certificate.pem
        for c in identity.chain { bytes += c.pem }
        bytes += try identity.privateKey.pkcs8PEM(passphrase: passphrase.map { SecretBytes(Array($0.utf8)) })
        return try write(name, bytes, mode: 0o600)
    }

    /// Writes `identity` as PKCS#12.
    func p12(_ name: String, _ identity: PushIdentity, password: String, encryption: PKCS12Encryption = .modern) throws
        -> String
    {
        try write(
            name, try identity.pkcs12(password: SecretBytes(Array(password.utf8)), encryption: encryption), mode: 0o600)
    }

    /// The POSIX mode of `name`.
    func mode(_ name: String) throws -> Int {
        let attrs = try FileManager.default.attributesOfItem(atPath: file(name))
        return (attrs[.posixPermissions] as? Int) ?? -1
    }
}

/// The JSON object `inspect -o json` printed.
func jsonObject(_ text: String) throws -> [String: Any] {
    let data = Data(text.utf8)
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw TestSupportError("not a JSON object: \(text)")
    }
    return object
}
