import APNSPlatform
import APNSSettings

extension APNSCtl.Send {
    /// `send`'s settings, resolved once before any other check; with `-v` (from anywhere) their origins go to
    /// stderr before anything connects.
    func resolveSettings(in world: CommandWorld) throws(CLIError) -> ResolvedSettings {
        // Said first: a misspelt variable (APNSCTL_CERTT) is often why the settings are refused.
        for warning in UnreadVariables.warnings(
            world.settings.variables, commandFlags: { OtherToolFlags.longFlags(of: ["send"]) })
        {
            world.standardError.warning(warning)
        }
        let replayed = history.replayedCredential
        let settings = try settingsOptions.resolve(
            .send, from: self, world: world.settings, combinations: simulator == nil && replayed == nil)
        if simulator == nil, let replayed {
            // A replay without a credential is told which one its entry was sent with.
            do {
                try settings.checkCombinations(
                    noCredential:
                        "no credential: the history keeps none, and this entry was sent with \(replayed); give it again (--cert FILE, or --auth-key FILE with --team-id), or choose a profile with -p (apnsctl config list shows them)"
                )
            } catch { throw CLIError(error) }
        }
        if settings.isOn(.verbose) {
            for line in SettingsReport.verboseLines(settings) { world.standardError.print(line + "\n") }
        }
        return settings
    }
}
