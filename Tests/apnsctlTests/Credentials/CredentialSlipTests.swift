import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto
@testable import APNSCtlCommands

/// The slips a hurried user makes with credentials, each answered with what went wrong and what to write: the
/// passphrase typed where its file belongs (never repeated), both passphrase flags, a file's name given as the
/// passphrase, line ends and byte order marks, swapped files and ids, a credential given as the payload, and
/// binary PKCS#12 meant for a terminal.
@Suite struct CredentialSlipTests {
    static let password = "hunter2-Secret"

    /// A PKCS#12 of the universal push certificate with `password`, and its folder.
    static func p12() throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory(prefix: "slips")
        return (dir, try dir.p12("push.p12", CredentialFixtures.universal, password: password))
    }

    /// inspect detects a file's type by its content, as its help says: a `.p12` or PEM saved under a profile's name
    /// (`x.mobileprovision`) is inspected as the credential it is; a file that is neither stays a bad profile.
    @Test func aCredentialNamedAsAProfileIsInspectedByItsContent() throws {
        let (dir, p12) = try Self.p12()
        let renamed = dir.file("push.mobileprovision")
        try FileManager.default.copyItem(atPath: p12, toPath: renamed)
        let asP12 = try InProcess.apnsctl(["inspect", renamed, "--passphrase", Self.password])
        #expect(asP12.status == 0, "\(asP12.stderr)")
        #expect(asP12.stdout.contains("com.example"), "\(asP12.stdout)")
        let pem = try dir.write("push.provisionprofile", try CredentialFixtures.universal.pem(), mode: 0o600)
        #expect(try InProcess.apnsctl(["inspect", pem]).status == 0)
        let junk = try dir.write("junk.mobileprovision", "not a profile at all")
        let bad = try InProcess.apnsctl(["inspect", junk])
        #expect(bad.status == 65, "\(bad.stderr)")
        #expect(bad.stderr.contains("not a provisioning profile"), "\(bad.stderr)")
    }

    /// The passphrase itself given to `--passphrase-file` (or convert's `--out-passphrase-file`) is a missing
    /// file, 66, and never printed.
    @Test func aPassphraseGivenAsItsFileIsNeverRepeated() throws {
        let (dir, p12) = try Self.p12()
        let runs: [[String]] = [
            ["inspect", p12, "--passphrase-file", Self.password],
            ["convert", p12, "-o", dir.file("out.pem"), "--passphrase-file", Self.password],
            [
                "convert", try dir.pem("push.pem", CredentialFixtures.universal), "-o", dir.file("out.p12"),
                "--out-passphrase-file", Self.password,
            ],
        ]
        for arguments in runs {
            let r = try InProcess.apnsctl(arguments)
            #expect(r.status == 66, "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains(Self.password), "\(r.stderr)")
            #expect(r.stderr.contains("passphrase-file: no such file (the value given is not repeated"), "\(r.stderr)")
        }
    }

    /// The passphrase typed as `--passphrase-file`'s value is a file that does not exist: `-v`, `config show`
    /// (flag, variable or profile), `config set` and `config init` write or list it without ever showing it; the
    /// passphrase typed after the file (`inspect push.p12 S3cret`) is refused without being quoted.
    @Test func aPassphraseWhereAPathOrArgumentGoesIsNeverShown() throws {
        let (dir, p12) = try Self.p12()
        let home = try ConfigCommandTests.Home()
        let token = String(repeating: "ab", count: 32)
        let verbose = try home.run(
            [
                "send", "--cert", p12, "--passphrase-file", Self.password, "-v", "--dry-run", "-d", token, "--alert",
                "hi",
            ])
        #expect(verbose.status == 66, "\(verbose.stderr)")
        #expect(verbose.stderr.contains("* passphrase-file (hidden: no such file) (--passphrase-file)\n"))
        let variable = try home.run(["config", "show"], ["APNSCTL_PASSPHRASE_FILE": Self.password])
        #expect(variable.stdout.contains("(hidden: no such file)"), "\(variable.stdout)")
        let json = try home.run(["config", "show", "-o", "json"], ["APNSCTL_PASSPHRASE_FILE": Self.password])
        #expect(json.stdout.contains(#""setting":"passphrase-file","value":"(hidden: no such file)""#))
        let set = try home.run(["config", "set", "--profile", "dev", "passphrase-file", Self.password])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.hasPrefix("passphrase-file = (hidden: no such file) in [profiles.dev]"), "\(set.stdout)")
        #expect(
            set.stderr
                == "warning: passphrase-file: no such file (the value is not repeated, in case it is the passphrase itself); written as given. If it is the passphrase, remove it with apnsctl config unset --profile dev passphrase-file, put the passphrase in a file of your own (mode 0600) and give that file's path\n"
        )
        let profile = try home.run(["config", "show", "dev"])
        #expect(profile.stdout.contains("(hidden: no such file)"), "\(profile.stdout)")
        let initialised = try home.run([
            "config", "init", "--config", dir.file("new.toml"), "--passphrase-file", Self.password,
        ])
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(initialised.stderr.contains("--passphrase-file: no such file (the value is not repeated"))
        for r in [verbose, variable, json, set, profile, initialised] {
            #expect(!(r.stdout + r.stderr).contains(Self.password), "\(r.stdout)\(r.stderr)")
        }
        // A file that is there is shown by its path, as any path is.
        let file = try dir.write("pass.txt", Self.password + "\n")
        // A relative name of a file in the working directory is no passphrase: the usual warning, with its full path.
        let relative = try home.run(
            ["config", "set", "--profile", "dev", "passphrase-file", "pass.txt"], directory: dir.path)
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(relative.stderr.contains("does not exist; written as given"), "\(relative.stderr)")
        #expect(relative.stderr.contains("\(file) is there: to use it, give that full path"), "\(relative.stderr)")
        let there = try home.run(["config", "show"], ["APNSCTL_PASSPHRASE_FILE": file])
        #expect(there.stdout.contains(file), "\(there.stdout)")
        for command in [["inspect", p12], ["convert", p12, "-o", dir.file("out.pem")]] {
            let stray = try InProcess.apnsctl(command + [Self.password])
            #expect(stray.status == 64, "\(stray.stderr)")
            #expect(!stray.stderr.contains(Self.password), "\(stray.stderr)")
            #expect(
                stray.stderr.hasPrefix(
                    "error: Unexpected argument (not repeated, in case it is the passphrase): \(command[0]) takes the passphrase from --passphrase-file FILE"
                ), "\(stray.stderr)")
            // A second file is quoted, as the parser quotes it.
            let second = try InProcess.apnsctl(command + [file])
            #expect(second.stderr.hasPrefix("error: Unexpected argument '\(file)'"), "\(second.stderr)")
            // A passphrase of several words is several unexpected arguments, none of them quoted.
            let words = try InProcess.apnsctl(command + ["my", "s3cret", "phrase"])
            #expect(words.status == 64)
            #expect(
                words.errorLines.first
                    == "error: 3 unexpected arguments: 3 words not repeated, in case they are the passphrase: \(command[0]) takes the passphrase from --passphrase-file FILE, APNSCTL_PASSPHRASE, --passphrase or a prompt on the terminal, never as a bare argument",
                "\(words.stderr)")
            // A file among them is named; the passphrase beside it is not.
            let mixed = try InProcess.apnsctl(command + [file, Self.password])
            #expect(!mixed.stderr.contains(Self.password), "\(mixed.stderr)")
            #expect(
                mixed.errorLines.first?.hasPrefix(
                    "error: 2 unexpected arguments: '\(file)' and a word not repeated, in case it is the passphrase: ")
                    == true, "\(mixed.stderr)")
        }
        // send and doctor: the passphrase after --cert is never repeated either, taken for PAYLOAD or left over.
        let device = String(repeating: "ab", count: 32)
        let hex = "9f86d081884c7d659a2feaa0c55ad015"  // `openssl rand -hex 16`: a passphrase too
        let sends: [([String], String)] = [
            (["send", "--cert", p12, Self.password, "-d", device], Self.password),
            (["send", "--cert=\(p12)", Self.password, "-d", device], Self.password),
            (["send", "--cert", p12, #"{"aps":{"alert":"x"}}"#, Self.password, "-d", device], Self.password),
            (["send", "--cert", p12, #"{"aps":{"alert":"x"}}"#, hex, "-d", device], hex),
            (["doctor", "--cert", p12, Self.password], Self.password),
            (["doctor", "--cert", p12, hex], hex),
        ]
        for (command, secret) in sends {
            let r = try InProcess.apnsctl(command)
            #expect(r.status == 64, "\(command): \(r.stderr)")
            #expect(!r.stderr.contains(secret), "\(command): \(r.stderr)")
            #expect(r.stderr.contains("in case it is the passphrase"), "\(command): \(r.stderr)")
        }
        // A payload file named after --cert that does not exist yet is still a missing file, named (66).
        let missing = try InProcess.apnsctl(["send", "--cert", p12, dir.file("new.json"), "-d", device])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("new.json"), "\(missing.stderr)")
        // A token left without its -d is no passphrase: quoted as the parser quotes it.
        let leftover = try InProcess.apnsctl(["send", "--cert", p12, #"{"aps":{"alert":"x"}}"#, token, "-d", device])
        #expect(leftover.stderr.contains("'\(device)'"), "\(leftover.stderr)")
        // convert's output forgotten, the passphrase in its place: not offered as the file to write.
        let noOutput = try InProcess.apnsctl(["convert", p12, Self.password])
        #expect(noOutput.status == 64)
        #expect(!noOutput.stderr.contains(Self.password), "\(noOutput.stderr)")
        #expect(
            noOutput.stderr.contains("the file to write goes with -o FILE.pem or -o FILE.p12"), "\(noOutput.stderr)")
    }

    /// A key id in a variable beside a key on the command line is not read (a key id belongs to its key): the
    /// missing key id's message names it, rather than calling a value the user set missing.
    @Test func aKeyIdBelowItsKeysPlaceIsNamedAsUnread() throws {
        let dir = try TemporaryDirectory(prefix: "unread-id")
        let key = try dir.write("key.p8", try CredentialFixtures.signingKey.p8PEM)
        let r = try InProcess.apnsctl(
            ["jwt", "--auth-key", key, "--team-id", "TEAMID1234"], environment: ["APNSCTL_KEY_ID": "ABCDE12345"])
        #expect(r.status == 77, "\(r.stderr)")
        #expect(
            r.stderr.hasSuffix(
                "pass --key-id (APNSCTL_KEY_ID is not read: a key id belongs to its key, given here by --auth-key) with the 10-character key id\n"
            ), "\(r.stderr)")
    }

    /// Both passphrase flags are refused by inspect and convert as by send; a wrong passphrase that is a file's
    /// name says to read it with --passphrase-file.
    @Test func bothPassphraseFlagsAndAFileNameAsThePassphrase() throws {
        let (dir, p12) = try Self.p12()
        let file = try dir.write("pass.txt", Self.password + "\n")
        for command in [["inspect", p12], ["convert", p12, "-o", dir.file("out.pem")]] {
            let both = try InProcess.apnsctl(command + ["--passphrase", "x", "--passphrase-file", file])
            #expect(both.status == 64, "\(both.stderr)")
            #expect(both.stderr == "error: --passphrase and --passphrase-file both given; pass only one\n")
            // The variable is not read beside --passphrase-file, so the advice never names it (nor its value).
            let wrong = try dir.write("wrong.txt", "nope\n")
            let unused = try InProcess.apnsctl(
                command + ["--passphrase-file", wrong], environment: ["APNSCTL_PASSPHRASE": file])
            #expect(unused.status == 77)
            #expect(!unused.stderr.contains("APNSCTL_PASSPHRASE names"), "\(unused.stderr)")
            let named = try InProcess.apnsctl(command + ["--passphrase", file])
            #expect(named.status == 77, "\(named.stderr)")
            #expect(
                named.stderr
                    == "error: \(p12): wrong passphrase; --passphrase names the file \(file): to read the passphrase from it, write --passphrase-file \(file)\n"
            )
        }
        #expect(!FileSystem.exists(dir.file("out.pem")))
    }

    /// A wrong passphrase is said with where it came from (CLI.md: the file, flag or field at fault): a stale
    /// variable, a file (with a trailing space said, never shown), standard input; `send` through its settings too.
    @Test func aWrongPassphraseNamesWhereItCameFrom() throws {
        let (dir, p12) = try Self.p12()
        let spaced = try dir.write("spaced.txt", Self.password + " \n")
        let wrong = try dir.write("wrong.txt", "nope\n")
        let runs: [([String], [String: String], [UInt8]?, String)] = [
            (
                ["inspect", p12], ["APNSCTL_PASSPHRASE": "stale"], nil,
                "wrong passphrase (the one APNSCTL_PASSPHRASE holds); check it"
            ),
            (
                ["inspect", p12, "--passphrase", "nope"], [:], nil,
                "wrong passphrase (the one --passphrase holds); check it"
            ),
            (
                ["inspect", p12, "--passphrase-file", wrong], [:], nil,
                "wrong passphrase (the first line of \(wrong), from --passphrase-file); check it"
            ),
            (
                ["inspect", p12, "--passphrase-file", p12], [:], nil,
                "wrong passphrase: --passphrase-file \(p12) is binary (a .p12, .cer or DER key), not a passphrase; give a file whose first line is the passphrase"
            ),
            (
                ["inspect", p12], ["APNSCTL_PASSPHRASE_FILE": wrong], nil,
                "wrong passphrase (the first line of \(wrong), from APNSCTL_PASSPHRASE_FILE); check it"
            ),
            // Empty (a CI secret that is not set), or with a trailing blank: said, never shown.
            (
                ["inspect", p12, "--passphrase", ""], [:], nil,
                "wrong passphrase: --passphrase is empty (is the variable meant to hold it set?)"
            ),
            (
                ["inspect", p12, "--passphrase", Self.password + " "], [:], nil,
                "wrong passphrase (the one --passphrase holds); check it: it ends with a space or tab, which counts as part of the passphrase"
            ),
            (
                ["inspect", p12, "--passphrase-file", try dir.write("empty-line.txt", "\n")], [:], nil,
                "wrong passphrase (the first line of \(dir.file("empty-line.txt")), from --passphrase-file); check it: the line is empty"
            ),
            // A key file given as the passphrase file: the wrong flag, said (the line is not shown).
            (
                [
                    "inspect", p12, "--passphrase-file",
                    try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM),
                ],
                [:], nil,
                "wrong passphrase: --passphrase-file \(dir.file("AuthKey_ABCDE12345.p8")) is a PEM file (a key or certificate), not a passphrase; give a file whose first line is the passphrase (a key goes with --key, a .p8 with --auth-key)"
            ),
            (
                ["convert", p12, "-o", dir.file("o.pem"), "--passphrase-file", spaced], [:], nil,
                "wrong passphrase (the first line of \(spaced), from --passphrase-file); check it: the line ends with a space or tab, which counts as part of the passphrase"
            ),
            (
                ["inspect", p12, "--passphrase-file", "-"], [:], Array("nope\n".utf8),
                "wrong passphrase (standard input's first line, from --passphrase-file); check it"
            ),
            (
                [
                    "send", "--cert", p12, "--passphrase-file", wrong, "-d", String(repeating: "ab", count: 32),
                    "--alert", "x",
                    "--endpoint", "https://127.0.0.1:9",
                ], [:], nil,
                "wrong passphrase (the first line of \(wrong), from --passphrase-file); check it"
            ),
        ]
        for (arguments, variables, stdin, expected) in runs {
            let r = try InProcess.apnsctl(arguments, stdin: stdin, environment: variables)
            #expect(r.status == 77, "\(arguments): \(r.stderr)")
            #expect(r.stderr == "error: \(p12): \(expected)\n", "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains(Self.password) && !r.stderr.contains("stale") && !r.stderr.contains("nope\n"))
        }
    }

    /// A passphrase file saved by Notepad (a byte order mark, CRLF) and a variable holding a CR, as
    /// `$(cat pass.txt)` of such a file gives, are the passphrase.
    @Test func lineEndsAndAByteOrderMarkAreNoPartOfAPassphrase() throws {
        let (dir, p12) = try Self.p12()
        let notepad = try dir.write("bom.txt", [0xEF, 0xBB, 0xBF] + Array((Self.password + "\r\n").utf8))
        #expect(try InProcess.apnsctl(["inspect", p12, "--passphrase-file", notepad]).status == 0)
        let variable = try InProcess.apnsctl(
            ["inspect", p12], environment: ["APNSCTL_PASSPHRASE": Self.password + "\r"])
        #expect(variable.status == 0, "\(variable.stderr)")
        // convert's output password is read the same way: the .p12 it writes opens with the same text.
        let pem = try dir.pem("push.pem", CredentialFixtures.universal)
        let out = dir.file("cr.p12")
        let written = try InProcess.apnsctl(
            ["convert", pem, "-o", out], environment: ["APNSCTL_OUT_PASSPHRASE": Self.password + "\r\n"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try InProcess.apnsctl(["inspect", out, "--passphrase-file", notepad]).status == 0)
    }

    /// A certificate given as the key and the key as the certificate: said to be swapped; a certificate alone as
    /// the key: said to be no key.
    @Test func swappedCertificateAndKeyFilesAreSaidSo() throws {
        let dir = try TemporaryDirectory(prefix: "slips")
        let identity = CredentialFixtures.universal
        let cert = try dir.write("cert.pem", identity.certificate.pem)
        let key = try dir.write("key.pem", try identity.privateKey.pkcs8PEM(passphrase: nil), mode: 0o600)
        let swapped = try InProcess.apnsctl(["inspect", key, "--key", cert])
        #expect(swapped.status == 77)
        #expect(
            swapped.stderr
                == "error: \(cert): given as the key, but it holds a certificate, and \(key) holds a key: the two look swapped; give \(cert) as the certificate and \(key) as its key\n"
        )
        let send = try InProcess.apnsctl([
            "send", "--alert", "x", "-d", String(repeating: "ab", count: 32), "--topic", "com.example.demo",
            "--cert", cert, "--key", cert, "--endpoint", "https://127.0.0.1:9",
        ])
        #expect(send.status == 77)
        #expect(
            send.stderr.contains("\(cert): given as the key, but it holds a certificate, not a private key"))
    }

    /// The team id given is the key's own id (from `AuthKey_<ID>.p8`): ids that look swapped are said before a
    /// token APNs would refuse is signed; a key from APNSCTL_AUTH_KEY without an id in its name is told APNSCTL_KEY_ID.
    @Test func swappedIdsAndWhereAKeyIdGoes() throws {
        let dir = try TemporaryDirectory(prefix: "slips")
        let key = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM, mode: 0o600)
        let swapped = try InProcess.apnsctl([
            "jwt", "--auth-key", key, "--team-id", "ABCDE12345", "--key-id", "TEAMID1234",
        ])
        // A guess from the file's name, which its owner may have chosen: said, not refused (nothing could override
        // a refusal, as both ids are given).
        #expect(swapped.status == 0, "\(swapped.stderr)")
        #expect(
            swapped.stderr
                == "warning: --team-id ABCDE12345 is the key's id in its file name (AuthKey_ABCDE12345.p8), and --key-id TEAMID1234 is given: if the ids are swapped, APNs answers InvalidProviderToken; then give --team-id TEAMID1234 and --key-id ABCDE12345\n"
        )
        // The team id typed twice, as the key id too: refused, whatever the file is called, naming its key id.
        let twice = try InProcess.apnsctl([
            "jwt", "--auth-key", key, "--team-id", "TEAMID1234", "--key-id", "TEAMID1234",
        ])
        #expect(twice.status == 64)
        #expect(
            twice.stderr
                == "error: --key-id TEAMID1234 is the team id given too (--team-id); the key's id is its file name's, ABCDE12345 (AuthKey_ABCDE12345.p8): give --key-id ABCDE12345, or leave it out\n",
            "\(twice.stderr)")
        let same = try InProcess.apnsctl(["jwt", "--auth-key", key, "--team-id", "ABCDE12345"])
        #expect(same.status == 64)
        #expect(same.stderr.contains("give the team id shown as Team ID"), "\(same.stderr)")
        #expect(same.stdout.isEmpty)
        let unnamed = try dir.write("key.pem", try CredentialFixtures.signingKey.p8PEM, mode: 0o600)
        let variable = try InProcess.apnsctl(
            ["jwt"], environment: ["APNSCTL_AUTH_KEY": unnamed, "APNSCTL_TEAM_ID": "TEAMID1234"])
        #expect(variable.status == 77)
        #expect(
            variable.stderr.contains("set APNSCTL_KEY_ID (the key comes from APNSCTL_AUTH_KEY)"), "\(variable.stderr)")
        #expect(!variable.stderr.contains("pass --key-id"), "\(variable.stderr)")
        // Not headed by the flag that would then be refused: the id goes beside its key.
        #expect(!variable.stderr.contains("--key-id"), "\(variable.stderr)")
    }

    /// A key, a certificate or a .p12 given as the payload is named as such, not as a JSON syntax error.
    @Test func aCredentialGivenAsThePayloadIsNamed() throws {
        let (dir, p12) = try Self.p12()
        let key = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM, mode: 0o600)
        let r = try InProcess.apnsctl(["validate", key, p12])
        #expect(r.status == 65)
        #expect(
            r.stdout.contains(
                "\(key):1:2: error: (root): not JSON but PEM (PRIVATE KEY): a key or certificate, not a payload"))
        #expect(r.stdout.contains("\(p12):1:2: error: (root): not JSON but binary DER, as in a .p12 or .cer file"))
    }

    /// PKCS#12 is binary: `convert -o -` refuses a terminal before asking for a password, and writes to a pipe.
    @Test func binaryPKCS12IsNeverWrittenToATerminal() throws {
        let dir = try TemporaryDirectory(prefix: "slips")
        let pem = try dir.pem("push.pem", CredentialFixtures.universal)
        let variables = ["APNSCTL_OUT_PASSPHRASE": Self.password]
        let terminal = try InProcess.apnsctl(["convert", pem, "-o", "-"], environment: variables, onTerminal: true)
        #expect(terminal.status == 64)
        #expect(terminal.stdout.isEmpty)
        #expect(terminal.stderr.hasPrefix("error: -o -: standard output is a terminal, and PKCS#12 is binary"))
        let piped = try InProcess.apnsctl(["convert", pem, "-o", "-"], environment: variables)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.stdout.isEmpty)
    }

    /// PEM with the unencrypted private key is not printed on a terminal either (it would stay in the scrollback):
    /// refused, nothing written; to a pipe it goes, and a certificate alone prints anywhere.
    @Test func anUnencryptedKeyIsNeverPrintedOnATerminal() throws {
        let (dir, p12) = try Self.p12()
        let secret = ["APNSCTL_PASSPHRASE": Self.password]
        // Before its passphrase is asked for: none is given here, and no prompt shows.
        let terminal = try InProcess.apnsctl(["convert", p12, "-o", "-"], onTerminal: true)
        #expect(terminal.status == 64, "\(terminal.stderr)")
        #expect(!terminal.stderr.contains("Passphrase"), "\(terminal.stderr)")
        #expect(terminal.stdout.isEmpty)
        #expect(
            terminal.stderr.hasPrefix(
                "error: -o -: standard output is a terminal, and the PEM holds the unencrypted private key;"),
            "\(terminal.stderr)")
        let piped = try InProcess.apnsctl(["convert", p12, "-o", "-"], environment: secret)
        #expect(piped.status == 0 && piped.stdout.contains("PRIVATE KEY-----"), "\(piped.stderr)")
        withExtendedLifetime(dir) {}
    }

    /// Piped in, a credential has no name to tell its kind by: its bytes are looked at, so a `.p12` (PEM with its key
    /// out) and a PEM key (a binary `.p12` out) are refused on a terminal before any passphrase is asked for. A
    /// certificate alone is printed, as PEM (the opposite of a DER input would be a `.p12`, which needs the key).
    @Test func aPipedCredentialIsRefusedOnATerminalBeforeItsPassphrase() throws {
        let (dir, p12) = try Self.p12()
        let identity = CredentialFixtures.universal
        let encrypted =
            identity.certificate.pem
            + (try identity.privateKey.pkcs8PEM(passphrase: SecretBytes(Array(Self.password.utf8))))
        let cases: [(input: [UInt8], error: String)] = [
            (Array(try Data(contentsOf: URL(fileURLWithPath: p12))), "the PEM holds the unencrypted private key;"),
            (encrypted, "PKCS#12 is binary;"),
        ]
        for c in cases {
            let r = try InProcess.apnsctl(["convert", "-", "-o", "-"], stdin: c.input, onTerminal: true)
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("error: -o -: standard output is a terminal, and " + c.error), "\(r.stderr)")
            #expect(!r.stderr.contains("passphrase"), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        // A key alone is told it lacks its certificate, the one thing to fix (not first to redirect the output).
        let lone = try InProcess.apnsctl(
            ["convert", "-", "-o", "-"], stdin: try identity.privateKey.pkcs8PEM(passphrase: nil), onTerminal: true)
        #expect(lone.status == 77, "\(lone.stderr)")
        #expect(lone.stderr.contains("holds a private key but no certificate"), "\(lone.stderr)")
        let certificate = try InProcess.apnsctl(
            ["convert", "-", "-o", "-"], stdin: identity.certificate.der, onTerminal: true)
        #expect(certificate.status == 0, "\(certificate.stderr)")
        #expect(certificate.stdout.hasPrefix("-----BEGIN CERTIFICATE-----"), "\(certificate.stdout.prefix(100))")
        #expect(!certificate.stdout.contains("PRIVATE KEY"), "\(certificate.stdout)")
        withExtendedLifetime(dir) {}
    }

    /// cp's order (`convert IN OUT`) and `--out` are told where the file goes (`--out` as the unknown flag it is,
    /// not only the missing -o); a folder that is not there is named with -o.
    @Test func theOutputFileGoesWithDashO() throws {
        let (dir, p12) = try Self.p12()
        let out = try InProcess.apnsctl(["convert", p12, "--out", "new.pem"])
        #expect(out.status == 64)
        #expect(out.errorLines.first == "error: Unknown option '--out'. Did you mean '--output'?", "\(out.stderr)")
        // A missing positional beside an unknown flag: the flag is the line to mend.
        let all = try InProcess.apnsctl(["channel", "delete", "--all", "--yes"])
        #expect(all.status == 64)
        #expect(all.errorLines.first?.hasPrefix("error: Unknown option '--all'") == true, "\(all.stderr)")
        for extra in [["new.pem"], ["--passphrase-file", "p.txt", "new.pem"]] {
            let r = try InProcess.apnsctl(["convert", p12] + extra)
            #expect(r.status == 64)
            #expect(
                r.errorLines.first
                    == "error: Missing expected argument '--output <file>'; the file to write goes with -o: -o new.pem",
                "\(extra): \(r.stderr)")
        }
        let missing = try InProcess.apnsctl([
            "convert", p12, "-o", dir.file("no/such/out.pem"), "--passphrase", Self.password,
        ])
        #expect(missing.status == 73)
        #expect(
            missing.stderr.hasPrefix("error: -o \(dir.file("no/such/out.pem")): cannot create"), "\(missing.stderr)")
    }

    /// Small words: `--pass` is --passphrase, `--storage most` is most-recent, and standard input too large has no
    /// path to check.
    @Test func smallSlipsGetTheirWord() throws {
        let (_, p12) = try Self.p12()
        let pass = try InProcess.apnsctl(["inspect", p12, "--pass", "x"])
        #expect(pass.errorLines.first == "error: Unknown option '--pass'. Did you mean '--passphrase'?")
        let storage = try InProcess.apnsctl([
            "channel", "create", "--storage", "most", "--topic", "com.example.demo", "--endpoint",
            "https://127.0.0.1:9",
        ])
        #expect(storage.status == 64)
        #expect(storage.stderr.contains("; did you mean \"most-recent\"?"), "\(storage.stderr)")
        let big = try InProcess.apnsctl(["validate", "-"], stdin: [UInt8](repeating: 0x20, count: (64 << 20) + 1))
        #expect(big.status == 65)
        #expect(big.stderr.hasPrefix("error: -: cannot read: more than 64 MiB"), "\(big.stderr)")
        #expect(!big.stderr.contains("check the path"), "\(big.stderr)")
    }

    /// jwt given a key file as its argument, or --decode given a file's name: the flag or the redirection meant.
    @Test func jwtGivenAFileWhereATokenGoes() throws {
        let dir = try TemporaryDirectory(prefix: "slips")
        let key = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM, mode: 0o600)
        let sign = try InProcess.apnsctl(["jwt", "--team-id", "TEAMID1234", key])
        #expect(sign.status == 64)
        #expect(
            sign.stderr == "error: \(key): a key file given as an argument; a signing key goes with --auth-key \(key)\n"
        )
        let decode = try InProcess.apnsctl(["jwt", "--decode", key])
        #expect(decode.status == 64)
        #expect(
            decode.stderr
                == "error: \(key): a key file, not a token; to check a token's signature with it, give it with --auth-key \(key)\n"
        )
        // A file holding a token is read from standard input, as the advice says.
        let tokenFile = try dir.write("token.txt", "eyJhbGciOiJFUzI1NiJ9.e30.abc\n")
        let named = try InProcess.apnsctl(["jwt", "--decode", tokenFile])
        #expect(named.status == 64)
        #expect(named.stderr.contains("to decode a token kept in a file: apnsctl jwt --decode - < \(tokenFile)"))
    }
}

