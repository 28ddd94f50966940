import APNSAppBuild
import APNSCore
import APNSCrypto

extension AppBuildRules {
    /// doctor's `app` line: the build's bundle id and team against the credential's, its `aps-environment`
    /// (missing fails), and its profile's expiry, treated as `--fail-within` treats certificates. A failure is
    /// a credential problem (77) and stops the run before the network, except a profile within `--fail-within`:
    /// as for a certificate, the network checks still run.
    /// `environments`: those `--env` (or its setting) names, so an archive's doubt is no warning, and one that is
    /// not the build's is (doctor probes what it is told; `send` would refuse those tokens there).
    func doctorCheck(
        identity: CertificateInfo?, teamID: String?, now: Int64, failWithin: Int64?,
        failWithinLabel: String = "--fail-within", environments: [APNSEnvironment]? = nil,
        environmentLabel: String = "--env"
    ) -> (check: DoctorCheck, stopBeforeNetwork: Bool) {
        let profile = build.profile
        var detail =
            "\(build.path): \(build.bundleID ?? "(no bundle id)"), team \(build.teamID ?? "(none)"), "
            + "aps-environment \(AppBuildReport.environmentLine(build))"
        if let profile {
            detail += ", \(profile.kind.label) profile"
            if let expires = profile.expires {
                // Worded as inspect words it: an expired profile's days are ago, not "-333 days left".
                let days = (expires - now) / 86_400
                let left = expires <= now ? "EXPIRED \(DayCount.text(-days)) ago" : "\(DayCount.text(days)) left"
                detail += " expires \(ISO8601.format(epochSeconds: expires)) (\(left))"
            }
        }
        var check = DoctorCheck(name: "app", status: .ok, detail: detail)
        func fail(_ hint: String) {
            check.status = .fail
            check.problem = .credential
            check.hint = hint
        }
        do throws(CLIError) {
            try checkCredentials(identity: identity, teamID: teamID)
        } catch {
            if case .credential(let message) = error { fail(message) }
        }
        guard check.status == .ok else { return (check, true) }
        if build.lacksPush {
            fail(AppBuildMessages.noPush(build))
        } else if let expired = AppBuildMessages.expired(build, now: now) {
            fail(expired)
        } else if let expires = profile?.expires, let failWithin, expires - now <= failWithin {
            fail(
                "the provisioning profile expires within \(failWithinLabel) \(APNSCtl.Doctor.formatDuration(failWithin)): renew it before \(ISO8601.format(epochSeconds: expires))"
            )
            return (check, false)
        } else if let environments, let own = environment, !environments.contains(own) {
            check.status = .warn
            check.hint =
                "\(environmentLabel) \(environments.map(\.rawValue).joined(separator: ", ")) is probed, but this build's device tokens belong to \(own.rawValue): sent there, they are refused (BadDeviceToken); leave \(environmentLabel) out to probe \(own.rawValue)"
        } else if let expires = profile?.expires, expires - now <= DoctorPlan.expiryWarningSeconds {
            check.status = .warn
            check.hint = "renew the provisioning profile before \(ISO8601.format(epochSeconds: expires))"
        } else if let disagreement = build.disagreements.first {
            check.status = .warn
            check.hint = disagreement
        } else if build.isArchiveBeforeDistribution && environments == nil {
            check.status = .warn
            check.hint = AppBuildMessages.archiveBeforeDistribution(build)
        }
        return (check, check.status == .fail)
    }
}
