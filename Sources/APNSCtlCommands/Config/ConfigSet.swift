import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl.Config {
    /// `apnsctl config set`: one key of a profile, or `default-profile`, written into the settings file in place.
    struct SetKey: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a profile key (or default-profile) in the settings file, keeping its comments.",
            usage: "apnsctl config set [--profile <name>] <key> <value>...",
            discussion: """
                KEY is a profile key as in the file: a long flag name without dashes (auth-key, key-id, \
                team-id, topic, env, cert, ca-file, endpoint, ...), or default-profile. The value is checked \
                as the flag's would be (exit 64) and written in the TOML type the setting reads; a path is \
                written as given (~/ is your home, a relative path is relative to the file's folder), with a \
                warning when it does not exist. A repeatable setting (endpoint) takes several values. \
                Without --profile the key goes to the profile APNSCTL_PROFILE names (one the file has), else \
                to the file's default-profile. Secrets are refused: use passphrase-file. The file is created (mode 0600) if missing; every other line stays as it \
                was, and the result is checked as a load would check it before it is written.

                Examples:
                  apnsctl config set --profile dev auth-key ~/keys/AuthKey_ABCDE12345.p8
                  apnsctl config set --profile dev topic com.example.app
                  apnsctl config set default-profile dev
                """)

        @OptionGroup var target: ConfigKeyOptions

        @Argument(help: ArgumentHelp("The value (several for a repeatable key).", valueName: "value"))
        var values: [String] = []

        func run(in world: CommandWorld) throws {
            var edit = try SettingsFileEdit(options: target.file, world: world)
            if target.key == "default-profile" {
                try setDefaultProfile(&edit)
                return
            }
            let setting = try ProfileKeyCheck.setting(target.key, value: values.first, profile: target.profile)
            try Self.refuseStandardInput(target.key, setting: setting, values: values)
            let profileName = try edit.profile(target.profile, for: "config set \(target.key)")
            if let given = target.profile { edit.warnIfNewProfileIsNear(given, in: world) }
            let before = try? edit.file
            // A key's text or a token where a path goes: said as such, before its TOML text is made.
            if [.path, .credential].contains(setting.kind), let given = values.first, VariableEcho.isSecretText(given) {
                try Self.refuseSecret(target.key, missing: given, given: given, in: world)
            }
            let (text, value): (String, SettingValue)
            // `history` is checked as no-history's value, and named as typed: the other key is its opposite.
            do {
                (text, value) = try ProfileValueText.text(
                    for: setting, key: target.key, values: values, paths: edit.paths)
            } catch { throw CLIError(error) }
            if let missing = Self.missingFile(value) {
                try Self.refuseSecret(target.key, missing: missing, given: values.first ?? "", in: world)
            }
            // A topic every send would refuse (quotes kept, a stray dot) is refused before it is written.
            if setting == Setting.of(.topic), case .text(let topic) = value {
                try TopicShape.check(topic, label: "topic \(PrintableText.quoted(topic))")
            }
            let table = ["profiles", profileName]
            let line: Int
            do {
                // One switch, two spellings: the one set replaces the other, which would otherwise contradict it.
                if let other = SettingCatalog.otherHistorySpelling(target.key) {
                    _ = try edit.editor.remove(other, from: table)
                }
                line = try edit.editor.set(target.key, to: text, in: table)
            } catch { throw CLIError(error) }
            let hidden =
                setting.isSecretFile && Self.missingFile(value) != nil
                && Self.fileHere(values.first ?? "", in: world) == nil
            if hidden {
                world.standardError.warning(
                    Self.secretFileWarning(target.key, profile: profileName, location: edit.location))
            } else if let missing = Self.missingFile(value) {
                world.standardError.warning(
                    Self.missingFileWarning(
                        target.key, missing, given: values.first ?? "", fileDirectory: edit.location.directory,
                        in: world))
            }
            let present = Set(before?.profile(profileName)?.values.map(\.name) ?? [])
            let kindWarning = Self.credentialKindWarning(
                target.key, value, profile: profileName, location: edit.location, hasTeamID: present.contains("team-id")
            )
            if let kindWarning { world.standardError.warning(kindWarning) }
            let shown = hidden ? "(hidden: no such file)" : ProfileValueText.shown(text, values: values)
            try edit.write("\(target.key) = \(shown) in \(SettingsEditor.header(table)), \(edit.location.path):\(line)")
            SettingsFileEdit.warnIfReplacingBuiltIn(profileName, before: before, path: edit.location.path, in: world)
            // A profile serves send too, which refuses `both` (doctor's alone): written, and said while it is set.
            if setting == Setting.of(.env), case .environment(.both) = value {
                world.standardError.warning(
                    "env = \"both\" is doctor's alone: send and channel with profile \(profileName) refuse it (64); for them give sandbox, production or auto"
                )
            }
            // A key id alone names no credential: send would say the profile has none. Said while the user is here.
            if target.key == "key-id", kindWarning == nil, !present.contains("auth-key"), !present.contains("cert"),
                !present.contains("key")
            {
                world.standardError.warning(
                    "key-id names a .p8 key, and profile \(profileName) has none yet: send refuses it until it does (\(edit.location.configCommand("set")) --profile \(ShellWord.of(profileName)) auth-key FILE)"
                )
            }
            // A value of the other kind has its own advice, a move; unsetting the earlier ones would contradict it.
            if kindWarning == nil,
                let warning = Self.bothAuthsWarning(
                    target.key, profile: profileName, before: before, location: edit.location)
            {
                world.standardError.warning(warning)
            }
        }

        /// Keys of the other auth already in the profile (a cert or key beside an auth-key or key-id): the file
        /// loads, but `send -p` refuses such a profile (certificate or token auth, not both), so the edit says so
        /// while the user is at it, naming the keys there and the commands that remove them.
        static func bothAuthsWarning(
            _ key: String, profile: String, before: SettingsFile?, location: SettingsLocation
        ) -> String? {
            let certificate = ["cert", "key"]
            let token = ["auth-key", "key-id"]
            let other: [String]
            if certificate.contains(key) {
                other = token
            } else if token.contains(key) {
                other = certificate
            } else {
                return nil
            }
            let present = Set(before?.profile(profile)?.values.map(\.name) ?? [])
            let there = other.filter(present.contains)
            guard !there.isEmpty else { return nil }
            let kind = certificate.contains(key) ? "token auth" : "certificate auth"
            let unset = there.map {
                (["apnsctl", "config", "unset"] + location.configFlagWords + ["-p", ShellWord.of(profile), $0])
                    .joined(separator: " ")
            }
            return
                "profile \(profile) now holds \(key) beside \(there.joined(separator: " and ")) (\(kind)), and send -p "
                + "\(ShellWord.of(profile)) refuses that (certificate or token auth, not both); if the earlier ones are "
                + "not meant: \(unset.joined(separator: "; "))"
        }

        private func setDefaultProfile(_ edit: inout SettingsFileEdit) throws(CLIError) {
            guard target.profile == nil else {
                throw .usage("default-profile is a top-level key, not a profile's; leave out --profile")
            }
            guard values.count == 1, let name = values.first, !name.isEmpty else {
                throw .usage(
                    "default-profile takes one profile name (\(edit.location.configCommand("set")) default-profile NAME)"
                )
            }
            let file = try edit.file
            let names = file.profiles.map(\.name) + MockProfile.names.filter { file.profile($0) == nil }
            guard names.contains(name) else {
                let near =
                    Suggestion.closest(to: name, among: names).map { "did you mean \(PrintableText.quoted($0))? " }
                    ?? ""
                throw .usage(
                    "default-profile \(PrintableText.quoted(name)): no such profile; \(near)the profiles are \(names.joined(separator: ", ")) (create one with \(edit.location.configCommand("set")) --profile \(ShellWord.of(name)) KEY VALUE)"
                )
            }
            let line: Int
            do { line = try edit.editor.set("default-profile", to: ProfileValueText.quoted(name), in: []) } catch {
                throw CLIError(error)
            }
            try edit.write("default-profile = \(ProfileValueText.quoted(name)), \(edit.location.path):\(line)")
        }

        /// A path value names no file: it is written as given, relative to the settings file's folder; when the
        /// same text names a file from the working directory (as a shell completes it), that file's full path
        /// is the one to give.
        /// `instead`: how to give the full path (`config set` takes it again; after `init` it is `config set`).
        static func missingFileWarning(
            _ label: String, _ missing: String, given: String, fileDirectory: String, in world: CommandWorld,
            instead: (String) -> String = { _ in "give that full path" }
        ) -> String {
            // Too long to quote, it is described; a line break in it is shown escaped below.
            let shown = missing.count > VariableEcho.limit ? VariableEcho.shownPath(missing) : missing
            // A relative path is read from the file's folder; an absolute one or `~/` (a home) as it is.
            let reading =
                given.hasPrefix("/") || given.hasPrefix("~") ? "" : " (a relative path is relative to \(fileDirectory))"
            var text = "\(label): \(shown) does not exist; written as given\(reading)"
            if let here = fileHere(given, in: world) { text += "; \(here) is there: to use it, \(instead(here))" }
            // A path holding a line break or another control character is shown escaped: one warning line.
            return PrintableText.escapingControls(text)
        }

        /// The file `given` names from the working directory, as a shell completed it, when one is there: then it
        /// is no passphrase, and the usual warning (with that file's full path) is the one to give.
        static func fileHere(_ given: String, in world: CommandWorld) -> String? {
            guard !given.hasPrefix("/"), !given.hasPrefix("~"), let directory = world.workingDirectory() else {
                return nil
            }
            let here = WorkingDirectoryPath.absolute(given, workingDirectory: directory)
            return FileSystem.isRegularFile(here) ? here : nil
        }

        /// A passphrase file that names no file is written as given (CLI.md), but never repeated: where the
        /// file's name belongs, a hurried user types the passphrase itself, which the settings file must not keep.
        static func secretFileWarning(_ label: String, profile: String?, location: SettingsLocation) -> String {
            let option = profile.map { " --profile \(ShellWord.of($0))" } ?? ""
            return "\(label): no such file (the value is not repeated, in case it is the passphrase itself); written "
                + "as given. If it is the passphrase, remove it with \(location.configCommand("unset"))\(option) passphrase-file, "
                + "put the passphrase in a file of your own (mode 0600) and give that file's path"
        }

        /// `-` where a file goes (`cert`, `auth-key`, `passphrase-file`, …): standard input, which only a command line
        /// reads. Written, it named a file called `-` beside the settings file, and every `send -p` then said it was
        /// missing; refused (64) before anything is written.
        static func refuseStandardInput(_ label: String, setting: Setting, values: [String]) throws(CLIError) {
            guard [.path, .credential].contains(setting.kind), values.contains("-") else { return }
            throw .usage(
                "\(label) -: - is standard input, which a command line reads and a profile cannot; save what you "
                    + "would pipe to a file and give the file's path")
        }

        /// A missing file's "path" that is a secret, which the settings file never keeps (CLI.md): curl's
        /// `FILE:PASSWORD` or a key's base64 body. Refused without repeating it; `label` names the key as typed.
        static func refuseSecret(_ label: String, missing: String, given: String, in world: CommandWorld)
            throws(CLIError)
        {
            let here = world.workingDirectory().map { WorkingDirectoryPath.absolute(given, workingDirectory: $0) }
            if let file = CLIError.curlPassphrase(here ?? given) ?? CLIError.curlPassphrase(missing) {
                let shown = given.firstIndex(of: ":").map { String(given[..<$0]) } ?? file
                throw .usage(
                    "\(label) \(ShellWord.of(shown)):…: curl's FILE:PASSWORD form (the text after the colon is not shown, "
                        + "and the settings file keeps no passphrase); give \(ShellWord.of(shown)) alone, and the "
                        + "passphrase in APNSCTL_PASSPHRASE or a passphrase-file")
            }
            // A path that is merely long is written as any path is (CLI.md), its warning not quoting it.
            if VariableEcho.isSecretText(given) {
                let what =
                    VariableEcho.secretCore(of: given).map(VariableEcho.isKeyBody) == true ? "a key's text" : "a secret"
                throw .usage(
                    "\(label) (\(VariableEcho.description(of: given)), not shown): \(what), which the settings "
                        + "file never keeps; give the path of the file that holds the key")
            }
        }

        /// The file a path or credential value names, when it does not exist.
        /// A credential file of the other kind (a push certificate as auth-key, a lone key as cert): written, as
        /// asked, but said now, where the mix-up is made, rather than by the next send or jwt. Told from the file's
        /// PEM labels or its PKCS#12 shape, without a passphrase.
        /// `label`: how the message names the key (`--auth-key` for `config init`'s flag); the key by default.
        /// `hasTeamID`: whether the profile has a team id, which a key moved to auth-key needs beside it.
        static func credentialKindWarning(
            _ key: String, _ value: SettingValue, profile: String, location: SettingsLocation, label: String? = nil,
            hasTeamID: Bool
        ) -> String? {
            guard case .credential(.file(let path)) = value, let bytes = FileSystem.readStart(path, count: 1 << 20)
            else { return nil }
            let held = CredentialLoader.holdsPrivateKey(bytes)
            let certificate = held.pkcs12 || held.pemCertificate
            // The move, both halves: setting the other key alone would leave this one beside it, a profile of two
            // auths (or a key twice) that send refuses.
            let options = location.configFlagWords + ["--profile", ShellWord.of(profile)]
            let set = { (other: String) in
                (["apnsctl", "config", "unset"] + options + [key]).joined(separator: " ") + " && "
                    + (["apnsctl", "config", "set"] + options + [other, ShellWord.of(path)]).joined(separator: " ")
            }
            // A .p8 moved to auth-key signs nothing without the team id: the move sets it too when it is missing.
            let toAuthKey =
                set("auth-key")
                + (hasTeamID
                    ? ""
                    : " && " + (["apnsctl", "config", "set"] + options + ["team-id", "TEAMID"]).joined(separator: " "))
            let named = label ?? key
            switch key {
            case "auth-key" where certificate:
                let what = held.pkcs12 || held.pemKey ? "a certificate and its key" : "a certificate"
                return "\(named): \(path) holds \(what), not a .p8 signing key, so send and jwt will refuse it; a push "
                    + "certificate goes in cert (\(set("cert"))), and token auth needs the .p8 key from the Apple "
                    + "Developer portal (Keys)"
            case "cert" where !certificate && held.pemKey:
                return
                    "\(named): \(path) holds a private key but no certificate, so send will refuse it; an APNs .p8 key "
                    + "goes in auth-key with team-id: \(toAuthKey)\(hasTeamID ? "" : " (TEAMID: your 10-character team id)")"
                    + "; a certificate's own key goes in key, beside its certificate in cert"
            case "key" where !certificate && held.pemKey && SigningKey.isNamedAsSigningKey(path):
                // Not moved for the user: the certificate beside it would then make a profile of two auths.
                return "\(named): \(path) is an APNs .p8 signing key, not a certificate's key, so send will refuse it; "
                    + "a .p8 is token auth on its own, in auth-key with team-id, in place of cert and key"
            case "key" where held.pemCertificate && !held.pemKey:
                return "\(named): \(path) holds a certificate but no private key; a certificate goes in cert "
                    + "(\(set("cert")))"
            default: return nil
            }
        }

        static func missingFile(_ value: SettingValue) -> String? {
            let path: String
            switch value {
            case .path(let p), .credential(.file(let p)): path = p
            default: return nil
            }
            return FileSystem.exists(path) ? nil : path
        }
    }
}

