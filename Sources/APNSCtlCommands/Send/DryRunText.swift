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

    /// The header fields as curl sends them: with token auth, `authorization` holds `$APNS_JWT`.
    private var sentHeaders: [HeaderField] {
        var headers = headers
        if tokenIDs != nil { headers.insert(.bearer("$APNS_JWT"), at: min(4, headers.count)) }
        return headers
    }

    /// The curl block's lines.
    private var curlLines: [String] {
        CurlCommand.lines(
            url: url, headers: sentHeaders, body: body, settings: settings, identity: identity, tokenIDs: tokenIDs,
            proxy: proxy)
    }

    /// The text, line by line.
    func lines() -> [String] {
        var out = ["POST \(url)"]
        let authorization = APNSHeader.authorization.name
        if let ids = tokenIDs { out.append("# token auth: key id \(ids.keyID), team id \(ids.teamID)") }
        for h in sentHeaders {
            out.append(
                h.name == authorization
                    ? "\(authorization): \(HeaderField.bearer("$APNS_JWT").value)" : "\(h.name): \(h.value)")
        }
        out.append("")
        out.append(PrintableText.escapingControlsButLayout(String(decoding: body, as: UTF8.self)))
        out.append("")
        out += notes
        out.append("# \(environment.rawValue), \(body.count) bytes; nothing was sent. The same request with curl:")
        return out + curlLines
    }

    /// The same as one JSON object, for `-o json`: what the text shows, in fields a script reads (`jq
    /// .headers`, `.payload.aps`). The bearer token is not there (`"auth":"token"` with its key and team id);
    /// the payload is embedded compact, and `curl` holds the curl block, one string.
    func json() -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("dry_run", true)
        w.field("environment", environment.rawValue)
        w.field("method", "POST")
        w.field("url", url)
        w.key("headers")
        w.beginObject()
        for h in headers where !h.name.hasPrefix(":") && h.name != APNSHeader.authorization.name {
            w.field(h.name, h.value)
        }
        w.endObject()
        w.field("auth", tokenIDs == nil ? "certificate" : "token")
        if let tokenIDs {
            w.field("key_id", tokenIDs.keyID)
            w.field("team_id", tokenIDs.teamID)
        }
        w.key("payload")
        w.embedded(body)
        w.field("size", body.count)
        w.field("notes", notes.map { String($0.drop { $0 == "#" || $0 == " " }) })
        w.field("curl", curlLines.joined(separator: "\n"))
        w.endObject()
        return w.text
    }

    /// Writes the text, or with `-o json` the JSON object on one line, on `out` (standard output).
    func print(to out: OutputSink, as format: OutputFormat) {
        switch format {
        case .text: for line in lines() { out.line(line) }
        case .json: out.line(json())
        }
        out.flush()
    }
}
