import APNSPlatform
import APNSSettings

extension APNSCtl.Send {
    /// The setting flags as the parser left them (nil and false: not given): the defaults live in the resolver.
    var settingFlags: SettingFlags {
        var f = SettingFlags()
        CredentialFlags.fill(&f, certificate: certificate, passphrase: passphrase, tokenAuth: tokenAuth)
        connection.fill(&f)
        f.topic = request.topic
        f.pushType = request.pushType
        f.priority = request.priority
        f.expiration = request.expiration
        f.sizeLimit = request.sizeLimit
        f.minify = request.minify
        f.resendUnknown = resendUnknown
        f.output = output
        f.quiet = quiet
        f.color = color?.rawValue
        f.verbose = verbose
        return f
    }

    /// `send`'s settings, resolved once before any other check; with `-v` (from anywhere) their origins go to
    /// stderr before anything connects.
    func resolveSettings(in world: CommandWorld) throws(CLIError) -> ResolvedSettings {
        let settings = try settingsOptions.resolve(.send, flags: settingFlags, world: world.settings)
        if settings.isOn("verbose") {
            for line in SettingsReport.verboseLines(settings) { world.standardError.print(line + "\n") }
        }
        return settings
    }
}
