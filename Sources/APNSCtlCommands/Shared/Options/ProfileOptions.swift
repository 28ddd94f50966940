import APNSCore
import APNSPlatform
import APNSSettings
import ArgumentParser

/// `-p/--profile NAME` and `--config FILE`: which profile and which settings file a settings command reads.
/// `resolve` is the one place a command turns its flags, the `APNSCTL_*` variables and the profile into one
/// `ResolvedSettings`, before any other check (CLI.md, "Settings").
struct ProfileOptions: ParsableArguments {
    @Option(
        name: [.customShort("p"), .customLong("profile")],
        help: ArgumentHelp(
            "Take unset settings from this profile of the settings file. Without it: $APNSCTL_PROFILE, else the file's default-profile; mock is built in. apnsctl config list shows them.",
            valueName: "name"))
    var profile: String?

    @OptionGroup var file: ConfigFileOptions

    /// The command's settings from the setting flags given in `parsed` (the parsed command), the variables
    /// and the profile, with CLI.md's combination rules checked on the result. 64 for a bad value, file or
    /// combination, 66 for a missing named file or `mock.json`. `world`: the command's (`CommandWorld.settings`).
    /// `combinations: false`: skip the credential rules (`send --simulator` takes none).
    func resolve(_ command: SettingCommand, from parsed: Any, world: SettingsWorld, combinations: Bool = true)
        throws(CLIError) -> ResolvedSettings
    {
        var flags = SettingFlags.commandLine(of: parsed, for: command)
        flags.profile = profile
        flags.config = file.config
        do {
            let input = try SettingsInput.gather(command: command, flags: flags, world: world)
            let resolved = try SettingsResolver.resolve(input)
            if combinations { try resolved.checkCombinations() }
            return resolved
        } catch {
            throw CLIError(error)
        }
    }

    /// Why `send` would refuse the settings `parsed` (a doctor's run) leaves to it: the variables and the profile,
    /// with the command line's credentials and connection beside them but not its `env`, which means "probe
    /// these" to doctor. Nil when send takes them. Doctor reads none of send's own values (a priority, an
    /// expiration, a size limit), so one it passes can still stop every send with this profile at 64.
    func sendRefusal(from parsed: Any, world: SettingsWorld) -> CLIError? {
        var flags = SettingFlags.commandLine(of: parsed, for: .send)
        flags.set(.of(.env), nil)
        flags.profile = profile
        flags.config = file.config
        do {
            try SettingsResolver.resolve(SettingsInput.gather(command: .send, flags: flags, world: world))
                .checkCombinations()
            return nil
        } catch {
            return CLIError(error)
        }
    }
}
