import APNSCore

/// What to say about a profile key that is no setting: the keys other tools and Apple's pages use for the
/// same thing (`bundle-id` is `topic`, `environment` is `env`, `sandbox = true` is `env = "sandbox"`), else
/// the closest setting by spelling. The settings file and `config set` give the same advice.
public enum ProfileKeyAdvice {
    /// Keys users bring, by folded name (lower case, no `-` or `_`), with the setting they mean.
    public static let aliases: [String: String] = [
        "bundleid": "topic", "bundle": "topic", "bundleidentifier": "topic", "apnstopic": "topic", "appid": "topic",
        "environment": "env", "apnsenvironment": "env", "server": "env",
        "p8": "auth-key", "authkeypath": "auth-key", "keyfile": "auth-key", "p8file": "auth-key",
        "tokenkey": "auth-key",
        "kid": "key-id", "team": "team-id", "iss": "team-id",
        "certificate": "cert", "certfile": "cert", "p12": "cert", "pem": "cert",
        "privatekey": "key", "ca": "ca-file", "cafile": "ca-file", "cacert": "ca-file",
        "type": "push-type", "apnspushtype": "push-type", "apnspriority": "priority", "expiry": "expiration",
        "apnsexpiration": "expiration", "host": "endpoint", "url": "endpoint",
        "password": "passphrase-file", "pass": "passphrase-file", "passwd": "passphrase-file",
        "pw": "passphrase-file", "p12password": "passphrase-file", "certpassword": "passphrase-file",
    ]

    /// The setting meant by `key` (with the value to give it, when the key itself was the value: `sandbox`),
    /// or nil when nothing is close. `value` is the key's value when known (`sandbox = false` is production).
    public static func alternative(for key: String, value: TOMLValue? = nil) -> (key: String, value: String?)? {
        let folded = String(key.lowercased().filter { $0 != "-" && $0 != "_" })
        if folded == "sandbox" || folded == "production" || folded == "development" {
            let production = (folded == "production") != (value == .boolean(false))
            return ("env", production ? "production" : "sandbox")
        }
        if let alias = aliases[folded] { return (alias, nil) }
        // A secret never comes from the file: a key spelled near one (`pass-phrase`) is pointed at the setting the
        // file takes instead (the passphrase's file), not at a key it refuses.
        let allowed = SettingCatalog.all.filter { !$0.isSecret }.map(\.name) + ["devices"]
        if folded.hasPrefix("pass"), !allowed.contains(key) { return ("passphrase-file", nil) }
        return Suggestion.closest(to: key, among: allowed).map { ($0, nil) }
    }

    /// `did you mean "topic"?` or `did you mean env = "sandbox"?` for a key in the file or `config set`.
    public static func suggestion(for key: String, value: TOMLValue? = nil) -> String? {
        guard let (name, value) = alternative(for: key, value: value) else { return nil }
        return "did you mean " + (value.map { "\(name) = \(PrintableText.quoted($0))" } ?? PrintableText.quoted(name))
            + "?"
    }
}
