import APNSAppBuild
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

extension CLIError {
    /// A credential problem: a missing or unreadable file is exit 66, everything else exit 77 (CLI.md).
    /// `passphraseFileFlag` names the flag that gave the passphrase file, for its read failures.
    /// `flags` maps a file path to the flag that gave it (`--cert`, `--key`, `--auth-key`): a missing or
    /// unreadable file is named with its flag, the same way in every command (CLI.md).
    /// `passphrase`: the passphrase given as text and where (`--passphrase`, `APNSCTL_PASSPHRASE`), for the usual
    /// slip of a file's name given as the passphrase itself. `takesCertificates`: false where the command has no
    /// place for a certificate (`jwt`), so its advice is not one. `converting`: for `convert`, which takes a
    /// certificate and its key, never a `.p8` or `--app`'s files.
    init(
        _ problem: CredentialProblem, passphraseFileFlag: String = "--passphrase-file", flags: [String: String] = [:],
        passphrase: (text: String, label: String)? = nil, passphraseFile: String? = nil,
        keyIDAdvice: String = "pass --key-id", keyAdvice: String? = nil, takesCertificates: Bool = true,
        converting: Bool = false
    ) {
        var message = problem.message(
            passphraseFileFlag: passphraseFileFlag, keyIDAdvice: keyIDAdvice, takesCertificates: takesCertificates,
            converting: converting)
        switch problem {
        // An empty file is named the same way: which flag's file it is matters more than its content.
        case .fileMissing(let path), .fileUnreadable(let path, _), .empty(let path):
            if let pasted = CLIError.pastedText(path, flag: flags[path]) {
                self = pasted
                return
            } else if case .fileMissing = problem, let file = Self.curlPassphrase(path) {
                // The command's file argument (inspect, convert) as well as a flag's: the text after the colon is a
                // passphrase, never shown.
                let given = flags[path].map { "\($0) \(ShellWord.of(file))" } ?? ShellWord.of(file)
                self = .usage(
                    "\(given):…: curl's FILE:PASSWORD form (the text after the colon is not "
                        + "shown); apnsctl reads the passphrase from --passphrase-file FILE or APNSCTL_PASSPHRASE: "
                        + "give \(given) and the passphrase there")
                return
            } else if let flag = flags[path] {
                message = "\(flag) " + message
            }
        // A provisioning profile or an .ipa given as a credential: said so, with the flag it belongs to.
        case .corrupt(let path, _), .notACredential(let path, _):
            if let sniffed = AppBuildReader.sniff(path) {
                let what = sniffed == .profile ? "a provisioning profile" : "a zip archive (an .ipa?)"
                let given = "\(flags[path].map { $0 + " " } ?? "")\(path): \(what), not a certificate or key"
                message =
                    converting
                    ? given + "; convert takes the push certificate: a .p12, or a .pem holding it and its key"
                    : given + "; give it with --app (it tells the app's bundle id and token environment), and the "
                        + "push certificate or .p8 key here"
            } else if let encoded = Self.base64Content(path) {
                // A CI secret's form: `base64 -w0 push.p12` (or of a PEM file, `base64 AuthKey.p8`), kept as text.
                switch encoded {
                case .der:
                    message +=
                        "; it is base64 text of a binary file (a .p12, .cer or key kept as a CI secret): decode it first "
                        + "(umask 077; base64 -d \(ShellWord.of(path)) > decoded.p12) and give that file, or for a .p8's body add its "
                        + "-----BEGIN PRIVATE KEY----- and -----END PRIVATE KEY----- lines"
                case .pem:
                    let decoded = path.lowercased().hasSuffix(".p8") ? "AuthKey.p8" : "decoded.pem"
                    message +=
                        "; it is base64 text of a PEM file (a key or certificate encoded for a CI secret): decode it first "
                        + "(umask 077; base64 -d \(ShellWord.of(path)) > \(decoded)) and give that file"
                }
            }
        // A wrong passphrase that is a file's name is said to be one (no passphrase is shown otherwise).
        case .wrongPassphrase(let path):
            if let passphrase, FileSystem.isRegularFile(passphrase.text) {
                message =
                    "\(path): wrong passphrase; \(passphrase.label) names the file \(ShellWord.of(passphrase.text)): "
                    + "to read the passphrase from it, write \(passphraseFileFlag) \(ShellWord.of(passphrase.text))"
            } else if let passphrase, passphrase.text.isEmpty {
                // `--passphrase "$P12_PASS"` with the secret unset (a fork's pull request in CI).
                message =
                    "\(path): wrong passphrase: \(passphrase.label) is empty (is the variable meant to hold it set?)"
            } else if let passphrase {
                // Where the wrong one came from, so the right one goes there (a stale variable is the usual case).
                message =
                    "\(path): wrong passphrase (the one \(passphrase.label) holds); check it"
                    + (passphrase.text.last.map { $0 == " " || $0 == "\t" } == true
                        ? ": it ends with a space or tab, which counts as part of the passphrase" : "")
            } else if let file = passphraseFile {
                let line =
                    FileSystem.namesStandardInput(file)
                    ? "standard input's first line" : "the first line of \(ShellWord.of(file))"
                message = "\(path): wrong passphrase (\(line), from \(passphraseFileFlag)); check it"
                if file != "-", Self.firstLineIsEmpty(of: file) {
                    message += ": the line is empty"
                } else if file != "-", Self.firstLineIsPEM(of: file) {
                    // `--passphrase-file AuthKey_….p8` or the key.pem beside the certificate: the wrong flag.
                    message =
                        "\(path): wrong passphrase: \(passphraseFileFlag) \(ShellWord.of(file)) is a PEM file (a key or "
                        + "certificate), not a passphrase; give a file whose first line is the passphrase (a key goes "
                        + "with --key, a .p8 with --auth-key)"
                } else if file != "-", Self.isBinaryDER(file) {
                    // `--passphrase-file push.p12`: the two paths swapped.
                    message =
                        "\(path): wrong passphrase: \(passphraseFileFlag) \(ShellWord.of(file)) is binary (a .p12, .cer "
                        + "or DER key), not a passphrase; give a file whose first line is the passphrase"
                } else if file != "-", Self.firstLine(of: file, { $0.contains(0) }) {
                    // A file saved as UTF-16 (Notepad, PowerShell 5): every other byte is a NUL.
                    message +=
                        ": the line holds a NUL byte (a file saved as UTF-16?); save the passphrase as UTF-8 text"
                } else if file != "-", Self.endsWithBlank(firstLineOf: file) {
                    message += ": the line ends with a space or tab, which counts as part of the passphrase"
                }
            }
        // A certificate from a variable or a profile gets its key there: `--key` beside it is refused (credentials
        // come whole from one place), so advising it would go in a circle.
        case .notAClientCertificate(let path, let info):
            if let flag = flags[path] { message = "\(flag) " + CredentialMessages.notApplePush(path, info: info) }
        case .noPrivateKey(let path):
            if let keyAdvice, let flag = flags[path] {
                message =
                    "\(flag) \(path): holds a certificate but no private key; \(keyAdvice), or export the certificate "
                    + "together with its key as .p12"
            }
        // Named by where it was given (a flag, a profile's line), as a missing file is.
        case .notSigningKey(let path, _) where !takesCertificates:
            if let flag = flags[path] { message = "\(flag) " + message }
        default: break
        }
        message = Self.namingStandardInput(message, problem.path, flag: problem.path.flatMap { flags[$0] })
        self = problem.isInputMissing ? .inputMissing(message) : .credential(message)
    }

