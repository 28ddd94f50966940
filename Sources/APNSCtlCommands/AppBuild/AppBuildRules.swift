import APNSAppBuild
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// What `--app` settles and refuses before anything connects: the build's bundle id as the default topic,
/// its token environment as the default `--env`, and exit 77 for a credential of another team, a certificate
/// whose topics lack the bundle id, and an `--env` the build's tokens do not belong to.
struct AppBuildRules {
    let build: AppBuild
    /// `--app Demo.ipa` (or the profile's name for it), for messages.
    let label: String

    /// The environment the build's tokens need, when the build says.
    var environment: APNSEnvironment? { build.tokenEnvironment }

    /// Refuses an environment setting other than the build's (77), named as it was given. One from the mock
    /// profile is the environment the mock plays, which the user changes by starting the mock again.
    func checkEnvironment(_ settings: ResolvedSettings) throws(CLIError) {
        guard let explicit = settings.explicitEnvironment, let needed = environment, explicit != needed else { return }
        if let mockFile = settings.mockReadyFile {
            throw .credential(
                "\(label)'s device tokens belong to \(needed.rawValue) (aps-environment \(build.apsEnvironment ?? "none")), but the mock of \(mockFile) plays \(explicit.rawValue): APNs would answer BadDeviceToken. To send to it, \(MockProfile.playAdvice(needed))"
            )
        }
        let flag = settings.label(.env)
        throw .credential(
            "\(flag) \(explicit.rawValue), but \(label)'s device tokens belong to \(needed.rawValue) (aps-environment \(build.apsEnvironment ?? "none")): APNs would answer BadDeviceToken. Leave \(flag) out, or pass the build the tokens came from"
        )
    }

    /// Refuses credentials of another team or, for a certificate, another bundle (77). `teamID` is token auth's.
    func checkCredentials(identity: CertificateInfo?, teamID: String?) throws(CLIError) {
        let credentialTeam = teamID ?? identity.flatMap(Self.team)
        if let buildTeam = build.teamID, let credentialTeam, credentialTeam != buildTeam {
            let what = teamID != nil ? "--team-id \(credentialTeam)" : "the certificate (team \(credentialTeam))"
            throw .credential(
                "\(what) is for another team than \(label) (team \(buildTeam)); APNs refuses a push to another team's app. Use the team's own key or certificate"
            )
        }
        if let info = identity, info.isApplePush, let bundle = build.topic, !info.topics.contains(bundle),
            info.bundleID != bundle
        {
            throw .credential(
                "the certificate is for \(info.bundleID ?? "another app") (topics: \(info.topics.joined(separator: ", "))), not \(bundle), the bundle id of \(label); APNs answers TopicDisallowed. Use that app's push certificate, or token auth"
            )
        }
    }

    /// Warnings worth a line before sending: no push capability, an expired profile, a disagreement, and an
    /// archive whose tokens' environment only `--env` can say (when none was given).
    func warnings(now: Int64, environmentGiven: Bool) -> [String] {
        var lines: [String] = []
        if build.lacksPush { lines.append(AppBuildMessages.noPush(build)) }
        if build.isArchiveBeforeDistribution && !environmentGiven {
            lines.append(AppBuildMessages.archiveBeforeDistribution(build))
        }
        if let expired = AppBuildMessages.expired(build, now: now) { lines.append(expired) }
        lines += build.disagreements.map { "\(build.path): \($0)" }
        return lines
    }

    /// A topic given elsewhere (`--topic`, a profile, an `.apns` file's bundle) that is not the build's app, with
    /// or without a push type's suffix: the push goes to another app than the one `--app` names, which token auth
    /// lets through without a word.
    func otherAppWarning(topic: String, label: String) -> String? {
        guard let bundle = build.topic else { return nil }
        let base = Broadcast.bundleID(fromTopic: topic)
        guard base.lowercased() != bundle.lowercased() else { return nil }
        return
            "\(label) \(topic) is not the app of \(self.label) (bundle id \(bundle)): the push goes to \(base), not to the build's app; leave \(label) out to send to \(bundle)"
    }

    /// The team an Apple push certificate names in its subject's `OU`.
    static func team(_ info: CertificateInfo) -> String? {
        for part in info.subject.split(separator: ",") {
            let entry = part.drop { $0 == " " }
            if entry.hasPrefix("OU=") { return String(entry.dropFirst(3)) }
        }
        return nil
    }
}

extension APNSCtl.Send {
    /// `--app`'s build, read, with its warnings on stderr; nil without `--app`.
    func appRules(_ settings: ResolvedSettings, in world: CommandWorld) throws(CLIError) -> AppBuildRules? {
        guard let path = settings[.app]?.value else { return nil }
        let rules = AppBuildRules(
            build: try AppBuildInput.read(path, flag: settings.label(.app)), label: "\(settings.label(.app)) \(path)")
        let given = settings.explicitEnvironment != nil
        for line in rules.warnings(now: world.clock.now(), environmentGiven: given) {
            world.standardError.warning(line)
        }
        return rules
    }
}
