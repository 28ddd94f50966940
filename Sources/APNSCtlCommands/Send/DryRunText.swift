import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// A dry run's text (`send --dry-run`, to devices or channels), built one way for both: `POST URL`, the
/// token-auth comment, the header lines with the bearer token as `$APNS_JWT`, the body, the notes on where
/// else the request goes, the closing comment, then the same request for `curl --http2`. Lines are built
/// once and written at once; nothing connects.
struct DryRunText {
    /// The request's URL (endpoint and path).
    let url: String
    /// Its header fields (`authorization` is added here with token auth, never with the token itself).
    var headers: [HeaderField]
    let body: [UInt8]
    let environment: APNSEnvironment
    /// Key id and team id with token auth.
    let tokenIDs: (keyID: String, teamID: String)?
    let identity: PushIdentity?
    /// The proxy curl should use too, when the dry run knows it.
    let proxy: ProxySelection?
    /// `#` lines after the body: the other targets, the second environment.
    let notes: [String]
    /// The resolved credentials and connection settings the curl block mirrors (secrets never printed).
    let settings: ResolvedSettings

    /// The text, line by line.
    func lines() -> [String] {
        var out = ["POST \(url)"]
        var headers = headers
        let authorization = APNSHeader.authorization.name
        if let ids = tokenIDs {
            headers.insert(.bearer("$APNS_JWT"), at: min(4, headers.count))
            out.append("# token auth: key id \(ids.keyID), team id \(ids.teamID)")
        }
        for h in headers {
            out.append(
                h.name == authorization
                    ? "\(authorization): \(HeaderField.bearer("$APNS_JWT").value)" : "\(h.name): \(h.value)")
        }
        out.append("")
        out.append(String(decoding: body, as: UTF8.self))
        out.append("")
        out += notes
        out.append("# \(environment.rawValue), \(body.count) bytes; nothing was sent. The same request with curl:")
        return out
            + CurlCommand.lines(
                url: url, headers: headers, body: body, settings: settings, identity: identity,
                tokenIDs: tokenIDs, proxy: proxy)
    }

    /// Writes the lines on `out` (standard output).
    func print(to out: OutputSink) {
        for line in lines() { out.line(line) }
        out.flush()
    }
}