    /// A credential read from standard input has no name of its own: `-: wrong passphrase` said nothing to a user who
    /// piped a `.p12` in. The message names it as the prompt does, or by its flag where one gave it (`--key -`).
    static func namingStandardInput(_ message: String, _ path: String?, flag: String?) -> String {
        guard let path, FileSystem.namesStandardInput(path) else { return message }
        var text = message
        let head = "\(path): "
        if text.hasPrefix(head) {
            text = CredentialMessages.shownName(path, flag: flag) + ": " + text.dropFirst(head.count)
        }
        return text
    }
}

extension CLIError {
    /// Whether the first line of the passphrase file at `path` ends with a space or a tab (never shown).
    fileprivate static func endsWithBlank(firstLineOf path: String) -> Bool {
        firstLine(of: path) { $0.last == 0x20 || $0.last == 0x09 }
    }

    /// Whether a passphrase file's first line is empty (a blank line first, or an empty file's).
    fileprivate static func firstLineIsEmpty(of path: String) -> Bool { firstLine(of: path) { $0.isEmpty } }

    /// What a file of base64 text (one line, or wrapped) encodes.
    fileprivate enum Base64Content { case der, pem }

    /// A file of base64 text whose bytes decode to a DER structure (a `.p12` or `.cer`) or to PEM text (a `.p8`, a
    /// `.pem`): a file encoded for a CI secret. Nil for anything else.
    fileprivate static func base64Content(_ path: String) -> Base64Content? {
        guard let start = FileSystem.readStart(path, count: 64), start.count >= 8,
            Base64DERKind.isBase64Text(start)
        else { return nil }
        // DER's SEQUENCE with a long length (0x30 0x82 …) starts "MII" (or "MIA"…"MIJ") in base64.
        if start.starts(with: Array("MI".utf8)) { return .der }
        if start.starts(with: Array(Base64DERKind.encodedPEMStart.utf8)) { return .pem }
        return nil
    }

