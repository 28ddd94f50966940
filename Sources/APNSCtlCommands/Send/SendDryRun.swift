import APNSClient
import APNSCrypto
import APNSCore
import APNSSettings

/// `send --dry-run`: the request that would be sent (method, URL, headers, body) and an equivalent
/// `curl --http2` command, with secrets and credential paths as shell variables. Connects to nothing.
struct SendDryRun: DryRunText {
    let plan: SendPlan
    /// The resolved credentials and connection settings the curl block mirrors (secrets never printed).
    let settings: ResolvedSettings

    /// The text, line by line.
    func lines() -> [String] {
        let device = plan.firstDevice
        let url = plan.endpoint.url + PushRequest.path(for: device)
        var out = ["POST \(url)"]
        var headers = plan.request.request(for: device).fields(authority: plan.endpoint.authority)
        if let ids = plan.tokenIDs {
            headers.insert(HeaderField("authorization", "bearer $APNS_JWT"), at: min(4, headers.count))
            out.append("# token auth: key id \(ids.keyID), team id \(ids.teamID)")
        }
        for h in headers {
            out.append(h.name == "authorization" ? "authorization: bearer $APNS_JWT" : "\(h.name): \(h.value)")
        }
        out.append("")
        out.append(String(decoding: plan.request.payload, as: UTF8.self))
        out.append("")
        if let count = plan.deviceCount, count > 1 {
            out.append("# the same request goes to \(count - 1) more device\(count == 2 ? "" : "s"), only :path differs")
        } else if plan.deviceCount == nil {
            out.append("# the same request goes to every further device of --devices \(plan.deviceFile?.displayName ?? "-") (not read in a dry run), only :path differs")
        }
        if let fallback = plan.fallback {
            out.append("# --env auto: each device \(plan.environment.rawValue) answers BadDeviceToken is sent once more to \(fallback.environment.rawValue) (\(fallback.endpoint.url))")
        }
        out.append("# \(plan.environment.rawValue), \(plan.request.payload.count) bytes; nothing was sent. The same request with curl:")
        out += curl(url: url, headers: headers)
        return out
    }

    private func curl(url: String, headers: [HeaderField]) -> [String] {
        CurlCommand.lines(url: url, headers: headers, body: plan.request.payload, settings: settings, identity: plan.identity,
                          tokenIDs: plan.tokenIDs, proxy: plan.proxy)
    }
}
