import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// Renders `inspect` results as aligned text or as one JSON object (CLI.md's field names).
enum CredentialReport {
    static func printAuthKey(
        _ contents: CredentialContents, file: String, format: OutputFormat, in world: CommandWorld
    ) {
        let keyType = contents.privateKey?.typeDescription ?? "unknown"
        let keyID = SigningKey.keyID(fromFileName: file)
        if let id = keyID, !DeveloperID.isWellFormed(id) {
            // send and jwt refuse such an id; say so here, where users look first.
            world.standardError.warning(
                "\(file): key id \"\(id)\" from the file name is not 10 letters A-Z or digits; rename the file AuthKey_<KEYID>.p8 as Apple named it, or pass --key-id to send and jwt"
            )
        }
        // jwt and send refuse an encrypted signing key (Apple's never are): said here, where users look first.
        if contents.neededPassphrase {
            world.standardError.warning(
                "\(CredentialMessages.shownName(file)): the key is encrypted, and Apple's .p8 keys are not, so send and jwt refuse it; "
                    + CredentialMessages.decryptAdvice(file))
        }
        // A TLS server's key or a certificate's own key is a lone P-256 key too: only Apple's name says .p8.
        let kindText =
            CredentialLoader.isTokenSigningKey(contents, path: file)
            ? "auth-key (.p8 provider token signing key)"
            : FileSystem.namesStandardInput(file)
                ? "auth-key? (a lone EC P-256 key, read from standard input: no AuthKey_<KEYID>.p8 name tells a .p8 "
                    + "here; a .p8 goes in --auth-key with --key-id, a certificate's key with its certificate, "
                    + "--cert CERT --key FILE)"
                : "auth-key? (a lone EC P-256 key, not named AuthKey_<KEYID>.p8: a TLS server's or a certificate's key "
                    + "goes with its certificate, --cert CERT --key \(file); a renamed .p8 goes in --auth-key)"
        switch format {
        case .json:
            var w = JSONWriter()
            w.beginObject()
            w.field("file", file)
            w.field("kind", "auth-key")
            w.field("key_type", keyType)
            // An id send and jwt would refuse is no key id to a script: null, the warning above saying why.
            w.field("key_id", keyID.flatMap { DeveloperID.isWellFormed($0) ? $0 : nil })
            w.endObject()
            world.standardOutput.print(w.text + "\n")
        case .text:
            printRows(
                [
                    ("file", shown(file)),
                    ("kind", kindText),
                    ("key type", keyType),
                    ("key id", keyID ?? "(not in the file name; pass --key-id with send and jwt)"),
                ], to: world.standardOutput)
        }
    }

    /// `weakness`: what this machine's OpenSSL refuses about the certificate or its chain for TLS (exit 77 after).
    static func printCertificate(
        _ contents: CredentialContents, info: CertificateInfo, file: String, now: Int64,
        weakness: CertificateWeakness? = nil, format: OutputFormat, to out: OutputSink
    ) {
        let name = { (c: X509Certificate) in c.info.commonName ?? c.info.subject }
        let days = info.daysRemaining(now: now)
        let expired = info.isExpired(now: now)
        let early = info.isNotYetValid(now: now)
        let envs = info.sortedEnvironments.map(\.rawValue)
        switch format {
        case .json:
            var w = JSONWriter()
            w.beginObject()
            w.field("file", file)
            w.field("kind", contents.kind.rawValue)
            w.field("subject", info.subject)
            w.field("bundle_id", info.bundleID)
            w.field("topics", info.topics)
            w.field("environments", envs)
            w.field("issuer", info.issuer)
            w.field("serial", info.serial)
            w.field("not_before", ISO8601.format(epochSeconds: info.notBefore))
            w.field("not_after", ISO8601.format(epochSeconds: info.notAfter))
            w.field("days_remaining", days)
            w.field("expired", expired)
            w.field("not_yet_valid", early)
            w.field("has_private_key", contents.privateKey != nil)
            w.field("key_matches", contents.keyMatches)
            w.field("key_type", info.keyType)
            w.field("sha256", info.sha256)
            w.field("chain", contents.certificateChain.map(name))
            // Why a send cannot use it here, as the exit status's error line says; null when nothing.
            w.field("tls_refused", weakness?.description)
            w.endObject()
            out.print(w.text + "\n")
        case .text:
            var validity = "\(DayCount.text(days)) left"
            if expired { validity = "EXPIRED \(DayCount.text(-days)) ago" }
            if early { validity = "NOT YET VALID, starts in \(DayCount.text((info.notBefore - now) / 86_400))" }
            let key: String =
                switch contents.keyMatches {
                case .some(true):
                    "present, matches the certificate"
                        + (contents.keyPath != file ? " (\(contents.keyPath.map(shownKey) ?? ""))" : "")
                case .some(false): "present, DOES NOT MATCH the certificate"
                case .none:
                    "none in this \(FileSystem.namesStandardInput(file) ? "input" : "file") (pass --key FILE to check one)"
                }
            var rows: [(String, String)] = [
                ("file", shown(file)),
                ("kind", contents.kind.rawValue),
                ("subject", info.subject),
                ("bundle id", info.bundleID ?? "(none)"),
                ("topics", info.topics.isEmpty ? "(none)" : info.topics.joined(separator: ", ")),
                ("environments", envs.isEmpty ? "(none: not an Apple push certificate)" : envs.joined(separator: ", ")),
                ("issuer", info.issuer),
                ("serial", info.serial),
                ("not before", ISO8601.format(epochSeconds: info.notBefore)),
                ("not after", "\(ISO8601.format(epochSeconds: info.notAfter)) (\(validity))"),
                ("private key", key),
                ("key type", info.keyType),
                ("sha256", info.sha256),
            ]
            if let weakness { rows.append(("tls", "REFUSED here: \(weakness)")) }
            if !contents.certificateChain.isEmpty {
                rows.append(("chain", contents.certificateChain.map(name).joined(separator: "; ")))
            }
            // Another push certificate is no chain certificate (a Keychain export of several items).
            if !contents.otherCertificates.isEmpty {
                rows.append(("also holds", contents.otherCertificates.map(name).joined(separator: "; ")))
            }
            printRows(rows, to: out)
        }
    }

    /// A file row's value: the path, or for `-` and `/dev/stdin`, which name no file, where the bytes came from. JSON
    /// keeps the argument as given, for a script to match.
    static func shown(_ file: String) -> String {
        FileSystem.namesStandardInput(file) ? "(standard input)" : file
    }

    /// The key file beside a certificate, as the private key row names it.
    static func shownKey(_ file: String) -> String {
        FileSystem.namesStandardInput(file) ? "key read from standard input" : file
    }

    /// `label:` padded so the values line up. Values come from the certificate (subject, issuer,
    /// topics), so control characters are escaped: a crafted certificate cannot drive the terminal.
    static func printRows(_ rows: [(String, String)], to out: OutputSink) {
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        var text = ""
        for (label, value) in rows {
            text +=
                label + ":" + String(repeating: " ", count: width - label.count - 1)
                + PrintableText.escapingControls(value) + "\n"
        }
        out.print(text)
    }
}