extension CredentialSlipTests {
    /// A file of two push certificates and one key (a Keychain export of several items keeps one key): the one the
    /// key belongs to is used, and the other is said and left out, never shown, sent or written as a chain
    /// certificate (convert wrote it as one, silently).
    @Test func anotherPushCertificateIsNoChainCertificate() throws {
        let sandbox = try TestCredentials(bundleID: "com.example.sbx", kind: .development)
        let other = try TestCredentials(bundleID: "com.example.demo")
        let both = try sandbox.directory.write(
            "two.pem", String(decoding: try sandbox.push.pem() + other.push.certificate.pem, as: UTF8.self))
        // (Every message names the file by its path, which ends so; each certificate with its expiry.)
        let said =
            "two.pem holds 2 certificates that are no CA's: Apple Development IOS Push Services: com.example.sbx (until "
        let inspected = try InProcess.apnsctl(["inspect", both])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(
            inspected.stderr.contains(said) && inspected.stderr.contains(") is shown (the key is its own)"),
            "\(inspected.stderr)")
        #expect(
            inspected.lines.contains {
                $0.hasPrefix("also holds") && $0.hasSuffix("Apple Push Services: com.example.demo")
            })
        #expect(
            !inspected.lines.contains { $0.hasPrefix("chain") && $0.contains("com.example.demo") },
            "\(inspected.stdout)")
        let out = sandbox.directory.file("out.pem")
        let converted = try InProcess.apnsctl(["convert", both, "-o", out])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stderr.contains(") is written (the key is its own)"), "\(converted.stderr)")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!written.contains(String(decoding: other.push.certificate.pem, as: UTF8.self)), "\(written)")
        #expect(written.contains(String(decoding: sandbox.push.certificate.pem, as: UTF8.self)))
        let sent = try InProcess.apnsctl(
            ["send", "--cert", both, "-d", String(repeating: "3f2a", count: 16), "--alert", "hi", "--dry-run"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stderr.contains(said) && sent.stderr.contains(") is used (the key is its own)"), "\(sent.stderr)")
        // A copy of the certificate itself is no other one: nothing to say.
        let twice = try sandbox.directory.write(
            "twice.pem",
            String(decoding: sandbox.push.certificate.pem + (try sandbox.push.pem()), as: UTF8.self))
        let same = try InProcess.apnsctl(["inspect", twice])
        #expect(same.status == 0 && same.stderr.isEmpty, "\(same.stderr)")
        // A self-signed root of the old kind (X.509 v1, no basicConstraints) is a chain's root, not another one.
        let dir = sandbox.directory
        let made = try CommandRunner.run(
            "openssl",
            [
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj",
                "/CN=Old Root",
                "-keyout", dir.file("root.key"), "-out", dir.file("root.csr"),
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let signed = try CommandRunner.run(
            "openssl",
            [
                "x509", "-req", "-in", dir.file("root.csr"), "-signkey", dir.file("root.key"), "-days", "30", "-out",
                dir.file("root.pem"),
            ])
        #expect(signed.status == 0, "\(signed.stderr)")
        let rooted = try dir.write(
            "rooted.pem",
            String(decoding: try sandbox.push.pem(), as: UTF8.self)
                + (try String(contentsOfFile: dir.file("root.pem"), encoding: .utf8)))
        // (Beside the CA that signed the certificate it signed nothing: said as a CA beside the chain, never as
        // another push certificate.)
        let root = try InProcess.apnsctl(["inspect", rooted])
        #expect(root.status == 0, "\(root.stderr)")
        #expect(
            root.errorLines == [
                "warning: \(rooted): the CA certificate Old Root signed neither the certificate nor its chain, so it is left out of the chain (an old or unrelated intermediate?)"
            ], "\(root.stderr)")
        #expect(!root.lines.contains { $0.hasPrefix("chain") && $0.contains("Old Root") }, "\(root.stdout)")
        // Without a key, no "export with its key" advice: each certificate goes in a file of its own.
        let keyless = try sandbox.directory.write(
            "keyless.pem",
            String(decoding: sandbox.push.certificate.pem + other.push.certificate.pem, as: UTF8.self))
        let bare = try InProcess.apnsctl(["convert", keyless, "-o", sandbox.directory.file("bare.pem")])
        #expect(
            bare.stderr.contains("and no key: ") && bare.stderr.contains("give each certificate a file of its own"),
            "\(bare.stderr)")
    }
}

