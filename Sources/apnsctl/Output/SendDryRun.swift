import APNSClient
import APNSCrypto
import APNSCore

/// `send --dry-run`: the request that would be sent (method, URL, headers, body) and an equivalent
/// `curl --http2` command, with secrets and credential paths as shell variables. Connects to nothing.
struct SendDryRun {
    let plan: SendPlan
    let certificate: CertificateOptions
    let connection: SendConnectionOptions
    let tokenAuthKeyPath: String?

    /// Writes the request and the curl command on stdout.
    func print() {
        let out = OutputBuffer()
        for line in lines() { out.line(line) }
        out.flush()
    }

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
        if plan.deviceCount > 1 {
            out.append("# the same request goes to \(plan.deviceCount - 1) more device\(plan.deviceCount == 2 ? "" : "s"), only :path differs")
        }
        if let fallback = plan.fallback {
            out.append("# --env auto: each device \(plan.environment.rawValue) answers BadDeviceToken is sent once more to \(fallback.environment.rawValue) (\(fallback.endpoint.url))")
        }
        out.append("# \(plan.environment.rawValue), \(plan.request.payload.count) bytes; nothing was sent. The same request with curl:")
        out += curl(url: url, headers: headers)
        return out
    }

    private func curl(url: String, headers: [HeaderField]) -> [String] {
        var vars: [String] = []
        var cmd = ["curl --http2 -sS -i"]
        if let cert = certificate.cert, let identity = plan.identity {
            vars.append("APNS_CERT=\(shellQuoted(cert))")
            cmd.append("--cert \"$APNS_CERT\"" + (identity.container == .pkcs12 ? " --cert-type P12" : ""))
            if let key = certificate.key {
                vars.append("APNS_KEY=\(shellQuoted(key))")
                cmd.append("--key \"$APNS_KEY\"")
            }
            if identity.needsPassphrase {
                vars.append("APNS_PASSPHRASE=<its passphrase>")
                cmd.append("--pass \"$APNS_PASSPHRASE\"")
            }
        }
        if let ids = plan.tokenIDs, let key = tokenAuthKeyPath {
            vars.append("APNS_JWT=$(apnsctl jwt --auth-key \(shellQuoted(key)) --key-id \(ids.keyID) --team-id \(ids.teamID))")
        }
        if let ca = connection.caFile { cmd.append("--cacert \(shellQuoted(ca))") }
        if connection.insecure { cmd.append("--insecure") }
        cmd += proxyArguments(&vars)
        for h in headers where !h.name.hasPrefix(":") && h.name != "content-length" {
            let value = h.name == "authorization" ? "bearer $APNS_JWT" : h.value
            // Double quotes so $APNS_JWT expands; the other values are escaped for them.
            cmd.append("-H \"\(h.name): \(doubleQuoteEscaped(value, keepVariable: h.name == "authorization"))\"")
        }
        cmd.append("--data-binary \(shellQuoted(String(decoding: plan.request.payload, as: UTF8.self)))")
        cmd.append(shellQuoted(url))
        var out: [String] = []
        if !vars.isEmpty { out.append("# " + vars.joined(separator: "  ")) }
        out.append(cmd.joined(separator: " \\\n  "))
        return out
    }

    /// `--proxy URL` (and `--proxy-user` from a shell variable: the password is never printed), or
    /// `--noproxy '*'` when a configured proxy is skipped, so curl goes the same way apnsctl would.
    private func proxyArguments(_ vars: inout [String]) -> [String] {
        guard let proxy = plan.proxy.proxy else {
            return plan.proxy.source != nil || connection.proxy != nil ? ["--noproxy '*'"] : []
        }
        var out = ["--proxy \(shellQuoted(proxy.urlWithoutCredentials))"]
        if let user = proxy.user {
            vars.append("APNS_PROXY_USER=\(shellQuoted(user)):<its password>")
            out.append("--proxy-user \"$APNS_PROXY_USER\"")
        }
        return out
    }

    /// `'text'` with embedded single quotes closed and reopened, safe for any shell word.
    private func shellQuoted(_ text: String) -> String {
        var out = "'"
        for ch in text { out += ch == "'" ? "'\\''" : String(ch) }
        return out + "'"
    }

    private func doubleQuoteEscaped(_ text: String, keepVariable: Bool) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "\\", "\"", "`": out += "\\" + String(ch)
            case "$" where !keepVariable: out += "\\$"
            default: out.append(ch)
            }
        }
        return out
    }
}
