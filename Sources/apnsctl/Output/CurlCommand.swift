import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform

/// An equivalent `curl --http2` command for a dry run: credentials and the bearer token as shell variables
/// (never the secrets themselves), every other header and the body quoted for any POSIX shell. The variables
/// are real assignments, set from the same files before the command, so the part from the `# … curl:` line
/// on runs when pasted into `sh` (CLI.md, `send`, "Input and output at the edges").
struct CurlCommand {
    /// Comment lines and assignments, in order, before the command.
    private var variables: [String] = []
    private var words = ["curl --http2 -sS -i"]
    private let url: String

    /// A command for `url`.
    init(url: String) { self.url = url }

    /// The dry runs' command: `send`'s credential and connection flags as curl options, then the request.
    static func lines(url: String, headers: [HeaderField], body: [UInt8], certificate: CertificateOptions,
                      identity: PushIdentity?, tokenIDs: (keyID: String, teamID: String)?, tokenAuthKeyPath: String?,
                      connection: SendConnectionOptions, proxy: ProxySelection? = nil, passphraseFile: String? = nil) -> [String] {
        var curl = CurlCommand(url: url)
        if let cert = certificate.cert, let identity {
            curl.certificate(path: cert, keyPath: certificate.key, identity: identity, passphraseFile: passphraseFile)
        }
        if let tokenIDs, let tokenAuthKeyPath {
            curl.token(keyPath: tokenAuthKeyPath, keyID: tokenIDs.keyID, teamID: tokenIDs.teamID)
        }
        curl.trust(caFile: connection.caFile, insecure: connection.insecure)
        if let proxy { curl.proxy(proxy, explicitFlag: connection.proxy != nil) }
        curl.headers(headers)
        curl.body(body)
        return curl.lines
    }

    /// `--cert` (with `--cert-type P12` for PKCS#12, `DER` for a bare DER certificate), `--key` (`--key-type DER`
    /// likewise), and `--pass` when a passphrase is needed: curl reads PEM unless told.
    /// The passphrase is read by the block itself: from `passphraseFile`'s first line when one was given, else
    /// from `APNSCTL_PASSPHRASE`, which a comment says to set; never printed.
    mutating func certificate(path: String, keyPath: String?, identity: PushIdentity, passphraseFile: String? = nil) {
        if identity.container == .pkcs12, let bytes = try? FileSystem.read(path), PKCS12LegacyCiphers.used(in: bytes) {
            legacyCertificate(path: path, passphraseFile: passphraseFile)
            return
        }
        variables.append("APNS_CERT=\(Self.shellQuoted(path))")
        let certType = identity.container == .pkcs12 ? " --cert-type P12" : identity.certificateIsDER ? " --cert-type DER" : ""
        words.append("--cert \"$APNS_CERT\"" + certType)
        if let keyPath {
            variables.append("APNS_KEY=\(Self.shellQuoted(keyPath))")
            words.append("--key \"$APNS_KEY\"" + (identity.keyIsDER ? " --key-type DER" : ""))
        }
        if identity.needsPassphrase {
            if let passphraseFile {
                variables.append("APNS_PASSPHRASE=$(head -n 1 \(Self.shellQuoted(passphraseFile)) | tr -d '\\r')")
            } else {
                variables.append("# the passphrase: set APNSCTL_PASSPHRASE before running this")
                variables.append("APNS_PASSPHRASE=\"$APNSCTL_PASSPHRASE\"")
            }
            words.append("--pass \"$APNS_PASSPHRASE\"")
        }
    }

    /// A legacy RC2 `.p12`, which curl's OpenSSL 3 cannot read: the block makes a PEM with `apnsctl convert`
    /// (same passphrase sources as send) and gives curl that.
    private mutating func legacyCertificate(path: String, passphraseFile: String?) {
        let pem = path + ".pem"
        variables.append("# \(Self.commentSafe(path)) uses legacy RC2 encryption, which curl's OpenSSL 3 cannot read; "
            + "this makes a PEM curl can use (certificate and unencrypted key, mode 0600; delete it afterwards)")
        if passphraseFile == nil { variables.append("# the passphrase: set APNSCTL_PASSPHRASE before running this") }
        variables.append("apnsctl convert \(Self.shellQuoted(path)) -o \(Self.shellQuoted(pem)) --force"
            + (passphraseFile.map { " --passphrase-file \(Self.shellQuoted($0))" } ?? ""))
        variables.append("APNS_CERT=\(Self.shellQuoted(pem))")
        words.append("--cert \"$APNS_CERT\"")
    }

    /// A path inside a comment line: a line break in it would end the comment and run the rest.
    private static func commentSafe(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    /// `APNS_JWT` from `apnsctl jwt`, for the `authorization` header.
    mutating func token(keyPath: String, keyID: String, teamID: String) {
        variables.append("APNS_JWT=$(apnsctl jwt --auth-key \(Self.shellQuoted(keyPath)) --key-id \(keyID) --team-id \(teamID))")
    }

    /// `--proxy URL` (and `--proxy-user` from a shell variable: the password is never printed), or
    /// `--noproxy '*'` when a configured proxy is skipped, so curl goes the same way apnsctl would.
    mutating func proxy(_ selection: ProxySelection, explicitFlag: Bool) {
        guard let proxy = selection.proxy else {
            if selection.source != nil || explicitFlag { words.append("--noproxy '*'") }
            return
        }
        words.append("--proxy \(Self.shellQuoted(proxy.urlWithoutCredentials))")
        if let user = proxy.user {
            variables.append("# the proxy password: set APNS_PROXY_PASSWORD before running this")
            variables.append("APNS_PROXY_USER=\(Self.shellQuoted(user + ":"))\"$APNS_PROXY_PASSWORD\"")
            words.append("--proxy-user \"$APNS_PROXY_USER\"")
        }
    }

    /// `--cacert` and `--insecure`.
    mutating func trust(caFile: String?, insecure: Bool) {
        if let caFile { words.append("--cacert \(Self.shellQuoted(caFile))") }
        if insecure { words.append("--insecure") }
    }

    /// One `-H` per header but pseudo-headers and `content-length`; `authorization` as `$APNS_JWT`.
    mutating func headers(_ headers: [HeaderField]) {
        for h in headers where !h.name.hasPrefix(":") && h.name != "content-length" {
            let isToken = h.name == "authorization"
            // Double quotes so $APNS_JWT expands; the other values are escaped for them.
            words.append("-H \"\(h.name): \(Self.doubleQuoteEscaped(isToken ? "bearer $APNS_JWT" : h.value, keepVariable: isToken))\"")
        }
    }

    /// `--data-binary` with the body.
    mutating func body(_ body: [UInt8]) {
        words.append("--data-binary \(Self.shellQuoted(String(decoding: body, as: UTF8.self)))")
    }

    /// The assignments (and comments), one a line, then the command, one option per continued line.
    var lines: [String] {
        variables + [(words + [Self.shellQuoted(url)]).joined(separator: " \\\n  ")]
    }

    /// `'text'` with embedded single quotes closed and reopened, safe for any shell word.
    static func shellQuoted(_ text: String) -> String {
        var out = "'"
        for ch in text { out += ch == "'" ? "'\\''" : String(ch) }
        return out + "'"
    }

    /// `text` for inside double quotes: `\`, `"`, `` ` `` and (unless `keepVariable`) `$` escaped.
    static func doubleQuoteEscaped(_ text: String, keepVariable: Bool) -> String {
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