extension CredentialSlipTests {
    /// An output path with a `~` no shell expanded (`-o '~/x.pem'`) said only that its directory does not exist.
    @Test func anUnexpandedTildeInAnOutputPathIsSaid() throws {
        let (dir, p12) = try Self.p12()
        let pass = try dir.write("pass.txt", Self.password + "\n", mode: 0o600)
        let r = try InProcess.apnsctl(
            ["convert", p12, "-o", "~/x.pem", "--passphrase-file", pass], directory: dir.path)
        #expect(r.status == 73, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "~/x.pem: cannot create: its directory does not exist; a ~ is expanded only by a shell, unquoted at a "
                    + "word's start, and this one was not: write the path in full"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("~")))
    }

    /// A `~` no shell expanded (a quoted variable, an env file, CI's YAML) is said to be one.
    @Test func anUnexpandedTildeIsSaid() throws {
        for (arguments, environment) in [
            (["jwt", "--team-id", "TEAMID1234"], ["APNSCTL_AUTH_KEY": "~/AuthKey_ABCDE12345.p8"]),
            (["inspect", "~/push.p12"], [:]),
            (["inspect", "~alice/push.p12"], [:]),
            (["inspect", "~/My Certs/push.p12"], [:]),
            (["jwt", "--team-id", "TEAMID1234"], ["APNSCTL_AUTH_KEY": "~/My Keys/AuthKey_ABCDE12345.p8"]),
            (["validate", "~/p.json"], [:]),
            (["send", "--devices", "~/devices.txt", "--alert", "x", "--topic", "t", "--cert", "~/push.pem"], [:]),
        ] {
            let r = try InProcess.apnsctl(arguments, environment: environment)
            #expect(r.status == 66, "\(r.stderr)")
            #expect(
                r.stderr.contains(
                    "; a ~ is expanded only by a shell, unquoted at a word's start, and this one was not: write the path in full"
                ), "\(r.stderr)")
            #expect(!r.stderr.contains("in full; check the path"), "one piece of advice: \(r.stderr)")
        }
    }
}

