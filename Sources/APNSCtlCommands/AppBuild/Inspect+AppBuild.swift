import APNSAppBuild
import APNSCore
import APNSPlatform

extension APNSCtl.Inspect {
    /// `inspect` of an app build: the report, a warning per disagreement and for a build without push, then 77
    /// for an expired profile.
    func inspectBuild(in world: CommandWorld) throws(CLIError) {
        try report(AppBuildInput.read(file, otherwise: ", or a .pem, .p12 or .p8 credential"), in: world)
    }

    /// The report of a build read (from its path, or a profile from standard input).
    func report(_ build: AppBuild, in world: CommandWorld) throws(CLIError) {
        let now = world.clock.now()
        AppBuildReport.print(build, now: now, format: output, to: world.standardOutput)
        for disagreement in build.disagreements { world.standardError.warning("\(file): \(disagreement)") }
        if build.lacksPush { world.standardError.warning(AppBuildMessages.noPush(build)) }
        if build.isArchiveBeforeDistribution {
            world.standardError.warning(AppBuildMessages.archiveBeforeDistribution(build))
        }
        if let expired = AppBuildMessages.expired(build, now: now) { throw .credential(expired) }
    }
}

/// What commands say about a build.
enum AppBuildMessages {
    static func noPush(_ build: AppBuild) -> String {
        if let value = build.apsEnvironment {
            return
                "\(build.path): aps-environment \(PrintableText.quoted(value)) is neither development nor production, so the app gets no device token; correct the entitlement and build again"
        }
        return
            "\(build.path): no aps-environment entitlement: enable the Push Notifications capability in Xcode (Signing & Capabilities) and build again; until then the app gets no device token"
    }

    /// An archive signed for development: the exported build's tokens are what count, and they may be either.
    static func archiveBeforeDistribution(_ build: AppBuild) -> String {
        "\(build.path): an Xcode archive signed for development, as Xcode signs one until Distribute App re-signs it: devices running the exported build (TestFlight, App Store, ad hoc) have production tokens, a build run from Xcode sandbox ones; pass --env production or --env sandbox, or --app the exported .ipa"
    }

    /// Why the build's profile stops it, or nil while it is valid.
    static func expired(_ build: AppBuild, now: Int64) -> String? {
        guard let expires = build.profile?.expires, expires <= now else { return nil }
        return
            "\(build.path): the provisioning profile \(build.profile?.name.map { "\"\($0)\" " } ?? "")expired on \(ISO8601.format(epochSeconds: expires)); the app no longer installs or launches with it. Renew it in the developer account (or let Xcode manage signing) and build again"
    }
}
