import APNSAppBuild
import APNSCore
import APNSPlatform
import APNSSettings

/// `inspect` of an app build: what its tokens depend on, as aligned text or one JSON object (CLI.md's fields).
enum AppBuildReport {
    static func print(_ build: AppBuild, now: Int64, format: OutputFormat, to out: OutputSink) {
        let profile = build.profile
        let days = profile?.expires.map { Int(($0 - now) / 86_400) }
        let expired = profile?.expires.map { $0 <= now }
        switch format {
        case .json:
            var w = JSONWriter()
            w.beginObject()
            w.field("file", build.path)
            w.field("kind", build.kind.rawValue)
            w.field("app", build.appPath)
            w.field("bundle_id", build.bundleID)
            w.field("team_id", build.teamID)
            w.field("aps_environment", build.apsEnvironment)
            w.field("token_environment", build.tokenEnvironment?.rawValue)
            w.field("profile_name", profile?.name)
            w.field("profile_kind", profile?.kind.rawValue)
            w.field("expires", profile?.expires.map { ISO8601.format(epochSeconds: $0) })
            w.field("days_remaining", days)
            w.field("expired", expired)
            w.field("provisioned_devices", profile.map { $0.provisionsAllDevices ? nil : $0.provisionedDevices } ?? nil)
            w.field("executable_aps_environment", build.executableEntitlements?.apsEnvironment)
            w.field("disagreements", build.disagreements)
            w.endObject()
            out.print(w.text + "\n")
        case .text:
            var rows: [(String, String)] = [("file", build.path)]
            rows.append(
                ("kind", build.kind == .app ? "app" + (build.appPath.map { " (\($0))" } ?? "") : "provisioning profile")
            )
            rows.append(("bundle id", build.bundleID ?? "(none)"))
            rows.append(("team id", build.teamID ?? "(none)"))
            rows.append(("aps-environment", environmentLine(build)))
            if let profile {
                rows.append(("profile", (profile.name ?? "(no name)") + " (signature not verified)"))
                rows.append(("profile kind", profile.kind.label))
                if let expires = profile.expires, let days, let expired {
                    let left = expired ? "EXPIRED \(DayCount.text(-days)) ago" : "\(DayCount.text(days)) left"
                    rows.append(("expires", "\(ISO8601.format(epochSeconds: expires)) (\(left))"))
                }
                rows.append(
                    (
                        "devices",
                        profile.provisionsAllDevices
                            ? "all (enterprise)" : "\(profile.provisionedDevices) provisioned"
                    ))
            } else if build.isAppStoreDownload {
                rows.append(("profile", "none embedded: an App Store download, whose tokens are production"))
            } else if build.isUnsigned {
                rows.append(
                    ("profile", "none embedded, and the executable is not signed: a simulator or unsigned build"))
            } else if build.kind == .app {
                let signed = build.apsEnvironment == "development" ? "development" : "debugging (get-task-allow)"
                rows.append(("profile", "none embedded, yet signed for \(signed): a simulator or locally signed build"))
            }
            if let signed = build.executableEntitlements {
                rows.append(("executable", "signed with aps-environment \(signed.apsEnvironment ?? "(none)")"))
            } else if build.kind == .app {
                rows.append(("executable", "no signed entitlements"))
            }
            CredentialReport.printRows(rows, to: out)
        }
    }

    /// `development → --env sandbox`, or why there is no environment.
    static func environmentLine(_ build: AppBuild) -> String {
        if build.isArchiveBeforeDistribution {
            return "development (an archive before Distribute App): tokens are production for its exported build, "
                + "sandbox for one run from Xcode"
        }
        switch (build.apsEnvironment, build.tokenEnvironment) {
        case (let value?, let environment?): return "\(value) → --env \(environment.rawValue)"
        case (nil, let environment?): return "(none signed) → --env \(environment.rawValue)"
        case (let value?, nil):
            return "\(value): not development or production, so apnsctl cannot tell the tokens' environment"
        case (nil, nil) where build.isUnsigned:
            return
                "(none signed): an unsigned build says nothing of its tokens' environment (a simulator's are sandbox)"
        case (nil, nil):
            return "(none): the Push Notifications capability is not enabled, so no device token will work"
        }
    }
}
