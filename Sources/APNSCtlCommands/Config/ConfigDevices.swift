import APNSCore
import APNSSettings
import ArgumentParser

extension APNSCtl.Config {
    /// `apnsctl config add-device`: a device name for `-d NAME`, in `[devices]` or a profile's own table.
    struct AddDevice: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-device",
            abstract: "Name a device token in the settings file, for -d NAME and --devices.",
            usage: "apnsctl config add-device <name> <token> [--profile <name>]",
            discussion: """
                Writes NAME = "TOKEN" into [devices], or with --profile into [profiles.NAME.devices] (which \
                wins for that profile); an existing NAME gets the new token, and a warning says what it named. The token is checked and \
                normalised as -d does it (Xcode's <xxxxxxxx xxxxxxxx ...> form accepted); a NAME made only of \
                hex digits is refused, as -d NAME would read it as a token. The built-in profiles mock and mock-token \
                read [devices]: --profile mock is refused until the file has its own [profiles.mock].

                Example:
                  apnsctl config add-device my-iphone \\
                      3f2a000000000000000000000000000000000000000000000000000000009c1d
                """)

        @Option(
            name: [.customShort("p"), .customLong("profile")],
            help: ArgumentHelp("Name the device in this profile's own table only.", valueName: "name"))
        var profile: String?

        @OptionGroup var file: ConfigFileOptions

        @Argument(help: ArgumentHelp("The device's name.", valueName: "name"))
        var name: String

        @Argument(help: ArgumentHelp("Its device token (hex).", valueName: "token"))
        var token: String

        func run(in world: CommandWorld) throws {
            guard !name.isEmpty else { throw CLIError.usage("empty device name; give one, e.g. my-iphone") }
            // A name goes after -d and on a line of a --devices list, where # starts a comment and blanks around it
            // are trimmed: each of these is said with the place that cannot give it. Blanks inside ("Ada's iPhone",
            // as iOS names a device) can be given in both.
            let blank: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace }
            let cause: String? =
                SettingsName.hasControl(name)
                ? "has a control character, which neither -d nor a --devices list can give"
                : name.unicodeScalars.first.map(blank) == true || name.unicodeScalars.last.map(blank) == true
                    ? "has a blank at an end, which -d and a --devices list trim"
                    : name.hasPrefix("#") ? "starts with #, which starts a comment in a --devices list" : nil
            if let cause {
                let word = SettingsName.suggestion(for: name)
                throw CLIError.usage(
                    "device name \(PrintableText.quoted(name)) \(cause)"
                        + (word.isEmpty ? "" : "; name it \(ShellWord.of(word))"))
            }
            if let why = DeviceNames.tokenReading(name) {
                // The token first and the name after it: the order swapped, not a name to invent.
                if (try? DeviceToken(parsing: name)) != nil, (try? DeviceToken(parsing: token)) == nil,
                    !DeviceNames.isHexOnly(token), PrintableText.escapingControls(token) == token
                {
                    let options =
                        (profile.map { " --profile \(ShellWord.of($0))" } ?? "")
                        + (file.config.map { " " + SettingsLocation.configFlagWords(for: $0).joined(separator: " ") }
                            ?? "")
                    throw CLIError.usage(
                        "config add-device takes the name first, then the token: apnsctl config add-device\(options) \(ShellWord.of(token)) \(name)"
                    )
                }
                let mended = DeviceNames.isHexOnly(name) ? "a name with another letter (my-\(name))" : "another name"
                throw CLIError.usage(
                    "device name \(PrintableText.quoted(name)) \(why), so -d \(ShellWord.of(name)) would read as a token; give it \(mended)"
                )
            }
            let parsed: DeviceToken
            do { parsed = try DeviceToken(parsing: token) } catch {
                throw CLIError.usage("device token for \(PrintableText.quoted(name)): \(error.message)")
            }
            var edit = try SettingsFileEdit(options: file, world: world)
            let table = profile.map { ["profiles", $0, "devices"] } ?? ["devices"]
            // A name given again replaces its token (as set does a key): said, as a slip here loses the old one.
            let before = try edit.file
            // A built-in profile's table that holds only devices would replace the built-in and its credentials:
            // `-p mock` would have none. Its device names belong in [devices], which every profile reads.
            if let profile, MockProfile.names.contains(profile), before.profile(profile) == nil {
                let config =
                    file.config.map { " " + SettingsLocation.configFlagWords(for: $0).joined(separator: " ") } ?? ""
                throw CLIError.usage(
                    "--profile \(profile) is the built-in profile of apnsctl mock: a [profiles.\(profile).devices] table would replace it, and -p \(profile) would lose the mock's credentials. Name the device in [devices], which -p \(profile) reads too: apnsctl config add-device\(config) \(ShellWord.of(name)) \(parsed.hex)"
                )
            }
            let old = (profile.flatMap { before.profile($0)?.devices } ?? before.devices).first { $0.name == name }
            let line: Int
            do { line = try edit.editor.set(name, to: ProfileValueText.quoted(parsed.hex), in: table) } catch {
                throw CLIError(error)
            }
            try edit.write(
                "\(ProfileValueText.key(name)) = \(ProfileValueText.quoted(parsed.hex)) in \(SettingsEditor.header(table)), \(edit.location.path):\(line)"
            )
            SettingsFileEdit.warnIfReplacingBuiltIn(profile, before: before, path: edit.location.path, in: world)
            if let old, old.value != .string(parsed.hex) {
                let was = if case .string(let text) = old.value { text } else { old.value.typeName }
                world.standardError.warning(
                    "\(name) named \(was.escapingControlsForOutput()) until now; it names the new token")
            }
            // Written as -d takes it, and told as -d tells it: a short token is a copy cut short, usually.
            if parsed.looksTruncated {
                world.standardError.warning(
                    "\(name): only \(parsed.hex.utf8.count) hex digits (tokens are usually 64); was the copy cut short?"
                )
            }
        }
    }

    /// `apnsctl config remove-device`: removes a device name.
    struct RemoveDevice: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-device",
            abstract: "Remove a device name from the settings file.",
            usage: "apnsctl config remove-device <name> [--profile <name>]",
            discussion: """
                Removes NAME from [devices], or with --profile from [profiles.NAME.devices]; every other line \
                stays. An unknown NAME is exit 64 with a "did you mean".
                """)

        @Option(
            name: [.customShort("p"), .customLong("profile")],
            help: ArgumentHelp("Remove it from this profile's own table.", valueName: "name"))
        var profile: String?

        @OptionGroup var file: ConfigFileOptions

        @Argument(help: ArgumentHelp("The device's name.", valueName: "name"))
        var name: String

        func run(in world: CommandWorld) throws {
            // A file refused for a device name (one made of hex digits) is mended by removing it.
            var edit = try SettingsFileEdit(options: file, world: world, repairing: true)
            try edit.requireProfile(profile)
            let table = profile.map { ["profiles", $0, "devices"] } ?? ["devices"]
            let removed: Bool
            do { removed = try edit.editor.remove(name, from: table) } catch { throw CLIError(error) }
            guard removed else {
                let known: [String]
                let parsed = try edit.file
                known = (profile.flatMap { parsed.profile($0)?.devices } ?? parsed.devices).map(\.name)
                // The name in another table of the file: the command that removes it there.
                let elsewhere =
                    ([nil] + parsed.profiles.map(\.name)).first { other in
                        other != profile
                            && (other.flatMap { parsed.profile($0)?.devices } ?? parsed.devices).contains {
                                $0.name == name
                            }
                    }
                let near =
                    elsewhere.map { other in
                        "it is in \(SettingsEditor.header(other.map { ["profiles", $0, "devices"] } ?? ["devices"])): "
                            + "\(edit.location.configCommand("remove-device"))\(other.map { " --profile \(ShellWord.of($0))" } ?? "") "
                            + ShellWord.of(name)
                    }
                    ?? Suggestion.closest(to: name, among: known).map { "did you mean \(PrintableText.quoted($0))?" }
                    ?? (known.isEmpty ? "it has none" : "its names: \(known.joined(separator: ", "))")
                throw CLIError.usage(
                    "\(PrintableText.quoted(name)): no such device name in \(SettingsEditor.header(table)) of \(edit.location.path); \(near)"
                )
            }
            try edit.write(
                "removed \(ProfileValueText.key(name)) from \(SettingsEditor.header(table)), \(edit.location.path)")
            do { _ = try edit.file } catch {
                world.standardError.warning("the file still does not load: \(error.message ?? "")")
            }
        }
    }
}
