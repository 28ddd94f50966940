import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// CLI.md: a value of `APNSCTL_CERT`, `APNSCTL_KEY` or `APNSCTL_AUTH_KEY` that holds `-----BEGIN` anywhere, or a
/// line break, is PEM text (a `Bag Attributes` preamble as `openssl pkcs12 -nodes` writes it, a byte-order mark or a
/// header line before it allowed), never a path, and never printed; no message echoes an environment value longer
/// than 200 characters or with a line break. Every command runs in-process against `apnsctl mock`, whose
/// credentials are generated when it starts.
@Suite struct VariablePEMTests {
    static let token = "3f2a000000000000000000000000000000000000000000000000000000009c1d"

    /// The PEM blocks of `text`, whole (BEGIN and END lines included), in order.
    static func blocks(_ text: String) -> [String] {
        var out: [String] = []
        var rest = Substring(text)
        while let begin = rest.range(of: "-----BEGIN ") {
            guard let labelEnd = rest[begin.upperBound...].range(of: "-----") else { break }
            let label = rest[begin.upperBound..<labelEnd.lowerBound]
            guard let end = rest[labelEnd.upperBound...].range(of: "-----END \(label)-----") else { break }
            out.append(String(rest[begin.lowerBound..<end.upperBound]) + "\n")
            rest = rest[end.upperBound...]
        }
        return out
    }

    /// How a PEM reaches a variable besides as itself.
    enum Form: String, CaseIterable, CustomTestStringConvertible {
        /// `openssl pkcs12 -nodes`: each block after `Bag Attributes` lines (and `subject=`/`issuer=` for a certificate).
        case bagAttributes
        /// A byte-order mark first, as some editors save.
        case byteOrderMark
        /// A line of text before the PEM.
        case headerLine

        var testDescription: String { rawValue }

        /// A line each form adds that would show the value was echoed.
        static let marker = "friendlyName: Apple Push Services: com.example.demo"

        func apply(_ pem: String) -> String {
            switch self {
            case .bagAttributes:
                return VariablePEMTests.blocks(pem).map { block in
                    let certificate = block.hasPrefix("-----BEGIN CERTIFICATE")
                    return "Bag Attributes\n    localKeyID: 6E 1D 7A 02 8C\n    \(Self.marker)\n"
                        + (certificate
                            ? "subject=CN = Apple Push Services: com.example.demo\nissuer=CN = apnsctl test CA\n"
                            : "Key Attributes: <No Attributes>\n")
                        + block
                }.joined()
            case .byteOrderMark: return "\u{FEFF}" + pem
            case .headerLine: return "\(Self.marker)\n" + pem
            }
        }
    }

    /// Which variable carries the PEM, and what the rest of the command needs.
    enum Variable: String, CaseIterable, CustomTestStringConvertible {
        case cert = "APNSCTL_CERT"
        case key = "APNSCTL_KEY"
        case authKey = "APNSCTL_AUTH_KEY"

        var testDescription: String { rawValue }
    }

    /// A mock, and a home for the in-process commands.
    final class Setup: @unchecked Sendable {
        let mock: InProcessMock
        let home: TemporaryDirectory
        /// The certificate alone (for `--cert` beside `APNSCTL_KEY`).
        let certificateOnly: String
        let certificatePEM: String
        let keyPEM: String
        let authKeyPEM: String

        init() throws {
            mock = try InProcessMock()
            home = try TemporaryDirectory(prefix: "variable-pem")
            let client = try String(contentsOfFile: mock.certificate, encoding: .utf8)
            let parts = VariablePEMTests.blocks(client)
            certificatePEM = parts.filter { $0.hasPrefix("-----BEGIN CERTIFICATE") }.joined()
            keyPEM = parts.filter { $0.contains("PRIVATE KEY-----") }.joined()
            authKeyPEM = try String(contentsOfFile: mock.authKey, encoding: .utf8)
            certificateOnly = try home.write("certificate-only.pem", certificatePEM)
        }

