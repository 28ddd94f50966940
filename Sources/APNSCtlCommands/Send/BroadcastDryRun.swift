import APNSClient
import APNSCore
import APNSSettings

/// `send --channel … --dry-run`: the broadcast that would be sent to the first channel (method, URL,
/// headers, body) and the same request for `curl --http2`, secrets and credential paths as shell
/// variables. Connects to nothing.
struct BroadcastDryRun: DryRunText {
    let plan: BroadcastPlan
    /// The resolved credentials and connection settings the curl block mirrors (secrets never printed).
    let settings: ResolvedSettings

    /// The text, line by line.
    func lines() -> [String] {
        guard let first = plan.jobs.first else { return [] }
        let url = plan.endpoint.url + first.request.path
        var out = ["POST \(url)"]
        var headers = first.request.fields(authority: plan.endpoint.authority)
        if let ids = plan.credentials.tokenIDs {
            headers.insert(HeaderField("authorization", "bearer $APNS_JWT"), at: min(4, headers.count))
            out.append("# token auth: key id \(ids.keyID), team id \(ids.teamID)")
        }
        out += headers.map { "\($0.name): \($0.value)" }
        out.append("")
        out.append(String(decoding: first.request.body, as: UTF8.self))
        out.append("")
        if plan.jobs.count > 1 {
            out.append("# the same request goes to \(plan.jobs.count - 1) more channel\(plan.jobs.count == 2 ? "" : "s"), only apns-channel-id and apns-request-id differ")
        }
        out.append("# \(plan.credentials.environment.rawValue), \(first.request.body.count) bytes; nothing was sent. The same request with curl:")
        return out + CurlCommand.lines(url: url, headers: headers, body: first.request.body, settings: settings,
                                       identity: plan.credentials.identity, tokenIDs: plan.credentials.tokenIDs)
    }
}
