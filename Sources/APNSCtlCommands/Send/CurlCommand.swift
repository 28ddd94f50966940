import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// An equivalent `curl --http2` command for a dry run: credentials and the bearer token as shell variables
/// (never the secrets themselves), every other header and the body single-quoted for any POSIX shell (a body
/// holding characters a terminal acts on is written by `printf` from octal escapes to a file curl sends). The
/// variables are real assignments, set from the same files before the command, so the part from the
/// `# … curl:` line on runs when pasted into `sh` (CLI.md, `send`, "Input and output at the edges").
/// No secret is ever one of curl's arguments, which any local user reads in `/proc/PID/cmdline` while curl
/// runs: the passphrase, the proxy credentials and the authorization header reach curl as its config on
/// standard input (`--config -`), a here-document the shell fills from the variables itself.
struct CurlCommand {
    /// Comment lines and assignments, in order, before the command.
    private var variables: [String] = []
    private var words = ["curl --http2 -sS -i"]
    private let url: String
    /// curl's config lines (`option = "$VARIABLE"`), the command's standard input as a here-document: the
    /// options whose values are secrets.
    private var config: [String] = []
    /// Here-documents curl reads as `/dev/fd/N` files (PEM held in a variable): descriptor, delimiter, the line.
    private var descriptorDocuments: [(fd: Int, end: String, line: String)] = []
    /// Lines after the command: removing the file it read the payload from.
    private var cleanup: [String] = []
    /// The here-document's delimiter: a word no config line can be.
    private static let hereDocumentEnd = "APNS_CURL_CONFIG"
    /// A filter that turns its input into the inside of a double-quoted string in curl's config, where `"`
    /// ends the string, `\` escapes the next character (`\n`, `\t`, `\r`, `\v` are control characters) and a
    /// line break would end the line: `\` and `"` get a backslash, line breaks become `\n`. Its `!` stay in
    /// single quotes (no bash history expansion).
    private static let configEscaper = #"sed -e ':a' -e '$!N' -e '$!ba' -e 's/[\\"]/\\&/g' -e 's/\n/\\n/g'"#

    /// A command for `url`.
    init(url: String) { self.url = url }

    /// The dry runs' command: `send`'s resolved credentials and connection settings as curl options, then the
    /// request. PEM held in a variable reaches curl as a here-document on its own descriptor, never a file.
    static func lines(
        url: String, headers: [HeaderField], body: [UInt8], settings: ResolvedSettings,
        identity: PushIdentity?, tokenIDs: (keyID: String, teamID: String)?, proxy: ProxySelection? = nil
    ) -> [String] {
        var curl = CurlCommand(url: url)
        let passphraseFile = settings[.passphraseFile]?.value
        if let cert = settings[.cert]?.value, let identity {
            switch (cert, settings[.key]?.value) {
            case (.file(let path), .file(let keyPath)?):
                curl.certificate(path: path, keyPath: keyPath, identity: identity, passphraseFile: passphraseFile)
            case (.file(let path), nil):
                curl.certificate(path: path, keyPath: nil, identity: identity, passphraseFile: passphraseFile)
            default:
                curl.certificateInVariables(
                    cert, key: settings[.key]?.value, identity: identity, passphraseFile: passphraseFile)
            }
        }
        if let tokenIDs, let authKey = settings[.authKey]?.value {
            curl.token(key: authKey, keyID: tokenIDs.keyID, teamID: tokenIDs.teamID)
        }
        curl.trust(caFile: settings[.caFile]?.value, insecure: settings.isOn(.insecure))
        if let proxy { curl.proxy(proxy, explicitFlag: settings[.proxy] != nil) }
        curl.headers(headers)
        curl.body(body)
        return curl.lines
    }

