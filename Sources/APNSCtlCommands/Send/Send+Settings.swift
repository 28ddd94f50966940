import APNSPlatform
import APNSSettings

extension APNSCtl.Send {
    /// `send`'s settings, resolved once before any other check; with `-v` (from anywhere) their origins go to
    /// stderr before anything connects.
    func resolveSettings(in world: CommandWorld) throws(CLIError) -> ResolvedSettings {
        let settings = try settingsOptions.resolve(
            .send, from: self, world: world.settings, combinations: simulator == nil)
        if settings.isOn(.verbose) {
            for line in SettingsReport.verboseLines(settings) { world.standardError.print(line + "\n") }
        }
        return settings
    }
}