    /// A DER structure (a `.p12`, a `.cer`): a SEQUENCE with a long length, as no passphrase starts.
    fileprivate static func isBinaryDER(_ path: String) -> Bool {
        guard let start = FileSystem.readStart(path, count: 4), start.count == 4 else { return false }
        return start[0] == 0x30 && (0x81...0x84).contains(start[1])
    }

    /// Whether a passphrase file's first line opens a PEM block (`-----BEGIN PRIVATE KEY-----`): a key or certificate
    /// given as the passphrase file.
    fileprivate static func firstLineIsPEM(of path: String) -> Bool {
        firstLine(of: path) { $0.starts(with: Array("-----BEGIN ".utf8)) }
    }

    /// `test` of the passphrase file's first line, as the passphrase is read from it; both copies wiped after. Only a
    /// regular file is read again: a FIFO (`--passphrase-file <(…)`, a named pipe) was drained, and reading it again
    /// would wait for a writer that never comes.
    private static func firstLine(of path: String, _ test: ([UInt8]) -> Bool) -> Bool {
        guard var bytes = FileSystem.readStart(path, count: 1 << 16) else { return false }
        // The line as the passphrase is read from it (`PassphraseSource.firstLine`), both copies wiped after.
        var line = PassphraseSource.firstLine(bytes)
        defer {
            for i in bytes.indices { bytes[i] = 0 }
            for i in line.indices { line[i] = 0 }
        }
        return test(line)
    }

    /// `-` given to a flag read by its path (a CA bundle, an app build, a public key), as `--cert -` reads standard
    /// input: these do not, so the usage is the error (64), not a file named `-` that is missing (66). `what`:
    /// what the flag gives; `advice`: what to give instead. `anyName`: `/dev/stdin` too, for a flag that needs a
    /// regular file or folder (a build is opened and read at offsets), where a CA bundle reads a pipe by its path.
    static func fileOnly(
        _ label: String, _ value: String, what: String,
        advice: String = "save it to a file and give that file's path", anyName: Bool = false
    ) -> CLIError? {
        guard value == "-" || (anyName && FileSystem.namesStandardInput(value)) else { return nil }
        return .usage("\(label) \(value): \(what) is read from its path, not from standard input; \(advice)")
    }

    /// A file's text pasted where its path goes (`--key="$(cat key.pem)"`, a key among them): said, never shown,
    /// exit 64. Nil for a value a message may quote, or one that is no file's text (a long path is a path).
    /// `flag` nil: the command's file argument.
    static func pastedText(_ value: String, flag: String?) -> CLIError? {
        guard !VariableEcho.mayEchoArgument(value) else { return nil }
        guard CredentialSource.isPEM(value) else {
            // A path too long to quote that names no file: most often a file's text in base64, a key among them.
            guard !FileSystem.exists(value) else { return nil }
            return .inputMissing(
                "\(flag ?? "the file argument") (\(VariableEcho.description(of: value)), not shown): no such file; "
                    + "a key or certificate goes in a file, whose path is given here")
        }
        return .usage(
            "\(flag ?? "the file argument") holds PEM text (\(VariableEcho.description(of: value)), not shown), "
                + "not a file's path; give the path of the file that holds it")
    }