extension CredentialSlipTests {
    /// A path inside a pair of quotes (quoted twice, a `.env` line kept whole) looks right in "no such file": the
    /// quotes are said to be part of it. The CA file's path gets the `~` advice too.
    @Test func quotesAroundAPathAndATildeInTheCAFileAreSaid() throws {
        let mock = try InProcessMock([])
        let send = [
            "send", "--endpoint", mock.endpoint, "-d", String(repeating: "ab", count: 32), "--alert", "x", "--topic",
            "t",
        ]
        let quotes =
            "; the quotes around it are part of the name given (quoted twice, or kept by a .env file): remove them"
        let tilde =
            "; a ~ is expanded only by a shell, unquoted at a word's start, and this one was not: write the path in full"
        for (arguments, environment, hint) in [
            (send + ["--cert", "\"\(mock.certificate)\""], [:], quotes),
            (send + ["--cert", mock.certificate, "--ca-file", "'\(mock.caFile)'"], [:], quotes),
            (send + ["--cert", mock.certificate], ["APNSCTL_CA_FILE": "\"\(mock.caFile)\""], quotes),
            (send + ["--cert", mock.certificate, "--ca-file", "~/ca.pem"], [:], tilde),
            (send + ["--cert", mock.certificate], ["APNSCTL_CA_FILE": "~/ca.pem"], tilde),
            (["inspect", "'\(mock.certificate)'"], [:], quotes),
            (["validate", "\"p.json\""], [:], quotes),
        ] {
            let r = try InProcess.apnsctl(arguments, environment: environment)
            #expect(r.status == 66, "\(arguments) \(environment): \(r.stderr)")
            #expect(r.stderr.contains(hint), "\(arguments) \(environment): \(r.stderr)")
            #expect(!r.stderr.contains("check the path"), "one piece of advice: \(r.stderr)")
        }
    }

