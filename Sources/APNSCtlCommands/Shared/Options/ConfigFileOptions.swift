import APNSPlatform
import APNSSettings
import ArgumentParser

/// `--config FILE`: the settings file, for the config subcommands and (through `ProfileOptions`) every command
/// that reads settings.
struct ConfigFileOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Read this settings file instead of $APNSCTL_CONFIG or $XDG_CONFIG_HOME/apnsctl/config.toml.",
            valueName: "file"), completion: .file())
    var config: String?

    /// Where the settings file is (`--config`, else `APNSCTL_CONFIG`, else the default), which may be nowhere.
    func location(in world: CommandWorld) throws(CLIError) -> SettingsLocation {
        do {
            return try SettingsLocation.find(
                configFlag: config, variables: world.settings.variables, configHome: world.settings.configHome)
        } catch { throw CLIError(error) }
    }

    /// `location`, for a command that writes the file: with no home for the default one, 64.
    func writableLocation(in world: CommandWorld) throws(CLIError) -> SettingsLocation {
        let found = try location(in: world)
        guard !found.isNone else {
            let why = world.settings.noHomeReason(xdg: "XDG_CONFIG_HOME")
            throw .usage("no settings file: no home directory for the default one (\(why)); pass --config FILE")
        }
        return found
    }

    /// The settings input for `command`, as the command itself would read it (with `profile` as `-p`).
    func input(
        for command: SettingCommand, profile: String? = nil, profileLabel: String = "--profile", world: SettingsWorld
    ) throws(CLIError) -> SettingsInput {
        var flags = SettingFlags()
        flags.config = config
        flags.profile = profile
        flags.profileLabel = profileLabel
        do {
            return try SettingsInput.gather(command: command, flags: flags, world: world)
        } catch { throw CLIError(error) }
    }
}