        /// The variables for `variable` holding its PEM in `form` (`damaged`: the key's body altered, so it
        /// cannot load), and the flags the rest of the credentials need.
        func credentials(_ variable: Variable, _ form: Form, damaged: Bool = false) -> ([String: String], [String]) {
            func damage(_ pem: String) -> String {
                guard damaged else { return pem }
                var lines = pem.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if let i = lines.firstIndex(where: { !$0.hasPrefix("-----") && $0.count > 20 }) {
                    lines[i] = String(repeating: "A", count: lines[i].count)
                }
                return lines.joined(separator: "\n")
            }
            var variables = ["XDG_CACHE_HOME": home.file("cache"), "XDG_CONFIG_HOME": home.file("config")]
            switch variable {
            case .cert:
                variables["APNSCTL_CERT"] = form.apply(damage(certificatePEM + keyPEM))
                return (variables, [])
            case .key:
                // The credentials are one unit: the certificate comes from its variable too.
                variables["APNSCTL_CERT"] = certificateOnly
                variables["APNSCTL_KEY"] = form.apply(damage(keyPEM))
                return (variables, [])
            case .authKey:
                variables["APNSCTL_AUTH_KEY"] = form.apply(damage(authKeyPEM))
                variables["APNSCTL_KEY_ID"] = mock.keyID
                variables["APNSCTL_TEAM_ID"] = mock.teamID
                return (variables, [])
            }
        }

        /// The lines of the PEM `variable` carries that no output may hold: its base64 body, and the form's marker.
        func secrets(_ variable: Variable) -> [String] {
            let pem: String
            switch variable {
            case .cert: pem = certificatePEM + keyPEM
            case .key: pem = keyPEM
            case .authKey: pem = authKeyPEM
            }
            return pem.split(separator: "\n").filter { !$0.hasPrefix("-----") && $0.count > 20 }.map(String.init) + [
                Form.marker
            ]
        }

        var sendFlags: [String] {
            [
                "send", "-d", VariablePEMTests.token, "--alert", "hi", "--endpoint", mock.endpoint, "--ca-file",
                mock.caFile,
                "--topic", mock.bundleID,
            ]
        }
    }