    /// The file of curl's `--cert FILE:PASSWORD` when `value` is one (the file before the first colon exists and
    /// `value` does not), else nil.
    static func curlPassphrase(_ value: String) -> String? {
        guard let colon = value.firstIndex(of: ":"), colon != value.startIndex else { return nil }
        let file = String(value[..<colon])
        return FileSystem.isRegularFile(file) ? file : nil
    }
}

/// Runs credential code and converts its typed failures into CLI errors, so commands stay linear. `flags`
/// names the flag of each file the body reads (see `CLIError.init(_:passphraseFileFlag:flags:)`).
func withCredentialErrors<T>(
    flags: [String: String] = [:], passphrase: (text: String, label: String)? = nil, passphraseFile: String? = nil,
    passphraseFileFlag: String = "--passphrase-file", converting: Bool = false,
    _ body: () throws(CredentialProblem) -> T
) throws(CLIError) -> T {
    do { return try body() } catch {
        throw CLIError(
            error, passphraseFileFlag: passphraseFileFlag, flags: flags, passphrase: passphrase,
            passphraseFile: passphraseFile, converting: converting)
    }
}

extension Dictionary where Key == String, Value == String {
    /// `[path: flag]` for the paths given (nil ones left out): `.flags(("--cert", cert), ("--key", key))`.
    static func flags(_ pairs: (String, String?)...) -> [String: String] {
        var out: [String: String] = [:]
        // The first flag wins when two name the same file (--cert and --key both push.pem).
        for (flag, path) in pairs { if let path, out[path] == nil { out[path] = flag } }
        return out
    }
}

/// Texts shared by every command that reads credentials (inspect, convert, and those that connect or sign).
enum CredentialMessages {
    /// Why a certificate cannot stand in for the token key, where no certificate is taken (`jwt`).
    static let tokensNeedTheP8 =
        "provider tokens are signed with a .p8 key from the Apple Developer portal (Keys), never with a certificate's key"

    /// How to decrypt an encrypted `.p8`: into a file whose name keeps the key id the original's name gave (run as
    /// written, `-out AuthKey_KEYID.p8` made a file whose name jwt and send refuse as a key id).
    static func decryptAdvice(_ path: String) -> String {
        let id = SigningKey.keyID(fromFileName: path).flatMap { DeveloperID.isWellFormed($0) ? $0 : nil }
        let out = id.map { "AuthKey_\($0).decrypted.p8" } ?? "AuthKey_KEYID.p8"
        let named = id == nil ? ", KEYID being the key's 10-character id" : ""
        return "decrypt it (openssl pkey -in \(ShellWord.of(path)) -out \(out)\(named)) or download the .p8 key again"
    }

    /// How a message names a credential: its path, or for one read from standard input (which has no name of its
    /// own) its flag and `-` where a flag gave it, else "the credential read from standard input", as the
    /// passphrase prompt names it.
    static func shownName(_ path: String, flag: String? = nil) -> String {
        guard FileSystem.namesStandardInput(path) else { return path }
        return flag.map { "\($0) \(path)" } ?? "the credential read from standard input"
    }

    /// The CA certificates a file holds beside its certificate's chain (an old or unrelated intermediate), and a
    /// chain certificate past its date: neither is the chain a user checks `inspect` for. And a topics extension
    /// nothing could be read from, which leaves the bundle id as the certificate's only topic.
    static func fileWarnings(_ name: String, _ contents: CredentialContents, now: Int64) -> [String] {
        let named = { (i: CertificateInfo) in i.commonName ?? i.subject }
        var lines: [String] = []
        if let leaf = contents.leaf?.info, leaf.topicsExtensionUnreadable {
            lines.append(
                "\(name): the certificate's topics extension (\(ApplePush.topicsOID)) could not be read, so its topic "
                    + "is taken to be the bundle id alone\(leaf.bundleID.map { " (\($0))" } ?? ""); "
                    + "download the certificate from the Apple Developer portal again")
        }
        lines += contents.unrelatedAuthorities.map {
            "\(name): the CA certificate \(named($0.info)) signed neither the certificate nor its chain, so it is left "
                + "out of the chain (an old or unrelated intermediate?)"
        }
        for c in contents.certificateChain where c.info.notAfter <= now {
            lines.append(
                "\(name): the chain certificate \(named(c.info)) expired on \(ISO8601.format(epochSeconds: c.info.notAfter)); "
                    + "replace it with the issuer's current one (Apple's intermediates: apple.com/certificateauthority)"
            )
        }
        return lines
    }