    /// A wrong passphrase from a named pipe (written once, then closed) is said and the command ends: the hint that
    /// looks at the file's first line again reads only a regular file (a pipe, drained, would wait for a writer).
    @Test func aWrongPassphraseFromAPipeEnds() throws {
        let (dir, p12) = try Self.p12()
        let fifo = dir.file("pass.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            guard fd >= 0 else { return }
            _ = "nope\n".withCString { write(fd, $0, 5) }
            close(fd)
        }
        writer.start()
        let r = try InProcess.apnsctl(["inspect", p12, "--passphrase-file", fifo], timeout: 20)
        #expect(!r.timedOut && r.status == 77, "\(r.stderr)")
        #expect(r.stderr.contains("wrong passphrase (the first line of \(fifo), from --passphrase-file); check it"))
    }

    /// An encrypted PKCS#8 key in DER (`openssl pkcs8 -topk8 -outform DER`) opens with its passphrase, as its PEM
    /// form does; it was "damaged or truncated" to send, inspect and convert.
    @Test func anEncryptedDERKeyOpensWithItsPassphrase() throws {
        let dir = try TemporaryDirectory(prefix: "der-key")
        let identity = CredentialFixtures.universal
        let cert = try dir.write("push.pem", identity.certificate.pem)
        let plain = try dir.write("plain.pem", try identity.privateKey.pkcs8PEM(passphrase: nil), mode: 0o600)
        let made = try CommandRunner.run(
            "openssl",
            [
                "pkcs8", "-topk8", "-in", plain, "-outform", "DER", "-out", dir.file("key.der"), "-passout",
                "pass:\(Self.password)",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let key = dir.file("key.der")
        let inspect = try InProcess.apnsctl(["inspect", cert, "--key", key, "--passphrase", Self.password])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let send = try InProcess.apnsctl(
            [
                "send", "--cert", cert, "--key", key, "--passphrase", Self.password, "--dry-run", "-d",
                String(repeating: "3f2a", count: 16), "--alert", "hi",
            ])
        #expect(send.status == 0, "\(send.stderr)")
        let convert = try InProcess.apnsctl(
            ["convert", cert, "--key", key, "--passphrase", Self.password, "-o", dir.file("out.pem")])
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(try String(contentsOfFile: dir.file("out.pem"), encoding: .utf8).contains("PRIVATE KEY"))
        let wrong = try InProcess.apnsctl(["inspect", cert, "--key", key, "--passphrase", "not-it"])
        #expect(wrong.status == 77, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("wrong passphrase"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("damaged"), "\(wrong.stderr)")
    }

    /// A `.p12` holding a key alone (the key exported from Keychain instead of the certificate) is said to be one,
    /// with how to export the certificate: it was `kind: auth-key`, "a renamed .p8?", which `--auth-key` refused.
    @Test func aKeyOnlyPKCS12IsSaidToHoldNoCertificate() throws {
        let dir = try TemporaryDirectory(prefix: "key-only")
        let key = try dir.write(
            "key.pem", try CredentialFixtures.universal.privateKey.pkcs8PEM(passphrase: nil), mode: 0o600)
        let made = try CommandRunner.run(
            "openssl",
            ["pkcs12", "-export", "-nocerts", "-inkey", key, "-out", dir.file("key.p12"), "-passout", "pass:"])
        #expect(made.status == 0, "\(made.stderr)")
        for arguments in [
            ["inspect", dir.file("key.p12")], ["inspect", dir.file("key.p12"), "-o", "json"],
            [
                "send", "--cert", dir.file("key.p12"), "-d", String(repeating: "3f2a", count: 16), "--alert", "hi",
                "--dry-run",
            ],
        ] {
            let r = try InProcess.apnsctl(arguments)
            #expect(r.status == 77, "\(arguments): \(r.stdout)\(r.stderr)")
            #expect(
                r.stderr.contains(
                    "key.p12: a .p12 holding a private key but no certificate (the key exported alone); in Keychain Access, export the certificate under My Certificates, which takes its key with it"
                ), "\(r.stderr)")
            #expect(!r.stdout.contains("auth-key"), "\(r.stdout)")
        }
    }

    /// The same `.p12` given to `--auth-key`, with or without a password: said to hold a key alone, with the file
    /// each auth takes. It was told "a certificate belongs in --cert", which then said it held no certificate. A
    /// `.p12` whose certificate is hidden by its password still points to `--cert`.
    @Test func aKeyOnlyPKCS12GivenAsTheAuthKeyIsSaidToHoldAKeyAlone() throws {
        let dir = try TemporaryDirectory(prefix: "key-only-auth")
        let key = try dir.write(
            "key.pem", try CredentialFixtures.universal.privateKey.pkcs8PEM(passphrase: nil), mode: 0o600)
        let cert = try dir.pem("push.pem", CredentialFixtures.universal)
        for (file, password, certificate) in [
            ("key.p12", "", false), ("locked.p12", "secret", false), ("push.p12", "secret", true),
        ] {
            let made = try CommandRunner.run(
                "openssl",
                ["pkcs12", "-export", "-inkey", key, "-out", dir.file(file), "-passout", "pass:\(password)"]
                    + (certificate ? ["-in", cert] : ["-nocerts"]))
            #expect(made.status == 0, "\(made.stderr)")
            let r = try InProcess.apnsctl([
                "send", "--auth-key", dir.file(file), "--key-id", "ABCDE12345", "--team-id", "TEAM123456", "--topic",
                "com.example.app", "-d", String(repeating: "3f2a", count: 16), "--alert", "hi", "--dry-run",
            ])
            #expect(r.status == 77, "\(file): \(r.stderr)")
            if certificate {
                #expect(r.stderr.contains("a certificate belongs in --cert"), "\(r.stderr)")
            } else {
                #expect(
                    r.stderr.contains(
                        "--auth-key \(dir.file(file)): this is a PKCS#12 (.p12) file holding a private key alone, with no certificate, not a .p8 signing key; token auth takes the AuthKey_<KEYID>.p8 file downloaded from the Apple Developer portal (Keys), and certificate auth a .p12 exported with the push certificate and its key (--cert)"
                    ), "\(r.stderr)")
            }
        }
    }

    /// Ctrl-D at convert's second password prompt: a password was typed, so it is said not to have been repeated
    /// (it said "no password entered").
    @Test func anEndOfInputAtTheRepeatPromptIsSaidAsSuch() throws {
        let dir = try TemporaryDirectory(prefix: "repeat-eof")
        let pem = try dir.pem("push.pem", CredentialFixtures.universal)
        let answers = LockedValue(["typed-once"])
        let world = TestWorld()
        world.world.terminal = CommandTerminal(
            isAvailable: { true }, readLine: { _ in nil },
            readSecret: { _ in
                answers.withLock { $0.isEmpty ? nil : SecretBytes(Array($0.removeFirst().utf8)) }
            }, passphrasePrompt: NoTerminalPrompt())
        #expect(world.run(["convert", pem, "-o", dir.file("out.p12")]) == 64)
        #expect(
            world.stderr.text.contains(
                "the password for \(dir.file("out.p12")) was not repeated (the input ended); run again and type it twice"
            ),
            "\(world.stderr.text)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.p12")))
    }
}
