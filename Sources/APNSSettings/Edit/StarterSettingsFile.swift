/// What `apnsctl config init` writes: a commented starter file, and with settings, a first profile holding
/// them (made the default). The comments say what a reader of the file needs to change it by hand.
public enum StarterSettingsFile {
    /// The file's text; `profile` with its keys as `(key, TOML text)`, when there is one.
    public static func text(profile: (name: String, keys: [(String, String)])?) -> String {
        var lines = [
            "# apnsctl settings: apnsctl config --help, or docs/settings.md, says more.",
            "# send, channel, doctor and jwt take each setting from its flag, else APNSCTL_<FLAG>, else the",
            "# profile chosen with -p NAME (or default-profile), else the default.",
            "# Profile keys are the long flag names: auth-key, key-id, team-id, topic, env, cert, ca-file, ...",
            "# ~/ is your home; a relative path is relative to this file's folder. Secrets never go here: use",
            "# passphrase-file, --passphrase-file or APNSCTL_PASSPHRASE.",
            "# Change it with apnsctl config set, unset, add-device and remove-device (comments are kept).",
            "",
        ]
        if let profile {
            lines.append("default-profile = \(ProfileValueText.quoted(profile.name))")
            lines.append("")
            lines.append(SettingsEditor.header(["profiles", profile.name]))
            lines += profile.keys.map { "\(ProfileValueText.key($0.0)) = \($0.1)" }
            lines.append("")
        }
        lines += [
            "# Device names for -d NAME and --devices: name = \"TOKEN\".",
            "[devices]",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
