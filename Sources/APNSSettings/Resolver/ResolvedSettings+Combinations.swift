import APNSCore

/// The combination rules of CLI.md, run on the resolved value (not on one option group), so each part's
/// origin can be named: a profile's certificate with `--auth-key` is no clash (credentials are one unit),
/// but two kinds in one place are.
extension ResolvedSettings {
    /// Throws the first broken rule (exit 64). `noCredential` replaces the message for a run given no credential
    /// at all, when the caller knows more (a replayed entry names the one it was sent with). Without
    /// `requiringCredential` (`config show`), no credential at all is no error; every clash still is.
    public func checkCombinations(noCredential: String? = nil, requiringCredential: Bool = true)
        throws(SettingsProblem)
    {
        let certificate = self[.cert]
        let token = self[.authKey]
        let key = self[.key]
        if command == .jwt {
            guard token != nil || !requiringCredential else {
                // A profile was chosen and has no key: say which, and the mock's key is in its token profile.
                let chosen =
                    profile.map { p in
                        p.value == MockProfile.name
                            ? "; -p \(p.value) has the mock's certificate: its key is in -p \(MockProfile.tokenName)"
                            : "; profile \(p.value) has no auth-key"
                    } ?? ", or choose a profile with -p"
                let empty =
                    emptyCredentialVariables.contains("APNSCTL_AUTH_KEY")
                    ? " (it is set but empty: a CI secret this job does not get?)" : ""
                throw .usage(
                    "--auth-key is required; pass the .p8 key file (--auth-key AuthKey_ABCDE12345.p8), set APNSCTL_AUTH_KEY\(empty)\(chosen)"
                )
            }
        } else if certificate == nil && token == nil && (requiringCredential || key != nil) {
            if let key {
                if let path = key.value.path, let advice = SigningKeyFileName.advice(keyFlagPath: path) {
                    throw .usage("\(Self.name(key.origin, Setting.of(.key).name)) \(advice)")
                }
                throw .usage(Self.keyWithoutCertificate(key.origin, location: location, ignored: ignoredCertificate))
            }
            // A profile of the file was chosen and names none (a `[profiles.mock]` table even hides the built-in one).
            if noCredential == nil, let chosen = profile?.value, let file, file.profile(chosen) != nil {
                let hidden =
                    MockProfile.names.contains(chosen)
                    ? " (its table replaces apnsctl mock's built-in profile of that name: remove [profiles.\(chosen)] and "
                        + "what it holds to use the mock's)" : ""
                // A key id without its key: the key is what is missing (a certificate would be refused beside it).
                if hidden.isEmpty, let id = self[.keyID] {
                    throw .usage(
                        "no credential: \(Self.name(id.origin, Setting.of(.keyID).name)) names a .p8 key, but profile \(chosen) in \(file.path) has no auth-key; give it the key (\(location.configCommand("set")) "
                            + "--profile \(ShellWord.of(chosen)) auth-key FILE, and team-id), or pass --auth-key FILE")
                }
                throw .usage(
                    "no credential: profile \(chosen) in \(file.path) names none\(hidden); give it one (\(location.configCommand("set")) "
                        + "--profile \(ShellWord.of(chosen)) cert FILE, or auth-key FILE and team-id), or pass --cert FILE "
                        + "or --auth-key FILE")
            }
            // A CI secret the job does not get is an empty variable: the likelier cause, said first.
            let empty = emptyCredentialVariables
            let unset =
                empty.isEmpty
                ? ""
                : ": \(empty.joined(separator: " and ")) \(empty.count == 1 ? "is" : "are") set but empty (a CI secret this "
                    + "job does not get, such as a fork's pull request?)"
            throw .usage(
                noCredential
                    ?? "no credential\(unset); pass --cert FILE (certificate auth) or --auth-key FILE with --team-id (token auth), or choose a profile with -p (apnsctl config list shows them)"
            )
        }
        if let certificate, let token {
            // The advice names them as the user wrote them: flags as flags, settings by their key.
            let (c, t) =
                Self.isFlag(certificate.origin) && Self.isFlag(token.origin)
                ? ("--cert", "--auth-key") : ("cert", "auth-key")
            throw .usage(
                "\(Self.name(certificate.origin, Setting.of(.cert).name)) and \(Self.name(token.origin, Setting.of(.authKey).name)) both given; choose one: certificate auth (\(c)) or token auth (\(t))"
            )
        }
        if let key, certificate == nil {
            // Beside a .p8 key, a certificate's key is one too many: giving a certificate too is refused next.
            if let token {
                throw .usage(
                    "\(Self.name(key.origin, Setting.of(.key).name)) is a certificate's private key, and token auth "
                        + "(\(Self.name(token.origin, Setting.of(.authKey).name))) takes none: leave it out")
            }
            throw .usage(Self.keyWithoutCertificate(key.origin, location: location, ignored: ignoredCertificate))
        }
        if let id = self[.keyID], token == nil {
            throw .usage(
                "\(Self.name(id.origin, Setting.of(.keyID).name)) needs a .p8 key (auth-key) in the same place: a key id belongs to its key"
            )
        }
        if let stranded = strandedKeyID {
            let from =
                certificate.map { Self.name($0.origin, Setting.of(.cert).name) } ?? token.map {
                    Self.name($0.origin, Setting.of(.authKey).name)
                } ?? "elsewhere"
            // The key in a variable (often its PEM text, from a CI secret): the id goes in the variable beside it.
            let advice =
                if case .variable = token?.origin {
                    "set \(Setting.of(.keyID).variable) beside it instead"
                } else { "give the key with it (--auth-key), or set key-id where the key is" }
            throw .usage(
                "\(Self.name(stranded.origin, Setting.of(.keyID).name)): a key id belongs to its key, and the credentials come from \(from); \(advice)"
            )
        }
        if token == nil {
            for setting in [Setting.of(.teamID), Setting.of(.noTokenCache)] {
                if let v = value(of: setting), case .flag(let f) = v.origin {
                    throw .usage("\(f) needs a .p8 key for token auth; pass --auth-key too")
                }
            }
        }
    }

