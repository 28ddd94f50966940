import APNSCore
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// `-` for a credential or a passphrase file reads the command's standard input: in-process, the world's, never
/// the test process's own (a terminal there kept `make test` waiting for a line typed at it, and a pipe lost the
/// bytes that were meant for the command). Each command here succeeds only with what its own input holds.
@Suite struct CredentialStandardInputTests {
    @Test func aPassphraseFileOfDashReadsTheCommandsInput() throws {
        let (dir, p12) = try CredentialSlipTests.p12()
        let typed = Array((CredentialSlipTests.password + "\n").utf8)
        let inspect = try InProcess.apnsctl(["inspect", p12, "--passphrase-file", "-"], stdin: typed)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let pem = dir.file("out.pem")
        let convert = try InProcess.apnsctl(["convert", p12, "-o", pem, "--passphrase-file", "-"], stdin: typed)
        #expect(convert.status == 0, "\(convert.stderr)")
        let written = dir.file("again.p12")
        let out = try InProcess.apnsctl(
            ["convert", pem, "-o", written, "--out-passphrase-file", "-"], stdin: Array("fresh\n".utf8))
        #expect(out.status == 0, "\(out.stderr)")
        let reopened = try InProcess.apnsctl(["inspect", written, "--passphrase", "fresh"])
        #expect(reopened.status == 0, "the password written is the line given: \(reopened.stderr)")
        // Nothing at all on standard input (closed, /dev/null, an unset secret printed without a newline) is no
        // password, 64 as without one; an empty line asks for an empty password, with the warning.
        let nothing = try InProcess.apnsctl(
            ["convert", pem, "-o", dir.file("none.p12"), "--out-passphrase-file", "-"], stdin: [])
        #expect(nothing.status == 64, "\(nothing.stderr)")
        #expect(nothing.stderr.contains("standard input holds nothing, not even an empty line"), "\(nothing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("none.p12")))
        let emptyLine = try InProcess.apnsctl(
            ["convert", pem, "-o", dir.file("empty.p12"), "--out-passphrase-file", "-"], stdin: Array("\n".utf8))
        #expect(emptyLine.status == 0, "\(emptyLine.stderr)")
        #expect(emptyLine.stderr.contains("gets an empty password"), "\(emptyLine.stderr)")
    }

