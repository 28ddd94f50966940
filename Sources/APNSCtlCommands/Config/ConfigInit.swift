import APNSCore
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl.Config {
    /// `apnsctl config init`: a commented starter settings file, with a first profile from the flags given.
    struct Init: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Write a commented starter settings file, with a first profile from setting flags.",
            usage: "apnsctl config init [--profile <name>] [--<setting> <value>]...",
            discussion: """
                Writes the settings file (mode 0600, its folder 0700 when created) with comments saying how \
                it is read. Setting flags of send (--auth-key FILE, --key-id ID, --team-id ID, --topic TOPIC, \
                --env ENV, --cert FILE, --ca-file FILE, --endpoint URL, ...) become a first profile, named by \
                --profile (default dev) and made the default-profile; each value is checked as the flag's \
                would be. An existing file is left untouched (exit 73): change it with apnsctl config set.

                Example:
                  apnsctl config init --profile dev --auth-key ~/keys/AuthKey_ABCDE12345.p8 \\
                    --team-id TEAMID1234 --topic com.example.app --env sandbox
                """)

        @Option(
            name: [.customShort("p"), .customLong("profile")],
            help: ArgumentHelp(
                "The first profile's name (default dev, when setting flags are given).", valueName: "name"))
        var profile: String?

        @OptionGroup var file: ConfigFileOptions

        @Argument(
            parsing: .captureForPassthrough,
            help: ArgumentHelp("Setting flags of send, as --name value.", valueName: "setting flags"))
        var settingFlags: [String] = []

        /// A credential `send -p` would refuse is not written (64), as on one command line: a certificate beside a
        /// token signing key, a certificate's key without the certificate, a key id without its `.p8` key.
        static func checkCombination(_ names: [String], profile: String, in world: CommandWorld) throws(CLIError) {
            let certificate = names.filter { ["cert", "key"].contains($0) }
            let send = "send -p \(ShellWord.of(profile)) would refuse it"
            if let c = certificate.first, names.contains("auth-key") {
                throw .usage(
                    "--\(c) and --auth-key both given: a profile holds certificate auth or token auth, not both (\(send)); pass one"
                )
            }
            if names.contains("key"), !names.contains("cert") {
                throw .usage("--key is a certificate's private key, and no --cert was given (\(send)); add --cert FILE")
            }
            if names.contains("key-id"), !names.contains("auth-key") {
                throw .usage(
                    "--key-id is a .p8 signing key's id, and no --auth-key was given (\(send)); add --auth-key FILE, or leave --key-id out"
                )
            }
        }

        func run(in world: CommandWorld) throws {
            let location = try file.writableLocation(in: world)
            // The setting flags are taken as they come, so help is asked for here.
            if settingFlags.contains("--help") || settingFlags.contains("-h") {
                throw CleanExit.helpRequest(Self.self)
            }
            var name = profile
            var given: [(Setting, [String])] = []
            var arguments = settingFlags[...]
            while let flag = arguments.popFirst() {
                var value: String? = nil
                var flagName = flag
                if let equals = flag.firstIndex(of: "=") {
                    flagName = String(flag[..<equals])
                    value = String(flag[flag.index(after: equals)...])
                }
                if flagName == "-p" || flagName == "--profile" {
                    guard let v = value ?? arguments.popFirst() else {
                        throw CLIError.usage("\(flagName): give a name")
                    }
                    name = v
                    continue
                }
                // A device is no setting of a profile: it has its own table and command.
                if ["-d", "--device", "--devices"].contains(flagName) {
                    throw CLIError.usage(
                        "\(flagName): config init writes settings, and a device is not one; after it, "
                            + "apnsctl config add-device NAME TOKEN names a device for send -d NAME")
                }
                guard flagName.hasPrefix("--") else {
                    throw CLIError.usage(
                        "\(PrintableText.quoted(flag)): config init takes setting flags as --name value (--topic com.example.app)"
                    )
                }
                let key = String(flagName.dropFirst(2))
                let setting = try ProfileKeyCheck.setting(key, value: value, asFlag: true)
                if setting.kind == .boolean && value == nil {
                    value = "true"
                } else if value == nil {
                    guard let next = arguments.popFirst() else {
                        throw CLIError.usage("\(flagName): missing value")
                    }
                    value = next
                }
                if let index = given.firstIndex(where: { $0.0 == setting }), setting.isRepeatable {
                    given[index].1.append(value ?? "")
                } else {
                    given.removeAll { $0.0 == setting }
                    given.append((setting, [value ?? ""]))
                }
            }
            try Self.checkCombination(given.map(\.0.name), profile: name ?? "dev", in: world)
            if (try? FileSystem.checkOutputTarget(location.path)) != false {
                throw CLIError.outputExists(
                    "\(location.path): a settings file is already there, and init leaves it untouched; change it with \(location.configCommand("set")) (or give init another --config FILE)"
                )
            }
            let paths = world.settings.paths(baseDirectory: location.directory)
            var keys: [(String, String)] = []
            // Said once the file is written, so the commands they advise work on it.
            var kindWarnings: [String] = []
            for (setting, values) in given {
                try SetKey.refuseStandardInput("--\(setting.name)", setting: setting, values: values)
                if [.path, .credential].contains(setting.kind), let value = values.first,
                    VariableEcho.isSecretText(value)
                {
                    try SetKey.refuseSecret("--\(setting.name)", missing: value, given: value, in: world)
                }
                let made: (String, SettingValue)
                do { made = try ProfileValueText.text(for: setting, values: values, paths: paths) } catch {
                    throw CLIError(error)
                }
                let (text, value) = made
                keys.append((setting.name, text))
                if let warning = SetKey.credentialKindWarning(
                    setting.name, value, profile: name ?? "dev", location: location, label: "--\(setting.name)",
                    hasTeamID: given.contains { $0.0 == Setting.of(.teamID) })
                {
                    kindWarnings.append(warning)
                }
                if setting.isSecretFile, SetKey.missingFile(value) != nil,
                    SetKey.fileHere(values.first ?? "", in: world) == nil
                {
                    world.standardError.warning(
                        SetKey.secretFileWarning("--\(setting.name)", profile: name ?? "dev", location: location))
                } else if let missing = SetKey.missingFile(value) {
                    try SetKey.refuseSecret(
                        "--\(setting.name)", missing: missing, given: values.first ?? "", in: world)
                    world.standardError.warning(
                        SetKey.missingFileWarning(
                            "--\(setting.name)", missing, given: values.first ?? "",
                            fileDirectory: location.directory, in: world,
                            instead: { full in
                                return
                                    "\(location.configCommand("set")) --profile \(ShellWord.of(name ?? "dev")) \(setting.name) \(ShellWord.of(full))"
                            }))
                }
            }
            if name?.isEmpty == true { throw CLIError.usage("--profile: empty name; give the profile's name") }
            let profileName = name ?? (given.isEmpty ? nil : "dev")
            let text = StarterSettingsFile.text(profile: profileName.map { ($0, keys) })
            do {
                _ = try SettingsFile.parse(Array(text.utf8), path: location.path)
                // Where no command would read it (a folder others may write), nothing is written.
                _ = try SettingsFileReader.read(SettingsLocation(path: location.path, origin: .defaultValue))
                try FileSystem.makeDirectories(location.directory, mode: 0o700)
                try FileSystem.write(Array(text.utf8), to: location.path, mode: 0o600, overwrite: false)
            } catch let problem as SettingsProblem {
                throw CLIError(problem)
            } catch let failure as FileSystem.Failure {
                throw CLIError(failure)
            }
            let what = profileName.map { "profile \($0) (the default-profile)" } ?? "no profile yet"
            try ConfigOutput.write(
                ["wrote \(location.path) with \(what); apnsctl config list shows it".escapingControlsForOutput()],
                to: world.standardOutput, written: location.path)
            SettingsFileEdit.warnIfReplacingBuiltIn(profileName, before: nil, path: location.path, in: world)
            for warning in kindWarnings { world.standardError.warning(warning) }
        }
    }
}