    /// A key given without its certificate, with the way to give the certificate where the key was given: a flag
    /// beside a flag, a variable beside a variable, a line beside the profile's.
    static func keyWithoutCertificate(
        _ origin: SettingOrigin, location: SettingsLocation, ignored: SettingOrigin? = nil
    ) -> String {
        let key = name(origin, Setting.of(.key).name)
        // `-p dev --key k.pem`: the profile's cert was there, and the user expects the two joined.
        let unread =
            ignored.map {
                "; credentials are taken from one place, so \(name($0, Setting.of(.cert).name)) is not read beside \(key)"
            } ?? ""
        switch origin {
        case .flag:
            return "\(key) is the certificate's private key: give the certificate with it, --cert FILE\(unread)"
        case .variable:
            return "\(key) is the certificate's private key: set APNSCTL_CERT to the certificate with it\(unread)"
        case .profile(let p, _, _):
            return "\(key) is the certificate's private key, and the profile has no cert: "
                + location.configCommand("set") + " --profile \(ShellWord.of(p)) cert FILE"
        default: return "\(key) needs a certificate in the same place; give cert with it"
        }
    }

    static func isFlag(_ origin: SettingOrigin) -> Bool {
        if case .flag = origin { return true }
        return false
    }

    /// `--cert`, `APNSCTL_CERT`, `cert in profile dev (PATH:LINE)`, `cert of the mock profile (PATH)`.
    static func name(_ origin: SettingOrigin, _ setting: String) -> String {
        switch origin {
        case .flag(let f): return f
        case .variable(let v): return v
        case .profile(let p, let file, let line): return "\(setting) in profile \(p) (\(file):\(line))"
        case .mock(let profile, let file): return "\(setting) of the \(profile) profile (\(file))"
        case .defaultValue: return setting
        }
    }
}

extension ResolvedSettings {
    /// How messages name where a setting came from: `--cert`, `APNSCTL_CERT`, `cert in profile dev (PATH:LINE)`,
    /// or the bare flag when it was not given (so advice still says what to pass).
    public func label<Value>(_ key: SettingKey<Value>) -> String {
        guard let origin = values[key.name]?.origin else { return key.flag }
        if case .defaultValue = origin { return key.flag }
        return Self.name(origin, key.name)
    }
}
