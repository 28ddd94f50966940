import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// How the CLI words a credential problem: the library reports facts, this adds where (flag or file) and what
/// to do with apnsctl's own flags and variables.
extension CredentialProblem {
    private static let passphraseHelp =
        "pass it with --passphrase-file FILE, APNSCTL_PASSPHRASE_FILE, APNSCTL_PASSPHRASE or --passphrase, or run on a terminal to be asked"

    /// One line: where, what is wrong, what to do, naming apnsctl's flags.
    var message: String { message(passphraseFileFlag: "--passphrase-file") }

    /// `message`, naming the flag that gave the passphrase file (`convert` reads its output password
    /// from `--out-passphrase-file`, and used to blame `--passphrase-file` for it). `keyIDAdvice`: where a key id
    /// goes, beside its key (a key from `APNSCTL_AUTH_KEY` takes `APNSCTL_KEY_ID`, never `--key-id`).
    /// `takesCertificates`: false for a command with no place for one (`jwt`), so a certificate given as the key
    /// is not sent to a `--cert` it does not have.
    /// `converting`: for `convert`, which takes a certificate with its key, never a `.p8`.
    func message(
        passphraseFileFlag: String, keyIDAdvice: String = "pass --key-id", takesCertificates: Bool = true,
        converting: Bool = false
    ) -> String {
        switch self {
        case .fileMissing(let p):
            // `APNSCTL_AUTH_KEY="~/AuthKey.p8"` (quoted, an env file, CI's YAML): no shell expanded the `~`.
            let hint = FileSystem.missingPathHint(p)
            return "\(VariableEcho.shownPath(p)): no such file" + (hint.isEmpty ? "; check the path" : hint)
        case .fileUnreadable(let p, let r):
            return "\(p): cannot read: \(r)"
        case .empty(let p) where FileSystem.namesStandardInput(p):
            // A pipe or a paste, not a file to export again.
            return "\(p): nothing was read from standard input; pipe or paste the file's content in, or give its path"
        case .empty(let p) where p.lowercased().hasSuffix(".p8"):
            // Apple lets a .p8 be downloaded once: there is no exporting it again.
            return "\(p): the file is empty; a .p8 is downloaded once, so copy it again from where it was kept, or "
                + "create a new key in the Apple Developer portal (Keys) and revoke the lost one"
        case .empty(let p):
            return "\(p): the file is empty; export the certificate or key again"
        case .notACredential(let p, let d) where d.contains("CERTIFICATE REQUEST"):
            // The file made to ask Apple for a certificate, mistaken for the certificate.
            return "\(p): a certificate signing request (CSR), not a certificate: upload it in the Apple Developer "
                + "portal (Certificates, Identifiers & Profiles, Apple Push Notification service SSL), download the "
                + "certificate it gives (aps.cer), and give that with the CSR's key (--key), or export both from "
                + "Keychain Access as a .p12"
        case .notACredential(let p, let d):
            let accepted =
                converting
                ? "pass a .p12, or a .pem holding a certificate and its key" : "pass a .pem, .p12 or .p8 file"
            return "\(p): not a certificate, private key or PKCS#12 file (\(d)); \(accepted)"
        case .corrupt(let p, let d):
            return "\(p): damaged or truncated (\(d)); export or download the file again"
        case .passphraseFileUnreadable(let p, .missing) where !FileSystem.blankAround(p).isEmpty:
            // The value is not repeated, as below; only that it names a file once its blanks are gone.
            return "\(passphraseFileFlag): no such file, but its value without the blanks around it names one "
                + "(kept by quotes, a .env file's line or a paste); remove them"
        case .passphraseFileUnreadable(_, .missing):
            // The value is not repeated: where a file's name belongs, a hurried user types the passphrase itself.
            return "\(passphraseFileFlag): no such file (the value given is not repeated, in case it is the passphrase "
                + "itself); give the path of a file whose first line is the passphrase"
        case .passphraseFileUnreadable(let p, .isDirectory):
            // Not the credential's advice (a .p12 in it): what goes here is the passphrase's own file.
            return
                "\(passphraseFileFlag) \(p): is a directory, not a file; give a file whose first line is the passphrase"
        case .passphraseFileUnreadable(let p, let failure):
            return CredentialProblem(reading: failure.relabelled("\(passphraseFileFlag) \(p)")).message
        case .passphraseRequired(let p):
            return "\(p): encrypted, and no passphrase was given; \(Self.passphraseHelp)"
        case .wrongPassphrase(let p):
            return "\(p): wrong passphrase; check it, and pass it with --passphrase-file FILE or APNSCTL_PASSPHRASE"
        case .passphraseEntryEnded(let p):
            return "\(p): the passphrase input ended (Ctrl-D) before a passphrase was typed; run again and type it, "
                + "or pass it with --passphrase-file FILE or APNSCTL_PASSPHRASE"
        case .unsupportedAlgorithm(let p, let d):
            return "\(p): uses an algorithm OpenSSL cannot run here (\(d)); "
                + "install OpenSSL's legacy provider (legacy.so) or re-export with modern encryption"
        case .excessiveKeyDerivation(let p, let excess, let inPKCS12):
            return "\(p): " + Self.keyDerivationMessage(excess, inPKCS12: inPKCS12)
        case .noCertificate(let p) where FileSystem.namesStandardInput(p):
            // No name to tell an Apple .p8 by (`cat AuthKey_….p8 | … --cert -`): both ways on are given.
            return "\(p): holds a private key but no certificate; give the certificate, with this key as its --key, "
                + "or if it is an APNs .p8 signing key, give it with --auth-key (token auth) instead"
        case .keyOnlyPKCS12(let p):
            return
                "\(p): a .p12 holding a private key but no certificate (the key exported alone); in Keychain Access, "
                + "export the certificate under My Certificates, which takes its key with it"
        case .noCertificate(let p):
            return
                "\(p): holds a private key but no certificate; pass the certificate file, with this file as its --key"
        case .tokenSigningKeyNotCertificate(let p):
            return "\(p): this is an APNs token-auth signing key (.p8), not a certificate or a certificate's key; "
                + "it needs no certificate and no conversion: use token auth with "
                + Self.tokenAuthFlags(authKey: p)
        case .keyFileHoldsCertificate(let k, let c, let swapped):
            return swapped
                ? "\(k): given as the key, but it holds a certificate, and \(c) holds a key: the two look swapped; "
                    + "give \(k) as the certificate and \(c) as its key"
                : "\(k): given as the key, but it holds a certificate, not a private key; give the certificate's "
                    + "key file as the key, or a .p12 that holds both"
        case .notAClientCertificate(let p, let info):
            return CredentialMessages.notApplePush(p, info: info)
        case .noPrivateKey(let p):
            return "\(p): holds a certificate but no private key; pass the key with --key FILE, "
                + "or export the certificate together with its key as .p12"
        case .keyDoesNotMatchCertificate(let c, let k):
            return c == k
                ? "\(c): the private key does not belong to the certificate; export the certificate with its own key"
                : "\(k): the private key does not belong to the certificate in \(c); pass the key made for that certificate"
        case .expired(let p, let t, let days):
            return "\(p): the certificate expired on \(ISO8601.format(epochSeconds: t)) (\(DayCount.text(days)) ago); "
                + "create a new push certificate in the Apple Developer portal"
        case .tooWeak(let p, let weakness):
            // Apple's push certificates (RSA 2048, SHA-256) pass every level a distribution sets by default.
            return "\(p): \(weakness); "
                + (weakness.isLeaf
                    ? "APNs push certificates have an RSA 2048 key and a SHA-256 signature: create a new one in the "
                        + "Apple Developer portal (a test certificate: make it with such a key and digest)"
                    : "leave it out of the file (APNs needs only the push certificate and its key), or replace it "
                        + "with the issuer's current one (Apple's intermediates: apple.com/certificateauthority)")
        case .notYetValid(let p, let t, let days):
            return
                "\(p): the certificate is not valid before \(ISO8601.format(epochSeconds: t)) (in \(DayCount.text(days))); "
                + "check the system clock or wait"
        case .notSigningKey(let p, let found)
        where !takesCertificates && (found.hasPrefix("a certificate") || found.hasPrefix("a PKCS#12")):
            // Named by where it came from by the caller, which knows (a flag, a profile, a variable's PEM).
            return "\(p): this is \(found), not a .p8 signing key; " + CredentialMessages.tokensNeedTheP8
        case .notSigningKey(let p, CredentialProblem.keyOnlyPKCS12Found):
            // No certificate to point to --cert: the two files each auth takes.
            return "--auth-key \(p): this is \(CredentialProblem.keyOnlyPKCS12Found), not a .p8 signing key; token "
                + "auth takes the AuthKey_<KEYID>.p8 file downloaded from the Apple Developer portal (Keys), and "
                + "certificate auth a .p12 exported with the push certificate and its key (--cert)"
        case .notSigningKey(let p, let found) where found.hasPrefix("a certificate") || found.hasPrefix("a PKCS#12"):
            // The usual mix-up: a push certificate given where the token key goes.
            // A variable's PEM has no path to pass: the certificate's own variable is the place.
            let instead =
                CredentialSource.variable(inDisplayName: p) != nil
                ? "APNSCTL_CERT (set APNSCTL_CERT instead)" : "--cert (--cert \(p))"
            return "--auth-key \(p): this is \(found), not a .p8 signing key; a certificate belongs in \(instead), "
                + "or download the .p8 key from the Apple Developer portal for token auth"
        case .notSigningKey(let p, let found):
            let checks =
                found == CredentialProblem.publicKeyFound ? " (jwt --decode and the mock take one to check tokens)" : ""
            return "\(p): not an APNs signing key (found \(found)\(checks), need an EC P-256 key in PKCS#8 PEM); "
                + "download the .p8 key from the Apple Developer portal"
        case .encryptedSigningKey(let p):
            return "\(p): the key is encrypted, and Apple's .p8 keys are not; " + CredentialMessages.decryptAdvice(p)
        case .invalidKeyIDInFileName(let p, let id):
            return "\(FileSystem.baseName(p)): '\(id)' in the file name is not a key id (10 characters A-Z and 0-9); "
                + "\(keyIDAdvice) with the key id from the Apple Developer portal"
        case .missingKeyID(let p):
            let name =
                if FileSystem.namesStandardInput(p) {
                    "a key read from standard input has no file name to carry one"
                } else if let variable = CredentialSource.variable(inDisplayName: p) {
                    // A PEM held in a variable has no file name at all.
                    "a key held in \(variable) has no file name to carry one"
                } else {
                    "the file name \(FileSystem.baseName(p)) does not carry one"
                }
            // Named by the advice, not by `--key-id`: a key from a profile or a variable takes its id there, and the
            // flag is then refused.
            return "no key id: \(name) (AuthKey_<KEYID>.p8); \(keyIDAdvice) with the 10-character key id"
        case .invalidKeyID(let v):
            return
                "--key-id: '\(v)' is not a key id; it must be 10 characters A-Z and 0-9, as shown in the Apple Developer portal"
        case .missingTeamID:
            return "--team-id: missing; pass --team-id or set APNSCTL_TEAM_ID to your 10-character team id"
        case .invalidTeamID(let v):
            return
                "--team-id: '\(v)' is not a team id; it must be 10 characters A-Z and 0-9, as shown in the Apple Developer portal"
        case .environmentNotAllowed(let p, let r, let a):
            let has = a.isEmpty ? "no APNs environment" : a.map(\.rawValue).joined(separator: " and ")
            return "\(p): the certificate is not valid for \(r.rawValue) (it allows \(has)); "
                + "use --env matching the certificate or a certificate for \(r.rawValue)"
        }
    }

