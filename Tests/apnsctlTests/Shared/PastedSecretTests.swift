import APNSTestSupport
import Foundation
import Testing

/// A secret typed where a path goes, as a hurried user does: curl's `--cert FILE:PASSWORD`, a key or `.p12` in
/// base64 on one line, a `.p8`'s body without its BEGIN and END lines. The messages say what it is, never the
/// secret (CLI.md: passphrases and keys are never printed).
@Suite struct PastedSecretTests {
    let credentials: TestCredentials
    let keyBody: String
    let base64Key: String

    init() throws {
        credentials = try TestCredentials()
        let pem = try String(contentsOfFile: credentials.authKeyFile, encoding: .utf8)
        keyBody = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        base64Key = Data(pem.utf8).base64EncodedString()
    }

    func expectUnshown(_ r: CommandResult, _ secrets: [String], _ context: String) {
        for secret in secrets {
            let part = String(secret.dropFirst(20).prefix(24))
            #expect(!r.stderr.contains(part) && !r.stdout.contains(part), "\(context): \(r.stderr)")
        }
    }

    @Test func curlsFileColonPasswordIsRefusedWithoutThePassword() throws {
        let given = credentials.pushFile + ":Sup3rHidd3nPhrase"
        for command in [
            ["send", "-d", String(repeating: "ab", count: 32), "--alert", "hi", "--topic", "t"], ["doctor"],
        ] {
            let r = try InProcess.apnsctl(command + ["--cert", given])
            #expect(r.status == 64, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("curl's FILE:PASSWORD form"), "\(r.stderr)")
            #expect(!r.stderr.contains("Sup3rHidd3nPhrase") && !r.stdout.contains("Sup3rHidd3nPhrase"), "\(r.stderr)")
        }
        // The file argument of inspect and convert too: it was "FILE:PASSWORD: no such file", the passphrase shown.
        let out = try TemporaryDirectory(prefix: "curl-form")
        for command in [["inspect", given], ["convert", given, "-o", out.file("x.pem")]] {
            let r = try InProcess.apnsctl(command)
            #expect(r.status == 64, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("curl's FILE:PASSWORD form"), "\(r.stderr)")
            #expect(!r.stderr.contains("Sup3rHidd3nPhrase") && !r.stdout.contains("Sup3rHidd3nPhrase"), "\(r.stderr)")
        }
    }

    @Test func aKeyInBase64WhereAPathGoesIsNotPrinted() throws {
        let device = String(repeating: "ab", count: 32)
        let token = ["--key-id", "ABCDE12345", "--team-id", "FGHIJ67890", "--topic", "t", "--alert", "hi"]
        let cases: [[String]] = [
            ["send", "-d", device, "--auth-key", base64Key] + token.dropFirst(0),
            ["send", "-d", device, "--auth-key", keyBody] + token,
            ["send", "-d", device, "--cert", base64Key, "--topic", "t", "--alert", "hi"],
            [
                "send", "-d", device, "--cert", credentials.pushFile, "--ca-file", base64Key, "--topic", "t", "--alert",
                "hi",
            ],
            ["send", "--devices", base64Key, "--cert", credentials.pushFile, "--topic", "t", "--alert", "hi"],
            [
                "send", "-d", device, "--auth-key", credentials.authKeyFile, "--key-id", keyBody, "--team-id",
                "FGHIJ67890",
            ],
            ["inspect", base64Key],
            ["jwt", "--auth-key", keyBody, "--key-id", "ABCDE12345", "--team-id", "FGHIJ67890"],
        ]
        for arguments in cases {
            let r = try InProcess.apnsctl(arguments)
            #expect(r.status != 0, "\(arguments.prefix(5)): \(r.stderr)")
            expectUnshown(r, [base64Key, keyBody], "\(arguments.prefix(5))")
        }
        let variable = try InProcess.apnsctl(
            ["jwt", "--team-id", "FGHIJ67890"],
            environment: ["APNSCTL_AUTH_KEY": keyBody, "APNSCTL_KEY_ID": "ABCDE12345"])
        #expect(variable.status != 0)
        expectUnshown(variable, [keyBody], "APNSCTL_AUTH_KEY")
    }
}

