import APNSClient
import APNSCore
import APNSSettings

/// `send --channel … --dry-run`: the broadcast that would be sent to the first channel (method, URL,
/// headers, body) and the same request for `curl --http2`, secrets and credential paths as shell
/// variables. Connects to nothing.
enum BroadcastDryRun {
    /// The dry run of `plan`; nil without a channel.
    static func text(_ plan: BroadcastPlan, settings: ResolvedSettings) -> DryRunText? {
        guard let first = plan.jobs.first else { return nil }
        var notes: [String] = []
        if plan.jobs.count > 1 {
            notes.append(
                "# the same request goes to \(plan.jobs.count - 1) more channel\(plan.jobs.count == 2 ? "" : "s"), only apns-channel-id and apns-request-id differ"
            )
        }
        let endpoint = plan.route.endpoint
        return DryRunText(
            url: endpoint.url + first.request.path, headers: first.request.fields(authority: endpoint.authority),
            body: first.request.body, environment: plan.credentials.environment, tokenIDs: plan.credentials.tokenIDs,
            identity: plan.credentials.identity, proxy: nil, notes: notes, settings: settings)
    }
}