    /// `--cert` (with `--cert-type P12` for PKCS#12, `DER` for a bare DER certificate), `--key` (`--key-type DER`
    /// likewise), and `--pass` when a passphrase is needed (curl opens a `.p12` with an empty password without
    /// one, as apnsctl does): curl reads PEM unless told.
    /// The passphrase is read by the block itself: from `passphraseFile`'s first line when one was given, else
    /// from `APNSCTL_PASSPHRASE`, which a comment says to set; never printed.
    mutating func certificate(
        path given: String, keyPath givenKey: String?, identity: PushIdentity, passphraseFile givenFile: String? = nil
    ) {
        let path = saved(
            given, flag: "--cert",
            as: identity.container == .pkcs12
                ? "stdin-cert.p12" : identity.certificateIsDER ? "stdin-cert.cer" : "stdin-cert.pem")
        let keyPath = givenKey.map { saved($0, flag: "--key", as: "stdin-key.pem", privately: true) }
        let passphraseFile = givenFile.map {
            saved($0, flag: "--passphrase-file", as: "stdin-passphrase.txt", privately: true)
        }
        // The legacy check reads the file given, never the name the block gives standard input's bytes (a file of
        // that name here is another one); bytes that came on standard input are gone, so such a `.p12` is converted
        // whatever its ciphers, which works for a modern one too.
        if identity.container == .pkcs12 {
            let legacy =
                FileSystem.namesStandardInput(given)
                ? nil : (try? FileSystem.read(given)).map { PKCS12LegacyCiphers.used(in: $0) }
            if legacy != false {
                convertedForCurl(
                    path: path, key: nil, passphraseFile: passphraseFile, needed: identity.neededPassphrase,
                    why:
                        "\(Self.commentSafe(path)) \(legacy == true ? "uses" : "may use") legacy RC2 encryption, which "
                        + "curl's OpenSSL 3 cannot read")
                return
            }
        }
        // curl reads a DER key unencrypted only: an encrypted one (PKCS#8) is made PEM as a legacy .p12 is.
        if let keyPath, identity.keyIsDER, identity.neededPassphrase {
            convertedForCurl(
                path: path, key: keyPath, passphraseFile: passphraseFile, needed: true,
                why: "\(Self.commentSafe(keyPath)) is an encrypted DER key, which curl cannot read")
            return
        }
        variables.append("APNS_CERT=\(ShellWord.quoted(path))")
        let certType =
            identity.container == .pkcs12 ? " --cert-type P12" : identity.certificateIsDER ? " --cert-type DER" : ""
        words.append("--cert \"$APNS_CERT\"" + certType)
        if let keyPath {
            variables.append("APNS_KEY=\(ShellWord.quoted(keyPath))")
            words.append("--key \"$APNS_KEY\"" + (identity.keyIsDER ? " --key-type DER" : ""))
        }
        if identity.neededPassphrase { passphrase(file: passphraseFile) }
    }

    /// The file the block names for `path`: standard input (`-`), which this run read and the block cannot read
    /// again, becomes a file the user saves it as (`file`), said in a comment; a block naming `-` made curl wait for
    /// a certificate on its input, or fail.
    private mutating func saved(_ path: String, flag: String, as file: String, privately: Bool = false) -> String {
        guard FileSystem.namesStandardInput(path) else { return path }
        variables.append(
            "# \(flag) \(Self.commentSafe(path)) was read from standard input, which this block cannot read again: "
                + "save it as \(file) first" + (privately ? " (umask 077: mode 0600, it is a secret)" : ""))
        return file
    }

    /// `pass` in curl's config from `passphraseFile`'s first line (without a CR or a byte order mark, as apnsctl
    /// reads it), else from `APNSCTL_PASSPHRASE` (never
    /// printed); the variable holds it escaped for that config.
    private mutating func passphrase(file passphraseFile: String?) {
        explainConfigEscaping()
        if let passphraseFile {
            variables.append(
                "APNS_PASSPHRASE=$(head -n 1 \(ShellWord.quoted(passphraseFile)) | tr -d '\\r' | LC_ALL=C sed \"1s/^$(printf '\\357\\273\\277')//\" | \(Self.configEscaper))"
            )
        } else {
            variables.append("# the passphrase: set APNSCTL_PASSPHRASE before running this")
            // Without the CRs and LFs after it, as apnsctl reads the variable (`$(cat pass.txt)` of a Windows file keeps
            // a CR; a secret store may add a newline), and with any inside it: `$( )` drops the LFs at the end, the
            // loop a CR at a time. Builtins only, so the secret is never a process's argument.
            variables.append(
                "APNS_PASSPHRASE=$(cr=$(printf '\\r'); p=$(printf '%s' \"$APNSCTL_PASSPHRASE\"); "
                    + "while [ \"${p%\"$cr\"}\" != \"$p\" ]; do p=$(printf '%s' \"${p%\"$cr\"}\"); done; "
                    + "printf '%s\\n' \"$p\" | \(Self.configEscaper))")
        }
        configure("pass", "$APNS_PASSPHRASE")
    }

    /// `$(printf … | sed …)`: the value of the shell words `words`, escaped for curl's config. `printf` is
    /// built into the shell, so the secret goes through a pipe, never through a process's arguments; the
    /// `\n` it adds ends the last line for `sed` and is dropped again by `$( )`.
    private static func configEscaped(_ words: String) -> String {
        "$(printf '%s\\n' \(words) | \(configEscaper))"
    }

