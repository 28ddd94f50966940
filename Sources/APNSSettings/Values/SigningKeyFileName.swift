import APNSCore
import APNSCrypto

/// A file named as Apple names `.p8` signing keys (`AuthKey_ABCDE12345.p8`), seen where a certificate's key
/// goes: the user means token auth, which needs no certificate.
enum SigningKeyFileName {
    /// What to say after the setting's name for a `key` that is such a file; nil for any other name.
    static func advice(keyFlagPath path: String) -> String? {
        guard SigningKey.isNamedAsSigningKey(path) else { return nil }
        let id =
            SigningKey.keyID(fromFileNamePrefix: path).flatMap { DeveloperID.isWellFormed($0) ? $0 : nil } ?? "KEYID"
        return "\(path): this is an APNs token-auth signing key (.p8), not a certificate's key; it needs no "
            + "certificate: use token auth with --auth-key \(path) --key-id \(id) --team-id TEAMID --topic BUNDLE_ID"
    }
}
