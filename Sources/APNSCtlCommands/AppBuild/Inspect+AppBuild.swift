import APNSAppBuild
import APNSCore
import APNSPlatform

extension APNSCtl.Inspect {
    /// `inspect` of an app build: the report, a warning per disagreement and for a build without push, then 77
    /// for an expired profile.
    func inspectBuild(in world: CommandWorld) throws(CLIError) {
        let build = try AppBuildInput.read(file, otherwise: ", or a .pem, .p12 or .p8 credential")
        let now = world.clock.now()
        AppBuildReport.print(build, now: now, format: output, to: world.standardOutput)
        for disagreement in build.disagreements { world.standardError.warning("\(file): \(disagreement)") }
        if build.tokenEnvironment == nil && !build.isUnsigned {
            world.standardError.warning(AppBuildMessages.noPush(build))
        }
        if let expired = AppBuildMessages.expired(build, now: now) { throw .credential(expired) }
    }
}

/// What commands say about a build.
enum AppBuildMessages {
    static func noPush(_ build: AppBuild) -> String {
        "\(build.path): no aps-environment entitlement: enable the Push Notifications capability in Xcode (Signing & Capabilities) and build again; until then the app gets no device token"
    }

    /// Why the build's profile stops it, or nil while it is valid.
    static func expired(_ build: AppBuild, now: Int64) -> String? {
        guard let expires = build.profile?.expires, expires <= now else { return nil }
        return
            "\(build.path): the provisioning profile \(build.profile?.name.map { "\"\($0)\" " } ?? "")expired on \(ISO8601.format(epochSeconds: expires)); the app no longer installs or launches with it. Renew it in the developer account (or let Xcode manage signing) and build again"
    }
}