    /// One comment, before the first secret escaped for curl's config, on why it is escaped.
    private mutating func explainConfigEscaping() {
        let comment =
            "# secrets reach curl in its config on standard input, never as arguments; \\ and \" are escaped for it"
        if !variables.contains(comment) { variables.append(comment) }
    }

    /// `option = "value"` in curl's config (`value` a shell variable the here-document expands), and
    /// `--config -` in the command with the first one.
    private mutating func configure(_ option: String, _ value: String) {
        if config.isEmpty { words.append("--config -") }
        config.append("\(option) = \"\(value)\"")
    }

    /// Credentials curl cannot read (`why`: a legacy RC2 `.p12`, an encrypted DER key beside the certificate): the
    /// block makes a PEM with `apnsctl convert` (same passphrase sources as send) and gives curl that.
    private mutating func convertedForCurl(
        path: String, key: String?, passphraseFile: String?, needed: Bool, why: String
    ) {
        let pem = path + ".pem"
        variables.append(
            "# \(why); this makes a PEM curl can use (certificate and unencrypted key, mode 0600; delete it "
                + "afterwards)")
        if needed, passphraseFile == nil {
            variables.append("# the passphrase: set APNSCTL_PASSPHRASE before running this")
        }
        variables.append(
            "apnsctl convert \(ShellWord.quoted(path))" + (key.map { " --key \(ShellWord.quoted($0))" } ?? "")
                + " -o \(ShellWord.quoted(pem)) --force"
                + (passphraseFile.map { " --passphrase-file \(ShellWord.quoted($0))" } ?? ""))
        variables.append("APNS_CERT=\(ShellWord.quoted(pem))")
        words.append("--cert \"$APNS_CERT\"")
    }

    /// A path inside a comment line: a line break in it would end the comment and run the rest.
    private static func commentSafe(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    /// `APNS_JWT` from `apnsctl jwt`, for the `authorization` header; a key held in `APNSCTL_AUTH_KEY` is read
    /// from there by `apnsctl jwt` itself.
    mutating func token(key: CredentialSource, keyID: String, teamID: String) {
        switch key {
        case .file(let given):
            let path = saved(given, flag: "--auth-key", as: "AuthKey_\(keyID).p8", privately: true)
            variables.append(
                "APNS_JWT=$(apnsctl jwt --auth-key \(ShellWord.quoted(path)) --key-id \(keyID) --team-id \(teamID))")
        case .pem(_, let variable):
            // The key id comes with its key (CLI.md): from APNSCTL_KEY_ID, which jwt reads as send did; a
            // --key-id beside a key in a variable is refused.
            variables.append(
                "# the key is PEM text in \(variable): apnsctl jwt reads it, and its id, from the variables (never from a file)"
            )
            variables.append("APNS_JWT=$(apnsctl jwt --team-id \(teamID))")
        }
    }

    /// A certificate (or its key) held as PEM text in `APNSCTL_CERT`/`APNSCTL_KEY`: curl reads each from a
    /// here-document on its own descriptor (`--cert /dev/fd/3`, `--key /dev/fd/4`, POSIX redirections), which the
    /// shell fills from the variable, so the text is never in a file the block would have to remove (an
    /// interrupted paste would leave it) nor in any process's arguments. A certificate with its key in one
    /// variable is given twice, once for each: a descriptor is read once.
    mutating func certificateInVariables(
        _ cert: CredentialSource, key: CredentialSource?, identity: PushIdentity, passphraseFile: String?
    ) {
        for (flag, source) in [("--cert", cert), ("--key", key ?? cert)] {
            switch source {
            case .file(let path):
                // The key in the certificate's own file is found there by curl.
                if flag == "--cert" || key != nil { words.append("\(flag) \(ShellWord.quoted(path))") }
            case .pem(_, let variable):
                let fd = flag == "--cert" ? 3 : 4
                if flag == "--cert" || key != nil {
                    variables.append(
                        "# \(flag.dropFirst(2)) is PEM text in \(variable): curl reads it from descriptor \(fd), which the shell fills from the variable"
                    )
                } else {
                    variables.append("# the key is in \(variable) too: curl reads it again from descriptor \(fd)")
                }
                words.append("\(flag) /dev/fd/\(fd)")
                descriptorDocuments.append((fd, flag == "--cert" ? "APNS_CERT_PEM" : "APNS_KEY_PEM", "$\(variable)"))
            }
        }
        if identity.neededPassphrase { passphrase(file: passphraseFile) }
    }

    /// `--proxy URL` (and `proxy-user` in curl's config from a shell variable: the password is never printed), or
    /// `--noproxy '*'` when a configured proxy is skipped, so curl goes the same way apnsctl would.
    mutating func proxy(_ selection: ProxySelection, explicitFlag: Bool) {
        guard let proxy = selection.proxy else {
            if selection.source != nil || explicitFlag { words.append("--noproxy '*'") }
            return
        }
        words.append("--proxy \(ShellWord.quoted(proxy.urlWithoutCredentials))")
        if let user = proxy.user {
            explainConfigEscaping()
            variables.append("# the proxy password: set APNS_PROXY_PASSWORD before running this")
            variables.append(
                "APNS_PROXY_USER=\(Self.configEscaped(ShellWord.quoted(user + ":") + "\"$APNS_PROXY_PASSWORD\""))")
            configure("proxy-user", "$APNS_PROXY_USER")
        }
    }