    /// Runs `arguments` in-process with `variables` and the system's clocks (the mock checks token times, doctor
    /// times its probes); its exit status, stdout and stderr.
    static func run(_ arguments: [String], _ variables: [String: String], home: String) -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let t = TestWorld(variables: variables, home: home)
        t.world.clock = .system
        let status = t.run(arguments)
        return (status, t.stdout.text, t.stderr.text)
    }

    @Test(arguments: Variable.allCases, Form.allCases)
    func pemInAVariableLoadsAndIsNeverPrinted(_ variable: Variable, _ form: Form) async throws {
        try await offThePool {
            let s = try Setup()
            let (variables, credentialFlags) = s.credentials(variable, form)
            let shownName = "(PEM from \(variable.rawValue))"
            let doctor = [
                "doctor", "--env", "sandbox", "--endpoint", s.mock.endpoint, "--ca-file", s.mock.caFile, "--topic",
                s.mock.bundleID,
            ]
            let closed = [
                "send", "-d", Self.token, "--alert", "hi", "--endpoint", "https://127.0.0.1:9", "--timeout", "2",
                "--topic", s.mock.bundleID,
            ]
            // (what, arguments, the exit status it must have, text that shows the variable was named)
            let runs: [(String, [String], Int32, String?)] = [
                ("send", s.sendFlags + credentialFlags, 0, nil),
                ("send -v", s.sendFlags + credentialFlags + ["-v"], 0, shownName),
                ("send --dry-run", s.sendFlags + credentialFlags + ["--dry-run"], 0, nil),
                ("send to a closed port", closed + credentialFlags, 69, nil),
                ("doctor", doctor + credentialFlags, 0, nil),
                ("config show", ["config", "show"] + credentialFlags, 0, shownName),
                ("config show -o json", ["config", "show", "-o", "json"] + credentialFlags, 0, shownName),
            ]
            for (what, arguments, expected, named) in runs {
                let r = Self.run(arguments, variables, home: s.home.path)
                #expect(r.status == expected, "\(what): \(r.stdout)\(r.stderr)")
                for secret in s.secrets(variable) {
                    #expect(
                        !r.stdout.contains(secret) && !r.stderr.contains(secret),
                        "\(what) printed the variable's text: \(r.stdout)\(r.stderr)")
                }
                if let named { #expect((r.stdout + r.stderr).contains(named), "\(what): \(r.stdout)\(r.stderr)") }
            }
            // A PEM that cannot be loaded is named by its variable, never quoted.
            let (damaged, _) = s.credentials(variable, form, damaged: true)
            let bad = Self.run(s.sendFlags + credentialFlags, damaged, home: s.home.path)
            #expect(bad.status == 77, "\(bad.stderr)")
            #expect(bad.stderr.contains(shownName), "\(bad.stderr)")
            for secret in s.secrets(variable) {
                #expect(!bad.stderr.contains(secret) && !bad.stdout.contains(secret), "\(bad.stderr)")
            }
        }
    }

    /// A certificate without its key, from a variable or a profile: `--key` beside it is refused (one place for
    /// the credentials), so the advice names that place's key, not `--key FILE` (which went in a circle).
    @Test func aCertificateWithoutItsKeyIsAdvisedItsKeyWhereItCameFrom() throws {
        let s = try Setup()
        let send = ["send", "-d", String(repeating: "3f2a", count: 16), "--alert", "x", "--dry-run", "--topic", "t"]
        let profile = try s.home.write(
            "split.toml", "[profiles.split]\ncert = \"\(s.certificateOnly)\"\n", mode: 0o600)
        let fromProfile = try InProcess.apnsctl(["send", "--config", profile, "-p", "split"] + send.dropFirst())
        #expect(fromProfile.status == 77, "\(fromProfile.stderr)")
        #expect(
            fromProfile.stderr
                == "error: cert in profile split (\(profile):2) \(s.certificateOnly): holds a certificate but no private key; set key in profile split (apnsctl config set --config \(profile) --profile split key FILE), or export the certificate together with its key as .p12\n"
        )
        let fromVariable = try InProcess.apnsctl(send, environment: ["APNSCTL_CERT": s.certificateOnly])
        #expect(fromVariable.status == 77)
        #expect(
            fromVariable.stderr.hasPrefix(
                "error: APNSCTL_CERT \(s.certificateOnly): holds a certificate but no private key; set APNSCTL_KEY to its key file"
            ), "\(fromVariable.stderr)")
        // A certificate in the token key's variable: for send, the certificate's variable is the place, not a
        // --cert path; jwt takes no certificate at all, so it names the .p8 a token needs.
        let swappedVariables = [
            "APNSCTL_AUTH_KEY": s.certificatePEM + s.keyPEM, "APNSCTL_KEY_ID": s.mock.keyID,
            "APNSCTL_TEAM_ID": s.mock.teamID,
        ]
        let swapped = try InProcess.apnsctl(send, environment: swappedVariables)
        #expect(swapped.status == 77, "\(swapped.stderr)")
        #expect(
            swapped.stderr.contains("a certificate belongs in APNSCTL_CERT (set APNSCTL_CERT instead)"),
            "\(swapped.stderr)")
        let swappedForJWT = try InProcess.apnsctl(["jwt"], environment: swappedVariables)
        #expect(swappedForJWT.status == 77, "\(swappedForJWT.stderr)")
        #expect(
            swappedForJWT.stderr
                == "error: (PEM from APNSCTL_AUTH_KEY): this is a certificate and its key, not a .p8 signing "
                + "key; provider tokens are signed with a .p8 key from the Apple Developer portal (Keys), never with a "
                + "certificate's key\n")
        let fromFlag = try InProcess.apnsctl(send + ["--cert", s.certificateOnly])
        #expect(
            fromFlag.stderr
                == "error: \(s.certificateOnly): holds a certificate but no private key; pass the key with --key FILE, or export the certificate together with its key as .p12\n"
        )
        // A key given below the certificate's place (a profile's, a variable's) is not read, and the message says so,
        // or it seems ignored.
        let key = try s.home.write("key.pem", s.keyPEM, mode: 0o600)
        let keyProfile = try s.home.write("key.toml", "[profiles.k]\nkey = \"\(key)\"\n", mode: 0o600)
        let besideProfile = try InProcess.apnsctl(
            ["send", "--config", keyProfile, "-p", "k", "--cert", s.certificateOnly] + send.dropFirst())
        #expect(besideProfile.status == 77, "\(besideProfile.stderr)")
        #expect(
            besideProfile.stderr
                == "error: --cert \(s.certificateOnly): holds a certificate but no private key; pass the key with --key FILE (key in profile k (\(keyProfile):2) is not read: credentials are taken from one place, here --cert), or export the certificate together with its key as .p12\n"
        )
        let besideVariable = try InProcess.apnsctl(
            send + ["--cert", s.certificateOnly], environment: ["APNSCTL_KEY": key])
        #expect(
            besideVariable.stderr.contains(
                "(APNSCTL_KEY is not read: credentials are taken from one place, here --cert)"),
            "\(besideVariable.stderr)")
    }

    /// A value too long or with a line break to quote: every message, `-v` line and `config show` row says what
    /// it is, never what it holds.
    @Test func longAndMultiLineValuesAreNeverEchoed() throws {
        let home = try TemporaryDirectory(prefix: "variable-echo")
        let long = "com.example." + String(repeating: "q", count: 189)
        #expect(long.count == 201)
        let multi = "first-line-of-a-pasted-file\nsecond-line-of-it"
        let secretParts = [String(repeating: "q", count: 189), "first-line-of-a-pasted-file", "second-line-of-it"]
        let base = ["XDG_CONFIG_HOME": home.file("config"), "XDG_CACHE_HOME": home.file("cache")]
        let cert = try home.pem("client.pem", CredentialFixtures.universal)
        let send = [
            "send", "--cert", cert, "-d", Self.token, "--alert", "hi", "--endpoint", "https://127.0.0.1:9", "--timeout",
            "2",
        ]
        var checked = 0
        for value in [long, multi] {
            for name in [
                "APNSCTL_TOPIC", "APNSCTL_TEAM_ID", "APNSCTL_CA_FILE", "APNSCTL_NOPROXY", "APNSCTL_ENDPOINT",
                "APNSCTL_PROXY",
                "APNSCTL_PROFILE", "APNSCTL_PRIORITY", "APNSCTL_EXPIRATION", "APNSCTL_ENV", "https_proxy", "NO_PROXY",
            ] {
                let variables = base.merging([name: value]) { $1 }
                for arguments in [
                    send, send + ["-v"], send + ["--dry-run"], ["config", "show"], ["config", "show", "-o", "json"],
                ] {
                    let r = Self.run(arguments, variables, home: home.path)
                    for part in secretParts {
                        #expect(
                            !r.stdout.contains(part) && !r.stderr.contains(part),
                            "\(name) (\(value.count) characters), \(arguments): \(r.stdout)\(r.stderr)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 120)
        // What is said instead.
        let topic = Self.run(["config", "show"], base.merging(["APNSCTL_NOPROXY": long]) { $1 }, home: home.path)
        #expect(
            topic.status == 0 && topic.stdout.contains("(a value of 201 characters, not shown)"),
            "\(topic.stdout)\(topic.stderr)")
        let ca = Self.run(send, base.merging(["APNSCTL_CA_FILE": multi]) { $1 }, home: home.path)
        #expect(ca.status == 64, "\(ca.stderr)")
        #expect(
            ca.stderr.contains("APNSCTL_CA_FILE: holds text with a line break (a value of 2 lines), not a path"),
            "\(ca.stderr)")
    }

    /// Only a variable may hold PEM text: a file's text pasted where a path goes (`--key="$(cat key.pem)"`, a
    /// profile's `auth-key = """-----BEGIN…"""`, `inspect --key`, the mock's `--auth-key-pub`) is exit 64 naming the
    /// flag or the file's line, and the text is never printed (taken as a path, every message about the file quoted
    /// it: the key among it).
    /// inspect's and convert's file given as PEM text: the way is `-` with the text on standard input (they read no
    /// APNSCTL_* variable, which the advice named).
    @Test(arguments: [["inspect"], ["convert", "-o", "out.pem"]])
    func pemTextAsTheFileArgumentSaysStandardInput(_ command: [String]) throws {
        let pem = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUa\n-----END CERTIFICATE-----\n"
        let r = try InProcess.apnsctl([command[0], pem] + command.dropFirst())
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.stderr.hasSuffix(
                "so give the file's path or - with the text on standard input (printf '%s\\n' \"$CERT_PEM\" | apnsctl "
                    + "\(command[0]) -)\n"), "\(r.stderr)")
        #expect(!r.stderr.contains("APNSCTL_") && !r.stderr.contains("MIIB"), "\(r.stderr)")
    }

    @Test func pemTextWhereAPathGoesIsRefusedAndNeverPrinted() async throws {
        try await offThePool {
            let s = try Setup()
            let both = s.certificatePEM + s.keyPEM
            let secrets = s.secrets(.cert) + s.secrets(.authKey)
            let auth = ["--key-id", s.mock.keyID, "--team-id", s.mock.teamID]
            let config = s.home.file("config")
            try FileManager.default.createDirectory(atPath: config + "/apnsctl", withIntermediateDirectories: true)
            let profile = try s.home.write(
                "config/apnsctl/config.toml",
                "[profiles.ci]\nauth-key = \"\"\"\(s.authKeyPEM)\"\"\"\nkey-id = \"\(s.mock.keyID)\"\n", mode: 0o600)
            // (arguments, what the message starts with)
            let runs: [([String], String)] = [
                (s.sendFlags + ["--cert=\(both)"], "error: the value of --cert holds PEM text (a value of "),
                (
                    s.sendFlags + ["--cert", s.certificateOnly, "--key=\(s.keyPEM)"],
                    "error: the value of --key holds PEM text"
                ),
                (s.sendFlags + ["--auth-key=\(s.authKeyPEM)"] + auth, "error: the value of --auth-key holds PEM text"),
                (s.sendFlags + ["-p", "ci"], "error: \(profile):2: auth-key: holds PEM text"),
                (["jwt", "--auth-key=\(s.authKeyPEM)"] + auth, "error: the value of --auth-key holds PEM text"),
                (["doctor", "--cert=\(both)"], "error: the value of --cert holds PEM text"),
                (["config", "set", "-p", "ci", "cert", "--", both], "error: the value of cert holds PEM text"),
                (["config", "set", "auth-key", both], "error: the value of auth-key holds PEM text"),
                (
                    ["inspect", "--key=\(s.keyPEM)", s.mock.certificate],
                    "error: the value of --key holds PEM text (a value of "
                ),
                (["inspect", "--", both], "error: argument 3 holds PEM text"),
                (
                    ["convert", s.certificateOnly, "--key=\(s.keyPEM)", "-o", s.home.file("out.pem")],
                    "error: the value of --key holds PEM text"
                ),
                (
                    ["mock", "--port", "0", "--auth-key-pub=\(s.authKeyPEM)"],
                    "error: the value of --auth-key-pub holds PEM text"
                ),
                // Any path flag, not only the credentials' (a directory named after the key was made).
                (
                    ["mock", "--port", "0", "--state-dir=\(s.authKeyPEM)"],
                    "error: the value of --state-dir holds PEM text"
                ),
                (["convert", s.certificateOnly, "-o", both], "error: the value of -o holds PEM text"),
                (
                    s.sendFlags + ["--cert", s.mock.certificate, "--unsent", s.keyPEM],
                    "error: the value of --unsent holds PEM text"
                ),
                (
                    s.sendFlags + ["--cert", s.mock.certificate, "--ca-file=\(s.certificatePEM)"],
                    "error: the value of --ca-file holds PEM text"
                ),
                // After a flag that takes no value the word is an argument of its own (jwt's token), not its value.
                (["jwt", "--decode", s.authKeyPEM], "error: argument 3 holds PEM text"),
            ]
            for (arguments, start) in runs {
                let r = Self.run(
                    arguments, ["XDG_CONFIG_HOME": config, "XDG_CACHE_HOME": s.home.file("cache")], home: s.home.path)
                #expect(r.status == 64, "\(arguments.prefix(2)): \(r.stdout)\(r.stderr)")
                #expect(r.stderr.hasPrefix(start), "\(arguments.prefix(2)): \(r.stderr)")
                for secret in secrets {
                    #expect(
                        !r.stdout.contains(secret) && !r.stderr.contains(secret), "\(arguments.prefix(2)): \(r.stderr)")
                }
            }
            // `config set` wrote nothing.
            #expect(try String(contentsOfFile: profile, encoding: .utf8).components(separatedBy: "BEGIN").count == 2)
        }
    }
}
