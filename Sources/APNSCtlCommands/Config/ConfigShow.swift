import APNSCore
import APNSSettings
import ArgumentParser

extension APNSCtl.Config {
    /// `apnsctl config show`: runs a command's resolver and prints every setting with its origin.
    struct Show: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show every setting a command would use, and where each comes from.",
            usage: "apnsctl config show [<profile>] [-p <name>] [--for <command>] [-o json]",
            discussion: """
                Runs the settings resolver of the command named by --for (default send) with PROFILE (or the \
                profile that command would pick: APNSCTL_PROFILE, then default-profile) and the current \
                APNSCTL_* variables, and prints one line per setting: name, value, origin (a flag, an \
                APNSCTL_ variable, a profile with its file and line, the built-in mock profile, or the \
                default). The profile may also be given as -p NAME, as send and config set take it. \
                Settings the command would refuse together (certificate and .p8 key from one place, a key id \
                without its key) are listed, then said as it would say them, exit 64. \
                -o json prints one object per setting: {"setting":…,"value":…,"origin":…} plus \
                "variable", or "profile", "file" and "line". Secrets are never printed: a passphrase shows as \
                (hidden), a PEM held in a variable as (PEM from APNSCTL_AUTH_KEY), a proxy without its password.
                """)

        @Argument(
            help: ArgumentHelp("The profile to show (default: the one the command would pick).", valueName: "profile"))
        var profile: String?

        @Option(
            name: [.customShort("p"), .customLong("profile")],
            help: ArgumentHelp("The profile to show, as send -p names it (the same as PROFILE).", valueName: "name"))
        var profileOption: String?

        @Option(
            name: .customLong("for"),
            help: ArgumentHelp(
                "The command whose settings to show (default send).", valueName: "send|channel|doctor|jwt"),
            completion: .list(SettingCommand.allCases.map(\.rawValue)))
        var command: String?

        @OptionGroup var file: ConfigFileOptions

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Format: text or json (one JSON object per setting).", valueName: "text|json"),
            completion: OutputFormat.completion, transform: OutputFormat.argument)
        var output: OutputFormat = .text

        func run(in world: CommandWorld) throws {
            let format = output
            guard let target = SettingCommand(rawValue: (command ?? "send").lowercased()) else {
                throw CLIError.usage(
                    "--for \(PrintableText.quoted(command ?? "")): not a command with settings; use send, channel, doctor or jwt"
                        + Suggestion.didYouMean(command ?? "", among: SettingCommand.allCases.map(\.rawValue)))
            }
            if let profile, let profileOption, profile != profileOption {
                throw CLIError.usage(
                    "two profiles: \(PrintableText.quoted(profile)) and \(PrintableText.quoted(profileOption)); give one"
                )
            }
            // The variables the command would say it does not read, said here too: config show is where a CI user
            // looks for why a setting is not what the job set.
            world.warnAboutUnreadVariables(command: [target.rawValue] + (target == .channel ? ["create"] : []))
            let resolved: ResolvedSettings
            do {
                // `config show dve`: the argument typed is named, not a --profile that was not.
                resolved = try SettingsResolver.resolve(
                    try file.input(
                        for: target, profile: profileOption ?? profile,
                        profileLabel: profileOption == nil && profile != nil ? "profile" : "--profile",
                        world: world.settings))
            } catch let e as SettingsProblem {
                // `config show topic`, as `git config get` reads one key: a setting's name where a profile goes.
                if let name = profile, profileOption == nil, SettingCatalog.setting(name) != nil,
                    e.message.contains("unknown profile")
                {
                    throw CLIError.usage(
                        "\(PrintableText.quoted(name)) is a setting, not a profile: config show takes a profile and lists "
                            + "every setting, \(name) among them (apnsctl config show | grep \(ShellWord.of(name)))")
                }
                throw CLIError(e)
            }
            // The port row shows a value send does not use beside an endpoint: said, as send says it.
            if let warning = resolved.ignoredPortWarning(endpoints: resolved.endpointList) {
                world.standardError.warning(warning)
            }
            try ConfigOutput.write(
                format == .json ? SettingsReport.showJSON(resolved) : SettingsReport.showText(resolved),
                to: world.standardOutput)
            // What send (or the command shown) would refuse, refused here too, after the rows that show where each
            // part comes from: config show is where a clash of a variable and a profile is looked for. No
            // credential at all only lists the settings.
            do { try resolved.checkCombinations(requiringCredential: false) } catch { throw CLIError(error) }
        }
    }
}
