import APNSClient
import APNSCore
import APNSSettings

/// `send --dry-run`: the request to the first device that would be sent (method, URL, headers, body) and an
/// equivalent `curl --http2` command, with secrets and credential paths as shell variables. Connects to nothing.
enum SendDryRun {
    /// The dry run of `plan`.
    static func text(_ plan: SendPlan, settings: ResolvedSettings) -> DryRunText {
        let device = plan.devices.first
        var notes: [String] = []
        if let count = plan.devices.count, count > 1 {
            notes.append(
                "# the same request goes to \(count - 1) more device\(count == 2 ? "" : "s"), only :path differs")
        } else if plan.devices.count == nil {
            notes.append(
                "# the same request goes to every further device of --devices \(plan.devices.file?.displayName ?? "-") (not read in a dry run), only :path differs"
            )
        }
        if let fallback = plan.fallback {
            notes.append(
                "# --env auto: each device \(plan.route.environment.rawValue) answers BadDeviceToken is sent once more to \(fallback.environment.rawValue) (\(fallback.endpoint.url))"
            )
        }
        let endpoint = plan.route.endpoint
        return DryRunText(
            url: endpoint.url + PushRequest.path(for: device),
            headers: plan.request.request(for: device).fields(authority: endpoint.authority),
            body: plan.request.payload, environment: plan.route.environment, tokenIDs: plan.credentials.tokenIDs,
            identity: plan.credentials.identity, proxy: plan.route.proxy, notes: notes, settings: settings)
    }
}
