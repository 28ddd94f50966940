import APNSTestSupport
import Foundation
import Testing

/// `send --dry-run` prints a curl command; it must work as printed. CLI.md: the curl part starts at the first
/// line that begins with `#` and mentions curl, and works when pasted into a POSIX shell: secrets are
/// shell variables the block sets itself (a passphrase from --passphrase-file or APNSCTL_PASSPHRASE, a JWT
/// from `apnsctl jwt`), never printed. Each case pipes that part into `sh` against `apnsctl mock`.
@Suite struct DryRunCurlTests {
    static let token = String(repeating: "3f2a", count: 16)

    enum Input: String, CaseIterable {
        case pem, der, pkcs12, pkcs12PassphraseFile, pkcs12QuotedPassphrase, legacyPKCS12, tokenAuth
        /// Exported with an empty password: apnsctl opens it without asking, and so does curl, so the block
        /// asks for no passphrase (it said to set APNSCTL_PASSPHRASE, which works only unset).
        case pkcs12EmptyPassword, legacyPKCS12EmptyPassword
        /// An encrypted PKCS#8 key in DER beside a DER certificate: curl reads DER keys unencrypted only, so the
        /// block converts them to PEM first. It gave curl the DER key, which curl could not open.
        case encryptedDER
    }

    /// The lines from the first `#` line that mentions curl to the end.
    static func curlPart(_ stdout: String) -> String? {
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("#") && $0.contains("curl") }) else { return nil }
        return lines[start...].joined(separator: "\n") + "\n"
    }

    @Test(arguments: Input.allCases)
    func printedCurlPartRunsInShAndIsAcceptedByTheMock(input: Input) async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let dir = try TemporaryDirectory(prefix: "dry-run-curl")
            // curl's config, which carries the passphrase, reads `"` and `\` as escapes; the shell `$`, `'`, backquotes.
            let secret = input == .pkcs12QuotedPassphrase ? #"s3"cr\et\n $HOME `id` it's"# : "s3cret-\(input.rawValue)"
            var credential: [String]
            var environment: [String: String] = ["XDG_CACHE_HOME": dir.file("cache")]
            switch input {
            case .pem:
                credential = ["--cert", mock.certificate]
            case .der, .encryptedDER:
                // The portal's DER certificate, and its key in DER: plain, or PKCS#8 under the passphrase.
                let cert = dir.file("aps.cer")
                let key = dir.file("key.der")
                #expect(
                    try CommandRunner.run(
                        "openssl", ["x509", "-in", mock.certificate, "-outform", "DER", "-out", cert]
                    )
                    .status == 0)
                let keyForm =
                    input == .der
                    ? ["pkey"] : ["pkcs8", "-topk8", "-v2", "aes-256-cbc", "-passout", "pass:\(secret)"]
                #expect(
                    try CommandRunner.run(
                        "openssl", keyForm + ["-in", mock.certificate, "-outform", "DER", "-out", key]
                    )
                    .status == 0)
                credential = ["--cert", cert, "--key", key]
                if input == .encryptedDER { environment["APNSCTL_PASSPHRASE"] = secret }
            case .pkcs12, .pkcs12PassphraseFile, .pkcs12QuotedPassphrase:
                let p12 = dir.file("push.p12")
                try OpenSSLFixtures.exportPKCS12(mock.certificate, to: p12, passphrase: secret)
                credential = ["--cert", p12]
                if input != .pkcs12PassphraseFile {
                    environment["APNSCTL_PASSPHRASE"] = secret
                } else {
                    credential += ["--passphrase-file", try dir.write("pass.txt", secret + "\n")]
                }
            case .pkcs12EmptyPassword:
                let p12 = dir.file("push.p12")
                try OpenSSLFixtures.exportPKCS12(mock.certificate, to: p12, passphrase: "")
                credential = ["--cert", p12]
            case .legacyPKCS12, .legacyPKCS12EmptyPassword:
                // RC2-40/3DES as Keychain Access exports it: curl's OpenSSL 3 cannot read it, so the block
                // converts it to PEM first.
                let p12 = dir.file("legacy.p12")
                let empty = input == .legacyPKCS12EmptyPassword
                let made = try InProcess.apnsctl(
                    ["convert", mock.certificate, "-o", p12, "--legacy"]
                        + (empty ? ["--out-passphrase-file", try dir.write("empty.txt", "")] : []),
                    environment: empty ? [:] : ["APNSCTL_OUT_PASSPHRASE": secret])
                #expect(made.status == 0, "\(made.stderr)")
                credential = ["--cert", p12]
                if !empty { environment["APNSCTL_PASSPHRASE"] = secret }
            case .tokenAuth:
                credential = ["--auth-key", mock.authKey, "--team-id", mock.teamID, "--topic", mock.bundleID]
            }
            let dry = try InProcess.apnsctl(
                [
                    "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--alert", "Hi",
                    "-d", Self.token, "--dry-run",
                ] + credential, environment: environment)
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(!dry.stdout.contains(secret), "the passphrase is never printed")
            let script = try #require(Self.curlPart(dry.stdout), "\(dry.stdout)")
            #expect(
                script.contains("apnsctl convert")
                    == [.legacyPKCS12, .legacyPKCS12EmptyPassword, .encryptedDER].contains(input),
                "\(script)")
            if [.pkcs12EmptyPassword, .legacyPKCS12EmptyPassword].contains(input) {
                #expect(!script.contains("PASSPHRASE") && !script.contains("pass ="), "\(script)")
            }
            // A passphrase reaches curl in its config on standard input, never through `--pass`.
            #expect(!script.contains("--pass "), "\(script)")
            if input == .der {
                #expect(script.contains("--cert-type DER") && script.contains("--key-type DER"), "\(script)")
            }
            // The block may call apnsctl by name (for the JWT, or to convert a legacy `.p12`), here run by the
            // test process; the passphrase comes from the same places.
            let apnsctl = try ApnsctlByName(in: dir)
            var shellEnvironment = environment
            shellEnvironment["PATH"] = apnsctl.searchPath()
            let run = try CommandRunner.run(
                "/bin/sh", [], stdin: Array(script.utf8), environment: shellEnvironment, timeout: 60)
            apnsctl.stop()
            let expected: [String] =
                switch input {
                case .tokenAuth: ["jwt"]
                case .legacyPKCS12, .legacyPKCS12EmptyPassword, .encryptedDER: ["convert"]
                default: []
                }
            #expect(apnsctl.calls.compactMap { $0.first } == expected, "\(apnsctl.calls)\n\(script)")
            #expect(run.status == 0, "\(input): \(run.stderr)\n\(script)")
            #expect(run.stdout.hasPrefix("HTTP/2 200"), "\(input): \(run.stdout)\n\(script)")
        }
    }

    /// Through a SOCKS5 proxy that wants a user and a password with `"`, `\`, `$` and a space: the block gives
    /// real curl the credentials in its config (the password from APNS_PROXY_PASSWORD, as its comment asks),
    /// and the proxy lets it through only if they arrive exactly.
    @Test func printedCurlPartPassesProxyCredentialsThatNeedEscaping() throws {
        let mock = try InProcessMock()
        let password = #"p"a\ss $HOME \n"#
        let proxy = try ProxyProcess(.microsocks(credentials: ("bob", password)))
        let dir = try TemporaryDirectory(prefix: "dry-run-curl")
        let environment = ["XDG_CACHE_HOME": dir.file("cache"), "NO_PROXY": "", "no_proxy": ""]
        let dry = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                "--proxy", proxy.url(scheme: "socks5h", user: "bob"), "--alert", "Hi",
                "-d", Self.token, "--dry-run",
            ], environment: environment)
        #expect(dry.status == 0, "\(dry.stderr)")
        let script = try #require(Self.curlPart(dry.stdout), "\(dry.stdout)")
        #expect(!script.contains("--proxy-user") && script.contains("proxy-user = "), "\(script)")
        var shellEnvironment = environment
        shellEnvironment["APNS_PROXY_PASSWORD"] = password
        let run = try CommandRunner.run(
            "/bin/sh", [], stdin: Array(script.utf8), environment: shellEnvironment, timeout: 60)
        #expect(run.status == 0, "\(run.stderr)\n\(script)")
        #expect(run.stdout.hasPrefix("HTTP/2 200"), "\(run.stdout)\n\(script)")
    }
}