    /// `--auth-key FILE --key-id ID --team-id TEAMID --topic BUNDLE_ID`, the key id from an `AuthKey_<KEYID>.p8` name when it
    /// has one: the command that uses a `.p8` where it was given as a certificate.
    static func tokenAuthFlags(authKey path: String) -> String {
        let id = SigningKey.keyID(fromFileName: path).flatMap { DeveloperID.isWellFormed($0) ? $0 : nil }
        return "--auth-key \(ShellWord.of(path)) --key-id \(id ?? "KEYID") --team-id TEAMID --topic BUNDLE_ID "
            + "(TEAMID: your 10-character team id\(id == nil ? "; KEYID: the key's 10-character id" : ""))"
    }

    /// What a refused key derivation asks for, why it is not run, and what to do (CLI.md, "Exit codes").
    private static func keyDerivationMessage(_ excess: ExcessiveKeyDerivation, inPKCS12: Bool) -> String {
        let subject = inPKCS12 ? "the PKCS#12 file" : "the encrypted private key"
        let notDecrypted = inPKCS12 ? "so its key was not decrypted" : "so it was not decrypted"
        switch excess {
        case .iterations(let count):
            let shown = count == Int64.max ? "an unreadably large number of" : "\(count)"
            return "\(subject) asks for \(shown) key-derivation iterations (apnsctl allows at most "
                + "\(ExcessiveKeyDerivation.maximumIterations)), which would take minutes, \(notDecrypted); "
                + "export it again (exporters use 2048 to 600000)"
        case .scrypt(let n, let r, let p):
            func shown(_ value: UInt64) -> String { value == UInt64.max ? "(too large to read)" : "\(value)" }
            let asked = "\(subject) asks for scrypt with N=\(shown(n)), r=\(shown(r)), p=\(shown(p))"
            let advice = "export it again (exporters use scrypt N=16384, r=8, p=1, or PBKDF2)"
            let bytes = ExcessiveKeyDerivation.scryptBytes(n: n, r: r, p: p)
            if bytes > ExcessiveKeyDerivation.maximumScryptBytes {
                let mebibytes =
                    bytes == UInt64.max
                    ? "more than can be counted" : "\((bytes >> 20) + (bytes & 0xFFFFF == 0 ? 0 : 1)) MiB"
                return "\(asked), which needs \(mebibytes) of memory (OpenSSL decrypts with at most "
                    + "\(ExcessiveKeyDerivation.maximumScryptBytes >> 20) MiB), \(notDecrypted); \(advice)"
            }
            let work = ExcessiveKeyDerivation.scryptWork(n: n, r: r, p: p)
            return
                "\(asked): N·r·p = \(work == UInt64.max ? "more than can be counted" : "\(work)") (apnsctl allows at most "
                + "\(ExcessiveKeyDerivation.maximumScryptWork)), which would take minutes, \(notDecrypted); \(advice)"
        }
    }
}