    @Test func aCredentialOfDashReadsTheCommandsInput() throws {
        let dir = try TemporaryDirectory(prefix: "stdin-credential")
        let pem = try dir.pem("push.pem", CredentialFixtures.universal)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: pem)))
        let inspect = try InProcess.apnsctl(["inspect", "-", "-o", "json"], stdin: bytes)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("\"subject\""), "\(inspect.stdout.prefix(300))")
        #expect(inspect.stdout.hasPrefix(#"{"file":"-","#), "JSON keeps the argument: \(inspect.stdout.prefix(100))")
        // The text names where the bytes came from: `-` names no file. A key piped in beside a certificate file too.
        let text = try InProcess.apnsctl(["inspect", "-"], stdin: bytes)
        #expect(text.stdout.hasPrefix("file:         (standard input)\n"), "\(text.stdout.prefix(100))")
        let identity = CredentialFixtures.universal
        let certificate = try dir.write("cert.pem", identity.certificate.pem)
        let key = try InProcess.apnsctl(
            ["inspect", certificate, "--key", "-"], stdin: try identity.privateKey.pkcs8PEM(passphrase: nil))
        #expect(key.status == 0, "\(key.stderr)")
        #expect(
            key.stdout.contains("private key:  present, matches the certificate (key read from standard input)\n"),
            "\(key.stdout)")
        let alone = try InProcess.apnsctl(["inspect", "-"], stdin: identity.certificate.pem)
        #expect(alone.stdout.contains("private key:  none in this input (pass --key FILE"), "\(alone.stdout)")
        let convert = try InProcess.apnsctl(["convert", "-", "-o", dir.file("copy.pem")], stdin: bytes)
        #expect(convert.status == 0, "\(convert.stderr)")
        let p8 = try CredentialFixtures.signingKey.p8PEM
        let jwt = try InProcess.apnsctl(
            ["jwt", "--auth-key", "-", "--key-id", "ABCDE12345", "--team-id", "TEAMID1234"], stdin: p8)
        #expect(jwt.status == 0, "\(jwt.stderr)")
        #expect(jwt.stdout.split(separator: ".").count == 3, "\(jwt.stdout.prefix(100))")
        // No file name to take the key id from: said so, not "the file name -".
        let noID = try InProcess.apnsctl(["jwt", "--auth-key", "-", "--team-id", "TEAMID1234"], stdin: p8)
        #expect(noID.status == 77, "\(noID.stderr)")
        #expect(
            noID.stderr.contains("no key id: a key read from standard input has no file name to carry one"),
            "\(noID.stderr)")
        // Nor has a key held in a variable: named by the variable, not as "the file name (PEM from …)".
        let held = try InProcess.apnsctl(
            ["jwt", "--team-id", "TEAMID1234"],
            environment: ["APNSCTL_AUTH_KEY": String(decoding: p8, as: UTF8.self)])
        #expect(held.status == 77, "\(held.stderr)")
        #expect(
            held.stderr.contains("no key id: a key held in APNSCTL_AUTH_KEY has no file name to carry one"),
            "\(held.stderr)")
    }

    /// A credential piped in is named as the passphrase prompt names it, or by its flag, in every message: `-:` said
    /// nothing to a user who had piped a `.p12` in, and its emptiness is no file to export again.
    @Test func aCredentialFromStandardInputIsNamedSoInEveryMessage() throws {
        let (dir, p12) = try CredentialSlipTests.p12()
        let identity = CredentialFixtures.universal
        let certificate = try dir.write("push.crt", identity.certificate.pem)
        let encryptedKey = try identity.privateKey.pkcs8PEM(passphrase: SecretBytes(Array("pw".utf8)))
        let encrypted = identity.certificate.pem + encryptedKey
        let wrong = try dir.write("wrong.txt", "not-it\n")
        let otherKey = try PrivateKey.generate(.ecP256).pkcs8PEM(passphrase: nil)
        let send =
            ["send", "--cert", certificate, "--key", "-", "-d", String(repeating: "ab", count: 32)]
            + ["--alert", "hi", "--endpoint", "https://127.0.0.1:9", "--topic", "com.example.demo"]
        let cases: [(arguments: [String], input: [UInt8], start: String)] = [
            (["inspect", "-"], encrypted, "the credential read from standard input: encrypted, and no passphrase"),
            (
                ["inspect", "-"], [],
                "the credential read from standard input: nothing was read from standard input;"
            ),
            (
                ["inspect", "-", "--passphrase-file", wrong], Array(try Data(contentsOf: URL(fileURLWithPath: p12))),
                "the credential read from standard input: wrong passphrase (the first line of"
            ),
            (["convert", "-", "-o", dir.file("out.pem")], encrypted, "the credential read from standard input: "),
            (send, encryptedKey, "--key -: encrypted, and no passphrase"),
            (send, [], "--key -: nothing was read from standard input; pipe or paste the file's content in"),
            (["inspect", certificate, "--key", "-"], otherKey, "--key -: the private key does not belong"),
            (
                Array(send.prefix(1)) + ["--cert", "-"] + send.dropFirst(5), try CredentialFixtures.signingKey.p8PEM,
                "--cert -: holds a private key but no certificate; give the certificate, with this key as its --key, "
                    + "or if it is an APNs .p8 signing key, give it with --auth-key"
            ),
            (["convert", certificate, "--key", "/dev/stdin", "-o", dir.file("x.p12")], otherKey, "--key /dev/stdin: "),
            (
                ["jwt", "--auth-key", "/dev/stdin", "--team-id", "TEAMID1234"], try CredentialFixtures.signingKey.p8PEM,
                "no key id: a key read from standard input has no file name to carry one"
            ),
        ]
        for c in cases {
            let r = try InProcess.apnsctl(c.arguments, stdin: c.input)
            #expect(r.status == 77, "\(c.arguments): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: " + c.start), "\(c.arguments): \(r.stderr)")
            #expect(!r.stderr.contains("the file is empty"), "\(r.stderr)")
        }
        // Warnings name it so too.
        let certificateOnly = try InProcess.apnsctl(
            ["convert", "-", "-o", dir.file("certificate.pem")], stdin: identity.certificate.pem)
        #expect(certificateOnly.status == 0, "\(certificateOnly.stderr)")
        #expect(
            certificateOnly.stderr.contains(
                "warning: the credential read from standard input: holds no private key; writing the certificates only"),
            "\(certificateOnly.stderr)")
    }

    /// `send --cert -`: the certificate and its key from the command's input, sent with.
    @Test func sendReadsACertificateOfDashFromTheCommandsInput() async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: mock.certificate)))
            let r = try InProcess.apnsctl(
                [
                    "send", "--cert", "-", "-d", String(repeating: "ab", count: 32), "--alert", "hi",
                    "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                ], stdin: bytes)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix("accepted  200"), "\(r.stdout)")
        }
    }

    /// Two readers of standard input are 64 naming both in every command that reads credentials, not only in send,
    /// inspect and convert: doctor and channel called the second an empty file to export again, or the passphrase
    /// wrong, and jwt --decode read the key as the token.
    @Test func twoReadersOfStandardInputAreRefusedByEveryCommand() throws {
        let (dir, p12) = try CredentialSlipTests.p12()
        let p8 = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM)
        let endpoint = ["--endpoint", "https://127.0.0.1:9", "--topic", "com.example.demo"]
        let runs: [([String], [String: String], String)] = [
            (["doctor", "--cert", "-", "--passphrase-file", "-"] + endpoint, [:], "--passphrase-file - and --cert -"),
            (
                ["doctor", "--cert", "-"] + endpoint, ["APNSCTL_PASSPHRASE_FILE": "-"],
                "APNSCTL_PASSPHRASE_FILE (-) and --cert -"
            ),
            (
                ["channel", "create", "--cert", p12, "--passphrase-file", "-", "--key", "-"] + endpoint, [:],
                "--passphrase-file - and --key -"
            ),
            (["jwt", "--decode", "-", "--auth-key", "-"], [:], "TOKEN - and --auth-key -"),
            (["jwt", "--decode"], ["APNSCTL_AUTH_KEY": "-"], "--decode without TOKEN and APNSCTL_AUTH_KEY (-)"),
        ]
        for (arguments, variables, both) in runs {
            let r = try InProcess.apnsctl(arguments, stdin: Array("x\n".utf8), environment: variables)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("error: \(both) both read standard input"), "\(arguments): \(r.stderr)")
        }
        // One reader is no conflict: a token argument beside --auth-key - reads the key alone.
        let token = try InProcess.apnsctl(["jwt", "--auth-key", p8, "--team-id", "TEAMID1234"]).stdout
        let checked = try InProcess.apnsctl(
            ["jwt", "--decode", token.trimmingCharacters(in: .whitespacesAndNewlines), "--auth-key", "-"],
            stdin: try CredentialFixtures.signingKey.p8PEM)
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    /// A passphrase file of `-` is its first line: read no further, so a writer that keeps the pipe open (ssh,
    /// `docker run -i`) does not keep the command waiting, and `yes |` is one line, not 64 MiB.
    @Test func aPassphraseFromStandardInputIsReadToItsFirstLineEnd() throws {
        let (dir, p12) = try CredentialSlipTests.p12()
        defer { withExtendedLifetime(dir) {} }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let line = Array((CredentialSlipTests.password + "\n").utf8)
        #expect(line.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == line.count)
        // The write end stays open: a read to the end would wait until the timeout.
        let r = try InProcess.apnsctl(
            ["inspect", p12, "--passphrase-file", "-"], timeout: 20, standardInput: ends[0])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.seconds < 15, "read past its line: \(r.seconds) s")
    }

    /// Standard input that cannot be read (a directory) is said as every `-` says it (66), not taken for no token.
    @Test func jwtDecodeSaysStandardInputCannotBeRead() throws {
        let dir = try TemporaryDirectory(prefix: "stdin-dir")
        let fd = open(dir.path, O_RDONLY | O_DIRECTORY)
        #expect(fd >= 0)
        defer { close(fd) }
        let r = try InProcess.apnsctl(["jwt", "--decode"], standardInput: fd)
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stderr.contains("-: "), "\(r.stderr)")
        #expect(!r.stderr.contains("no token to decode"), "\(r.stderr)")
    }

    /// `-` where a profile names a file is standard input, which no profile can hold: refused before writing.
    @Test func aProfileCannotNameStandardInput() throws {
        let home = try TemporaryDirectory(prefix: "stdin-profile")
        let variables = ["XDG_CONFIG_HOME": home.file("cfg"), "HOME": home.path]
        for arguments in [
            ["config", "init", "--profile", "p", "--auth-key", "-", "--key-id", "ABCDE12345"],
            ["config", "set", "--profile", "p", "cert", "-"],
            ["config", "set", "--profile", "p", "passphrase-file", "-"],
        ] {
            let r = try InProcess.apnsctl(arguments, environment: variables)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(
                r.stderr.contains("- is standard input, which a command line reads and a profile cannot"), "\(r.stderr)"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: home.file("cfg/apnsctl/config.toml")))
        // Written by hand, it named a file called `-` beside the settings file: "no such file" (66), or that file.
        for key in ["ca-file", "cert", "passphrase-file", "app"] {
            let lines = ["[profiles.dash]", "topic = \"x\""] + (key == "cert" ? [] : ["cert = \"push.pem\""])
            let config = try home.write("\(key).toml", (lines + ["\(key) = \"-\""]).joined(separator: "\n") + "\n")
            let r = try InProcess.apnsctl(
                ["send", "--config", config, "-p", "dash", "-d", String(repeating: "ab", count: 32), "--dry-run"],
                environment: variables)
            #expect(r.status == 64, "\(key): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: \(config):\(lines.count + 1): \(key)"), "\(key): \(r.stderr)")
            #expect(
                r.stderr.contains(": - is standard input, which a command line reads and a profile cannot"),
                "\(key): \(r.stderr)")
        }
    }

    /// `--config -` (or `APNSCTL_CONFIG=-`) wrote and read a file called `-` in the working directory: the settings
    /// file is read and written by its path, so `-` is 64, nothing written.
    @Test func theSettingsFileIsNoStream() throws {
        let home = try TemporaryDirectory(prefix: "config-dash")
        let runs: [([String], [String: String], String)] = [
            (["config", "init", "--config", "-", "--cert", "push.pem"], [:], "--config -"),
            (["config", "set", "--config", "-", "--profile", "p", "topic", "com.x"], [:], "--config -"),
            (["send", "--config", "-", "--alert", "x", "-d", String(repeating: "ab", count: 32)], [:], "--config -"),
            (["config", "show"], ["APNSCTL_CONFIG": "-"], "APNSCTL_CONFIG -"),
        ]
        for (arguments, variables, label) in runs {
            let r = try InProcess.apnsctl(
                arguments, stdin: [], environment: variables.merging(["HOME": home.path]) { a, _ in a },
                directory: home.path)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(
                r.stderr.contains("\(label): the settings file is read and written by its path"),
                "\(arguments): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.file("-")))
    }

    /// A proxy of `-` names no host: 64 before connecting, as an endpoint of `-` is.
    @Test func aProxyOfDashIsNoHost() throws {
        let r = try InProcess.apnsctl(
            [
                "send", "-d", String(repeating: "ab", count: 32), "--alert", "x", "--proxy", "-",
                "--endpoint", "https://127.0.0.1:9", "--auth-key", "-", "--team-id", "TEAMID1234", "--key-id",
                "ABCDE12345",
            ],
            stdin: try CredentialFixtures.signingKey.p8PEM)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("a host name cannot start with -"), "\(r.stderr)")
    }

    /// A dry run's curl block names files; one read from standard input is gone once this run read it, so the block
    /// names a file to save it as, and says so (it named `-`, and curl failed or waited on its own input).
    @Test func aDryRunsCurlBlockNamesAFileForWhatStandardInputGave() throws {
        let dir = try TemporaryDirectory(prefix: "stdin-curl")
        let pem = try dir.pem("push.pem", CredentialFixtures.universal)
        let token = String(repeating: "ab", count: 32)
        let certificate = try InProcess.apnsctl(
            ["send", "--cert", "-", "-d", token, "--alert", "x", "--topic", "com.example.demo", "--dry-run"],
            stdin: Array(try Data(contentsOf: URL(fileURLWithPath: pem))))
        #expect(certificate.status == 0, "\(certificate.stderr)")
        #expect(
            certificate.stdout.contains(
                "# --cert - was read from standard input, which this block cannot read again: save it as stdin-cert.pem first\nAPNS_CERT='stdin-cert.pem'\n"
            ), "\(certificate.stdout)")
        let key = try InProcess.apnsctl(
            [
                "send", "--auth-key", "-", "--key-id", "ABCDE12345", "--team-id", "TEAMID1234", "-d", token,
                "--alert", "x", "--topic", "com.example.demo", "--dry-run",
            ], stdin: try CredentialFixtures.signingKey.p8PEM)
        #expect(key.status == 0, "\(key.stderr)")
        #expect(
            key.stdout.contains(
                "save it as AuthKey_ABCDE12345.p8 first (umask 077: mode 0600, it is a secret)\nAPNS_JWT=$(apnsctl jwt --auth-key 'AuthKey_ABCDE12345.p8' "
            ),
            "\(key.stdout)")
        #expect(!certificate.stdout.contains("'-'") && !key.stdout.contains("'-'"))
        // A .p12 from standard input may be a legacy one curl cannot read, and its bytes are gone: converted first.
        let p12Path = try dir.p12("push.p12", CredentialFixtures.universal, password: CredentialSlipTests.password)
        let p12 = try InProcess.apnsctl(
            [
                "send", "--cert", "-", "--passphrase", CredentialSlipTests.password, "-d", token, "--alert", "x",
                "--topic", "com.example.demo", "--dry-run",
            ], stdin: Array(try Data(contentsOf: URL(fileURLWithPath: p12Path))))
        #expect(p12.status == 0, "\(p12.stderr)")
        #expect(
            p12.stdout.contains("# stdin-cert.p12 may use legacy RC2 encryption")
                && p12.stdout.contains("apnsctl convert 'stdin-cert.p12' -o 'stdin-cert.p12.pem' --force"),
            "\(p12.stdout)")
    }

    /// The system's names for standard input are standard input: beside `-`, a second reader (a passphrase read as
    /// a device token, and its start quoted) is 64 naming both.
    @Test func devStdinIsStandardInputToo() throws {
        let (dir, p12) = try CredentialSlipTests.p12()
        defer { withExtendedLifetime(dir) {} }
        let r = try InProcess.apnsctl(
            [
                "send", "--cert", p12, "--passphrase-file", "/dev/stdin", "--devices", "-", "--alert", "x",
                "--endpoint", "https://127.0.0.1:9",
            ], stdin: Array("Zq9secretpw\n".utf8))
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.stderr.contains("--devices - and --passphrase-file /dev/stdin both read standard input"), "\(r.stderr)")
        #expect(!r.stderr.contains("Zq9"), "\(r.stderr)")
        // Read by that name, it is the command's own input, as `-` is: in-process the world's, never the process's.
        let named = try InProcess.apnsctl(
            ["inspect", p12, "--passphrase-file", "/dev/stdin"],
            stdin: Array((CredentialSlipTests.password + "\n").utf8))
        #expect(named.status == 0, "\(named.stderr)")
        let decode = try InProcess.apnsctl(["jwt", "--decode", "--auth-key", "/dev/stdin"], stdin: Array("x\n".utf8))
        #expect(decode.status == 64, "\(decode.stderr)")
        #expect(
            decode.stderr.contains("--decode without TOKEN and --auth-key /dev/stdin both read standard input"),
            "\(decode.stderr)")
        // A FIFO given to a text flag is a file: its text goes by "$(cat FILE)", not by a bare "$(cat)".
        let fifo = dir.file("msg")
        #expect(mkfifo(fifo, 0o600) == 0)
        let sent = try InProcess.apnsctl([
            "send", "--cert", p12, "--passphrase", CredentialSlipTests.password, "-d",
            String(repeating: "ab", count: 32),
            "--alert", "@" + fifo, "--topic", "com.example.demo", "--dry-run",
        ])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(
            sent.stderr.contains("--alert reads no @FILE (the JSON flags do)")
                && sent.stderr.contains("$(cat \(fifo))"),
            "\(sent.stderr)")
        // A profile refusal comes before the "new profile" warning: nothing written, nothing said of writing.
        let home = try TemporaryDirectory(prefix: "stdin-near")
        let variables = ["XDG_CONFIG_HOME": home.file("cfg"), "HOME": home.path]
        #expect(
            try InProcess.apnsctl(["config", "set", "-p", "dev", "topic", "x"], environment: variables).status == 0)
        let near = try InProcess.apnsctl(["config", "set", "-p", "dve", "cert", "-"], environment: variables)
        #expect(near.status == 64 && !near.stderr.contains("written as asked"), "\(near.stderr)")
    }

    /// A CA bundle, an app build and the mock's extra public key are read by their path: `-` there, as `--cert -`
    /// reads standard input, is a usage error saying so (64), not a missing file named `-` (66). Checked before
    /// anything connects or starts.
    @Test func aFlagReadByItsPathRefusesDash() throws {
        let dir = try TemporaryDirectory(prefix: "file-only")
        let pem = try dir.pem("push.pem", CredentialFixtures.universal)
        let send = ["send", "--cert", pem, "-d", String(repeating: "ab", count: 32), "--alert", "hi", "--topic", "x"]
        let endpoint = ["--endpoint", "https://127.0.0.1:9"]
        let runs: [(args: [String], environment: [String: String], shown: String, what: String)] = [
            (send + endpoint + ["--ca-file", "-"], [:], "--ca-file -", "the CA bundle"),
            (send + endpoint, ["APNSCTL_CA_FILE": "-"], "APNSCTL_CA_FILE -", "the CA bundle"),
            (send + ["--app", "-", "--dry-run"], [:], "--app -", "the app build"),
            (send + ["--app", "/dev/stdin", "--dry-run"], [:], "--app /dev/stdin", "the app build"),
            (["doctor", "--cert", pem, "--ca-file", "-"] + endpoint, [:], "--ca-file -", "the CA bundle"),
            (
                ["channel", "list", "--cert", pem, "--topic", "x", "--ca-file", "-"] + endpoint, [:], "--ca-file -",
                "the CA bundle"
            ),
            (["mock", "--auth-key-pub", "-", "--port", "0"], [:], "--auth-key-pub -", "the public key"),
        ]
        for run in runs {
            let r = try InProcess.apnsctl(run.args, stdin: [], environment: run.environment, timeout: 30)
            #expect(r.status == 64, "\(run.args): \(r.stderr)")
            #expect(
                r.stderr.contains(
                    "error: \(run.shown): \(run.what) is read from its path, not from standard input; "),
                "\(run.args): \(r.stderr)")
        }
        // A mock in the background reads its key there, where /dev/stdin and `<(…)`'s /dev/fd/63 are gone (an
        // "empty" key, a missing file): said before anything starts.
        for path in ["/dev/stdin", "/dev/fd/63"] {
            let r = try InProcess.apnsctl(
                [
                    "mock", "--auth-key-pub", path, "--key-id", "ABCDE12345", "--detach", "--port", "0",
                    "--state-dir", dir.file("state"),
                ], stdin: [], timeout: 30)
            #expect(r.status == 64, "\(path): \(r.stderr)")
            #expect(
                r.stderr.contains(
                    "error: --auth-key-pub \(path): a mock started with --detach reads it in the background"),
                "\(r.stderr)")
        }
    }

    /// `--help` says which file flags and arguments read standard input for `-`.
    @Test func helpSaysWhichFlagsReadStandardInput() throws {
        let flat = { (command: String) in
            try InProcess.apnsctl([command, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(
                separator: " ")
        }
        #expect(try flat("inspect").contains("or .p8 file (- reads it from standard input), or an .ipa"))
        #expect(try flat("convert").contains("file to convert; - reads it from standard input."))
        #expect(try flat("convert").contains("not inside the input; - reads it from standard input."))
        #expect(try flat("convert").contains("first line of this file; - reads that line from standard input"))
        #expect(try flat("inspect").contains("not inside the file; - reads it from standard input."))
        let help = try flat("send")
        for said in [
            "Detected by content; - reads it from standard input.", "inside --cert; - reads it from standard input.",
            "(AuthKey_<KEYID>.p8); - reads it from standard input, with --key-id.",
            "first line of this file; - reads that line from standard input.",
        ] {
            #expect(help.contains(said), "\(said)")
        }
    }
}