    /// A file of several certificates of their own, no CA's (a Keychain export of several items, which keeps one
    /// key): which one is used, and that the others are left out (never sent or written as the chain). Each is named
    /// with its expiry, so a renewed certificate and the one it replaced are told apart.
    static func otherCertificates(
        _ name: String, used: CertificateInfo, others: [CertificateInfo], keyed: Bool = true, verb: String = "used"
    ) -> String {
        let named = { (i: CertificateInfo) in
            "\(i.commonName ?? i.subject) (until \(ISO8601.format(epochSeconds: i.notAfter).prefix(10)))"
        }
        let list = others.map(named).joined(separator: "; ")
        let are = others.count == 1 ? "is" : "are"
        guard keyed else {
            return
                "\(name) holds \(others.count + 1) certificates that are no CA's, and no key: \(named(used)) is \(verb), "
                + "and \(list) \(are) left out: give each certificate a file of its own"
        }
        return
            "\(name) holds \(others.count + 1) certificates that are no CA's: \(named(used)) is \(verb) (the key is its own), "
            + "and \(list) \(are) left out (a Keychain export of several items keeps one key): export each certificate "
            + "alone, with its key, to use it"
    }

    /// The warning for a certificate without Apple's push extensions: shown, not fatal.
    /// A CA certificate and a TLS server certificate are named as such: neither is a push certificate that
    /// lost its extensions, and the advice for each is another flag, not another download.
    static func notApplePush(_ path: String, info: CertificateInfo? = nil) -> String {
        // Apple's own intermediate (the portal offers it beside the push certificate): it signs push certificates,
        // never a server, so --ca-file is the wrong advice.
        if info?.isCertificateAuthority == true,
            info?.commonName?.hasPrefix("Apple Worldwide Developer Relations") == true
        {
            return
                "\(path): Apple's intermediate certificate (\(PrintableText.escapingControls(info?.commonName ?? ""))), "
                + "which signs push certificates; apnsctl needs none of it: for --cert use your push certificate, "
                + "exported with its private key as .p12 from Keychain Access"
        }
        if info?.isCertificateAuthority == true {
            return "\(path): a CA certificate (basicConstraints CA:TRUE), not a push certificate; "
                + "it belongs in --ca-file, to trust a server it signed (for apnsctl mock: its ca.pem); "
                + "for --cert use the push certificate from the Apple Developer portal"
        }
        if info?.isTLSServer == true {
            return "\(path): a TLS server certificate (extended key usage serverAuth), not a push certificate; "
                + "it is what a server presents (a client trusts it through --ca-file with its CA); "
                + "for --cert use the push certificate from the Apple Developer portal"
        }
        if info?.isApplePush == true {
            let name = PrintableText.escapingControls(info?.commonName ?? "")
            return "\(path): named like an Apple push certificate (CN \(name)), but without "
                + "Apple's push extensions, which every push certificate Apple issues carries; APNs will answer 403 "
                + "BadCertificate to a home-made or edited copy. Use the push certificate from the Apple Developer portal"
        }
        return
            "\(path): the certificate has no Apple push extensions or Apple push CN; APNs will answer 403 BadCertificate. "
            + "Use the push certificate from the Apple Developer portal"
    }

    /// An OpenSSL failure while writing: never the user's fault, so an internal error with the detail.
    static func writing(_ what: String, _ error: OpenSSLError) -> CLIError {
        .internalError("writing \(what) failed: \(error.description)")
    }
}
