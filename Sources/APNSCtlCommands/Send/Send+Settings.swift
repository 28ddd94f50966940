import APNSPlatform
import APNSSettings

extension APNSCtl.Send {
    /// `send`'s settings, resolved once before any other check; with `-v` (from anywhere) their origins go to
    /// stderr before anything connects.
    func resolveSettings(in world: CommandWorld) throws(CLIError) -> ResolvedSettings {
        // A script that meant a dry run must not send: refused, not only said (the variable sets nothing). A value
        // that says no (`${DRY:-0}`) is only said.
        if !dryRun, let name = UnreadVariables.dryRunVariable(in: world.settings.variables) {
            throw CLIError.usage(
                "\(name) is set, but --dry-run has no variable (variables set settings only), and nothing was sent: give --dry-run on the command line, or unset \(name) to send"
            )
        }
        // Said first: a misspelt variable (APNSCTL_CERTT) is often why the settings are refused.
        world.warnAboutUnreadVariables(command: ["send"], given: dryRun ? ["APNSCTL_DRY_RUN"] : [])
        let replayed = history.replayed.credential
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