    /// `--cacert` and `--insecure`.
    mutating func trust(caFile: String?, insecure: Bool) {
        if let caFile { words.append("--cacert \(ShellWord.quoted(caFile))") }
        if insecure { words.append("--insecure") }
    }

    /// One `-H` per header but pseudo-headers and `content-length`, single-quoted (no `$`, `` ` `` or history
    /// `!` expansion when pasted into an interactive bash). `authorization` is not one of them: an argument
    /// is readable by any local user in `/proc/PID/cmdline` while curl runs, so that header is a `header`
    /// line of curl's config on standard input, which the shell fills with `$APNS_JWT` itself. A
    /// here-document rather than a file the block creates: nothing is left behind when curl fails or is
    /// interrupted, no `umask` of the pasting shell changes, and the shell writes the secrets to a pipe or to
    /// a private file it removes at once (bash, zsh), never through any process's arguments. The body is an
    /// argument (`--data-binary`), so standard input is free for this.
    mutating func headers(_ headers: [HeaderField]) {
        for h in headers where !h.name.hasPrefix(":") && h.name != "content-length" {
            if h.name == APNSHeader.authorization.name {
                configure("header", "\(h.name): bearer $APNS_JWT")
            } else {
                words.append("-H \(ShellWord.quoted("\(h.name): \(h.value)"))")
            }
        }
    }

    /// `--data-binary` with the body. A body holding characters a terminal would act on or reorder (DEL, C1
    /// controls, bidirectional overrides: valid inside JSON strings) is never printed raw: the block has the
    /// built-in `printf` write it to a private file from octal escapes, and curl sends that file.
    mutating func body(_ body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        guard text.unicodeScalars.contains(where: PrintableText.actsOnTerminal)
        else {
            words.append("--data-binary \(ShellWord.quoted(text))")
            return
        }
        var format = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": format += "\\\\"
            case "%": format += "%%"
            case _ where PrintableText.actsOnTerminal(scalar):
                // Three digits always: a shorter escape would take a digit that follows it.
                for byte in String(scalar).utf8 {
                    let octal = String(byte, radix: 8)
                    format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
                }
            default: format.unicodeScalars.append(scalar)
            }
        }
        variables.append(
            "# the payload holds characters a terminal would act on or reorder, so they are octal escapes here: printf writes the payload to a file, removed after curl"
        )
        variables.append("APNS_BODY=$(mktemp) && printf \(ShellWord.quoted(format)) > \"$APNS_BODY\"")
        words.append("--data-binary @\"$APNS_BODY\"")
        cleanup.append("rm -f \"$APNS_BODY\"")
    }

    /// The assignments (and comments), one a line, then the command, one option per continued line, then its
    /// here-documents (the PEM ones on their descriptors, then the config's on standard input; each delimiter
    /// unquoted, so the variables expand in it, and their values are not scanned again, so what they hold
    /// arrives as it is), then the removal of the payload's file when the block wrote one.
    var lines: [String] {
        var redirections = descriptorDocuments.map { " \($0.fd)<<\($0.end)" }.joined()
        var documents = descriptorDocuments.flatMap { [$0.line, $0.end] }
        if !config.isEmpty {
            redirections += " <<\(Self.hereDocumentEnd)"
            documents += config + [Self.hereDocumentEnd]
        }
        return variables + [(words + [ShellWord.quoted(url) + redirections]).joined(separator: " \\\n  ")]
            + documents + cleanup
    }
}