/// Whether a key typed for `config set`, `unset` or `init` is a profile key, with the settings file's advice
/// when it is not (exit 64).
enum ProfileKeyCheck {
    /// `asFlag`: the key was typed as `--key` (`config init`), and the messages say so.
    /// `profile`: the `--profile` given, which the advice's command keeps.
    static func setting(_ key: String, value: String?, asFlag: Bool = false, profile: String? = nil)
        throws(CLIError) -> Setting
    {
        let shown = asFlag ? "--" + key : key
        // `history = false`, as the file reads it: the value is checked as no-history's (a boolean) and written
        // under the key as typed.
        if !asFlag, key == SettingCatalog.historyKey { return Setting.of(.noHistory) }
        if let setting = SettingCatalog.setting(key) {
            if setting.isSecret && asFlag {
                throw .usage(
                    "\(shown): secrets never go in the settings file; give --passphrase-file FILE on this line instead, or use APNSCTL_PASSPHRASE"
                )
            }
            if setting.isSecret {
                throw .usage(
                    "\(shown): secrets never go in the settings file; use passphrase-file (apnsctl config set\(profile.map { " --profile \(ShellWord.of($0))" } ?? "") passphrase-file FILE), --passphrase-file FILE, or APNSCTL_PASSPHRASE"
                )
            }
            return setting
        }
        if key == "devices" {
            throw .usage(
                "\(shown): devices is the profile's table of device names; use apnsctl config add-device NAME TOKEN")
        }
        if SettingCatalog.perRunInputs.contains(key) {
            throw .usage(
                "\(asFlag ? shown : PrintableText.quoted(key)) is an input of one run, not a setting; give it on the command line"
            )
        }
        let asTOML: TOMLValue? =
            switch value?.lowercased() {
            case "true"?: .boolean(true)
            case "false"?: .boolean(false)
            default: nil
            }
        if asFlag {
            let near =
                ProfileKeyAdvice.alternative(for: key, value: asTOML).map {
                    "; did you mean --\($0.key)\($0.value.map { " " + $0 } ?? "")?"
                }
                ?? "; apnsctl config show --for send lists the settings"
            throw .usage("\(shown.escapingControlsForOutput()): not a setting flag\(near)")
        }
        let near =
            ProfileKeyAdvice.suggestion(for: key, value: asTOML).map { "; " + $0 }
            ?? "; apnsctl config show --for COMMAND lists the settings"
        throw .usage("unknown key \"\(key.escapingControlsForOutput())\"\(near)")
    }
}