extension PastedSecretTests {
    /// `config set` writes no secret to the settings file (CLI.md): curl's FILE:PASSWORD and a key's base64 body are
    /// refused, unrepeated.
    /// A key's body written in a profile where a path goes (joined to the file's folder it no longer looks like
    /// one), and a provider token pasted as the topic, a key id, a path or an endpoint: refused or described,
    /// never printed, never sent.
    @Test func aKeyInAProfileAndAProviderTokenAnywhereAreNotPrinted() throws {
        let home = try TemporaryDirectory(prefix: "pasted-profile")
        let config = try home.write(
            "config.toml",
            "[profiles.dev]\nauth-key = \"\(keyBody)\"\nteam-id = \"FGHIJ67890\"\ntopic = \"com.x\"\n\n"
                + "[profiles.home]\ncert = \"~/\(keyBody)\"\n", mode: 0o600)
        let jwt = try InProcess.apnsctl([
            "jwt", "--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID,
        ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(jwt.hasPrefix("eyJ"), "\(jwt)")
        let device = String(repeating: "ab", count: 32)
        let auth = ["--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID]
        let cases: [([String], [String: String], Int32)] = [
            (["config", "show", "--config", config, "-p", "dev", "--for", "jwt"], [:], 64),
            (["config", "show", "--config", config, "-p", "home"], [:], 64),
            (["jwt", "--config", config, "-p", "dev"], [:], 64),
            (["send", "--config", config, "-p", "home", "-d", device, "--alert", "hi", "--dry-run"], [:], 64),
            (["send", "-d", device, "--alert", "hi", "--topic", jwt, "--dry-run"] + auth, [:], 64),
            (["send", "-d", device, "--alert", "hi", "--topic", "Bearer " + jwt, "--dry-run"] + auth, [:], 64),
            (["send", "-d", device, "--alert", "hi", "--dry-run"] + auth, ["APNSCTL_TOPIC": jwt], 64),
            (["config", "set", "--config", home.file("new.toml"), "-p", "p", "topic", jwt], [:], 64),
            (["config", "set", "--config", home.file("new.toml"), "-p", "p", "topic", keyBody], [:], 64),
            (["config", "set", "--config", home.file("new.toml"), "-p", "p", "ca-file", jwt], [:], 64),
            (["jwt", "--auth-key", jwt, "--team-id", credentials.teamID], [:], 66),
            (["jwt", "--auth-key", credentials.authKeyFile, "--team-id", jwt], [:], 64),
            (["inspect", jwt], [:], 66),
            (["send", "-d", device, "--alert", "hi", "--endpoint", jwt, "--topic", "t"] + auth, [:], 64),
        ]
        for (arguments, environment, status) in cases {
            let r = try InProcess.apnsctl(arguments, environment: environment)
            #expect(r.status == status, "\(arguments.prefix(8)): \(r.stderr)")
            expectUnshown(r, [keyBody, jwt], "\(arguments.prefix(8))")
            #expect(!r.stderr.contains(String(jwt.suffix(30))), "\(arguments.prefix(8)): \(r.stderr)")
        }
        // Said as what it is, not as a value TOML cannot hold.
        for (key, value) in [("ca-file", jwt), ("auth-key", keyBody)] {
            let set = try InProcess.apnsctl(["config", "set", "--config", home.file("new.toml"), "-p", "p", key, value])
            #expect(set.stderr.contains("not shown): "), "\(set.stderr)")
            #expect(set.stderr.contains("which the settings file never keeps"), "\(set.stderr)")
        }
        // Quoted in a profile, or named by a variable, a secret is described all the same.
        let quoted = try home.write(
            "quoted.toml",
            "[profiles.a]\ncert = \"\(credentials.pushFile)\"\ntopic = \"\(jwt)\"\nca-file = \"\(keyBody)\"\n",
            mode: 0o600)
        for (arguments, environment) in [
            (["send", "--config", quoted, "-p", "a", "-d", device, "--alert", "hi", "--dry-run"], [String: String]()),
            (["config", "show", "--config", quoted, "-p", "a"], [:]),
            (
                ["send", "--cert", credentials.pushFile, "--topic", "t", "-d", device, "--alert", "hi"],
                ["APNSCTL_CA_FILE": keyBody]
            ),
            (["send", "--apns-id", jwt, "-d", device, "--alert", "hi", "--topic", "t"] + auth, [:]),
            (["send", "--proxy", jwt, "-d", device, "--alert", "hi", "--topic", "t"] + auth, [:]),
        ] {
            let r = try InProcess.apnsctl(arguments, environment: environment)
            #expect(r.status != 0, "\(arguments.prefix(6)): \(r.stderr)")
            expectUnshown(r, [keyBody, jwt], "\(arguments.prefix(6))")
            #expect(!r.stderr.contains(String(jwt.suffix(30))), "\(arguments.prefix(6)): \(r.stderr)")
        }
        // With a paste's blanks, line break or quotes around it, a secret is the same secret; a header value holding
        // one (a channel id, a collapse id) is refused before it goes out.
        for (arguments, environment) in [
            (
                [
                    "send", "-d", device, "--alert", "hi", "--topic", "t", "--auth-key", keyBody + "\n", "--team-id",
                    "FGHIJ67890",
                ], [String: String]()
            ),
            (["send", "-d", device, "--alert", "hi", "--topic", "t", "--apns-id", jwt + " "] + auth, [:]),
            (["send", "-d", device, "--alert", "hi", "--topic", " " + jwt] + auth, [:]),
            (["send", "-d", device, "--alert", "hi", "--topic", "t"] + auth, ["APNSCTL_TEAM_ID": keyBody + " "]),
            (["config", "init", "--config", home.file("init.toml"), "--auth-key", keyBody + " "], [:]),
            (["config", "set", "--config", home.file("set.toml"), "-p", "p", "ca-file", "'\(keyBody)'"], [:]),
            (
                ["send", "--channel", keyBody, "--live-activity", "update", "--content-state", "{}", "--topic", "t"]
                    + auth, [:]
            ),
            (["send", "-d", device, "--alert", "hi", "--topic", "t", "--collapse-id", jwt] + auth, [:]),
            (Self.pushToStart(device, channel: keyBody) + auth, [:]),
        ] {
            let r = try InProcess.apnsctl(arguments, environment: environment)
            #expect(r.status != 0, "\(arguments.prefix(8)): \(r.stderr)")
            expectUnshown(r, [keyBody, jwt], "\(arguments.prefix(8))")
        }
        // --input-push-channel is a payload key, not a header: any other bad id is the validator's to word (65), not
        // "a header value cannot hold whitespace" (64).
        let spaced = try InProcess.apnsctl(Self.pushToStart(device, channel: "not base64!") + auth + ["--dry-run"])
        #expect(spaced.status == 65, "\(spaced.stderr)")
        #expect(spaced.stderr.contains("must be a non-empty base64 channel id"), "\(spaced.stderr)")
        #expect(!spaced.stderr.contains("header"), "\(spaced.stderr)")
        for written in ["init.toml", "set.toml"] {
            let text = (try? String(contentsOfFile: home.file(written), encoding: .utf8)) ?? ""
            #expect(!text.contains(String(keyBody.suffix(30))), "\(written): \(text)")
        }
        // A bundle id that merely starts as a token's header does is no token.
        let bundle = try InProcess.apnsctl(
            [
                "send", "-d", device, "--alert", "hi", "--topic", "eyJewelry.examplecompany.shoppingassistantapp",
                "--dry-run",
            ]
                + auth)
        #expect(bundle.status == 0, "\(bundle.stderr)")
        let written = (try? String(contentsOfFile: home.file("new.toml"), encoding: .utf8)) ?? ""
        #expect(
            !written.contains(String(jwt.suffix(30))) && !written.contains(String(keyBody.suffix(30))), "\(written)")
    }

    /// A push-to-start of a broadcast channel `channel`.
    static func pushToStart(_ device: String, channel: String) -> [String] {
        [
            "send", "-d", device, "--live-activity", "start", "--attributes-type", "A", "--attributes", "{}", "--alert",
            "x", "--content-state", "{}", "--input-push-channel", channel, "--topic", "t",
        ]
    }

    @Test func theSettingsFileIsGivenNoSecret() throws {
        let home = try TemporaryDirectory(prefix: "pasted-config")
        let environment = ["XDG_CONFIG_HOME": home.path]
        let cases: [([String], String, Int32)] = [
            (
                ["config", "set", "-p", "p", "cert", credentials.pushFile + ":Sup3rHidd3nPhrase"], "Sup3rHidd3nPhrase",
                64
            ),
            (["config", "set", "-p", "p", "auth-key", keyBody], keyBody, 64),
        ]
        for (arguments, secret, status) in cases {
            let r = try InProcess.apnsctl(arguments, environment: environment)
            #expect(r.status == status, "\(arguments.prefix(5)): \(r.stderr)")
            let part = String(secret.suffix(12))
            #expect(!r.stderr.contains(part) && !r.stdout.contains(part), "\(arguments.prefix(5)): \(r.stderr)")
            let file = (try? String(contentsOfFile: home.file("apnsctl/config.toml"), encoding: .utf8)) ?? ""
            #expect(!file.contains(part), "\(file)")
        }
        // A passphrase file yet to be made is written as before (with a warning that does not repeat it: it may
        // be the passphrase), as any path is.
        let later = try InProcess.apnsctl(
            ["config", "set", "-p", "p", "passphrase-file", "pass.txt"], environment: environment)
        #expect(
            later.status == 0 && later.stderr.contains("passphrase-file: no such file (the value is not repeated"),
            "\(later.stderr)")
        // So is a long one (CLI.md: a path value is written as given), its warning not quoting it.
        let long = "/nonexistent/" + String(repeating: "d", count: 120) + "/" + String(repeating: "e", count: 120)
        let written = try InProcess.apnsctl(["config", "set", "-p", "p", "ca-file", long], environment: environment)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(
            written.stderr.contains("ca-file: (a value of ") && !written.stderr.contains("dddddddddd"),
            "\(written.stderr)")
    }
}
