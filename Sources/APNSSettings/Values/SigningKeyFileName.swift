import APNSPlatform

/// A file named as Apple names `.p8` signing keys (`AuthKey_ABCDE12345.p8`), seen where a certificate's key
/// goes: the user means token auth, which needs no certificate.
enum SigningKeyFileName {
    /// What to say after the setting's name for a `key` that is such a file; nil for any other name.
    static func advice(keyFlagPath path: String) -> String? {
        let name = FileSystem.baseName(path)
        let prefixed = ["AuthKey_", "APNsAuthKey_"].first { name.hasPrefix($0) }
        guard prefixed != nil || name.lowercased().hasSuffix(".p8") else { return nil }
        var id = prefixed.map { String(name.dropFirst($0.count).prefix { $0 != "." }) } ?? ""
        if id.count != 10 || !id.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) { id = "KEYID" }
        return "\(path): this is an APNs token-auth signing key (.p8), not a certificate's key; it needs no "
            + "certificate: use token auth with --auth-key \(path) --key-id \(id) --team-id TEAMID --topic BUNDLE_ID"
    }
}
