import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// `apnsctl jwt --decode`: the token from the argument or standard input, checked against `--auth-key` when
/// given, reported on stdout; exit 77 (after the report) when APNs would refuse it.
enum JWTDecode {
    /// Whether `path` names a regular file holding PEM (a key or certificate), as a slip's advice needs to know.
    static func holdsPEM(_ path: String) -> Bool {
        guard path.utf8.count < 4096, FileSystem.isRegularFile(path),
            let bytes = try? FileSystem.read(path, limit: 1 << 16)
        else { return false }
        return String(decoding: bytes, as: UTF8.self).contains("-----BEGIN ")
    }

    /// The key to check a signature with, its key id when given, and the flag or variable it came from.
    struct CheckKey {
        let source: CredentialSource
        let keyID: String?
        let label: String
    }

    /// The team id the token's `iss` must be, and the flag, variable or profile that gave it.
    struct ExpectedTeam {
        let id: String
        let label: String
    }

    static func run(
        token: String?, format: OutputFormat, key: CheckKey?, team: ExpectedTeam? = nil, world: CommandWorld
    ) throws(CLIError) {
        let json = format == .json
        let text: String
        if let token, !FileSystem.namesStandardInput(token) {
            // A file's name is no token: a key goes with --auth-key, a token kept in a file is read from standard input.
            if holdsPEM(token) {
                throw .usage(
                    "\(token): a key file, not a token; to check a token's signature with it, give it with --auth-key \(ShellWord.of(token))"
                )
            }
            if FileSystem.isRegularFile(token) {
                throw .usage(
                    "\(token): a file's name, not a token; to decode a token kept in a file: apnsctl jwt --decode - < \(ShellWord.of(token))"
                )
            }
            text = token
        } else {
            // On a terminal nothing else says why nothing happens: the read ends at Ctrl-D, not at Enter.
            if world.streams.isTerminal(world.standardInput) {
                world.standardError.print(
                    "apnsctl jwt: reading the token from the terminal: paste it, then press Enter and Ctrl-D\n")
            }
            // Read as every `-` is: standard input that cannot be read (a directory) is said, not taken for no token.
            let bytes: [UInt8]
            do { bytes = try FileSystem.read("-", limit: 1 << 16, standardInput: world.standardInput) } catch {
                throw CLIError(error)
            }
            // A key or certificate piped in (`< AuthKey_….p8`), as the argument's file is told: never decoded as
            // a token, whose "blank or line break inside" would be all it said.
            if let what = CredentialLoader.credentialKind(of: bytes) {
                throw .usage(
                    "standard input holds \(what), not a token; to check a token's signature with a key, give the key "
                        + "with --auth-key FILE and the token as the argument or on standard input")
            }
            text = String(decoding: bytes, as: UTF8.self)
        }
        guard !ProviderTokenReport.bareToken(text).isEmpty else {
            throw .usage("no token to decode: give it as an argument, or on standard input")
        }
        var checkKey: ProviderTokenReport.Key? = nil
        if let key {
            let source = key.source
            let labels: [String: String] = source.path.map { [$0: key.label] } ?? [:]
            let publicKey: PublicKey
            do {
                publicKey = try PublicKeyLoader.load(source.input(in: world), refusingCertificates: true)
            } catch .notSigningKey(let path, let found)
                where found.hasPrefix("a certificate") || found.hasPrefix("a PKCS#12")
            {
                // jwt has no --cert: the advice is the key that signs tokens, not where a certificate goes.
                let named: String =
                    if CredentialSource.variable(inDisplayName: path) != nil {
                        path
                    } else if key.label.hasPrefix("-") {
                        "\(key.label) \(path)"
                    } else {
                        "\(CredentialMessages.shownName(path)) (\(key.label))"
                    }
                throw .credential(
                    "\(named): this is \(found), not a .p8 signing key; " + CredentialMessages.tokensNeedTheP8)
            } catch { throw CLIError(error, flags: labels, takesCertificates: false) }
            let fromName: String? = source.path.flatMap { SigningKey.keyID(fromFileName: $0) }
            // "verified with -" says nothing: a key piped in is named as such.
            let file =
                source.path.map(FileSystem.namesStandardInput) == true
                ? "the key read from standard input" : source.displayName
            checkKey = ProviderTokenReport.Key(publicKey: publicKey, keyID: key.keyID ?? fromName, file: file)
        }
        let report = ProviderTokenReport(
            token: text, now: world.clock.now(), key: checkKey,
            team: team.map { ProviderTokenReport.Team(id: $0.id, label: $0.label) })
        let lines = json ? [report.json] : report.textLines
        if !lines.isEmpty {
            world.standardOutput.print(lines.map(PrintableText.escapingControls).joined(separator: "\n") + "\n")
        }
        for warning in report.warnings { world.standardError.warning(warning) }
        if !report.refusals.isEmpty {
            throw .credential("APNs would refuse this token: " + report.refusals.joined(separator: "; "))
        }
    }
}
