import APNSClient
import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// CLI.md: text from settings, variables and servers is escaped by one function everywhere it is printed — C0 and
/// C1 control characters and the bidirectional overrides as `\u{…}` in text, as JSON escapes (`\u009b`, `\u202e`)
/// in JSON; a URL's password is `***` in every message; a relative `HOME` counts as no home.
@Suite struct PrintedTextTests {
    static let token = "3f2a000000000000000000000000000000000000000000000000000000009c1d"
    /// A one-byte CSI on many terminals, and the right-to-left override.
    static let csi = "\u{9B}", rlo = "\u{202E}"

    /// Neither character raw, in any of `texts`.
    static func expectNoneRaw(_ texts: String..., what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in texts {
            #expect(
                !text.unicodeScalars.contains { $0 == "\u{9B}" || $0 == "\u{202E}" || $0 == "\u{1B}" },
                "\(what): a raw control or override in \(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    static func run(_ arguments: [String], _ variables: [String: String] = [:], home: String?) -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let t = TestWorld(variables: variables, home: home)
        let status = t.run(arguments)
        return (status, t.stdout.text, t.stderr.text)
    }

    /// A settings file whose profile name, values and device name hold U+009B and U+202E (TOML escapes).
    static let config = #"""
        default-profile = "dev\u202E"

        [profiles."dev\u202E"]
        noproxy = "intra\u009Bnet,\u202Eexample.com"
        topic = "com.example.demo"

        [devices]
        "phone\u009B" = "3f2a000000000000000000000000000000000000000000000000000000009c1d"

        """#

    @Test func settingsAndVariablesAreEscapedInEveryListingAndMessage() throws {
        let dir = try TemporaryDirectory(prefix: "printed-settings")
        try FileManager.default.createDirectory(atPath: dir.file("config/apnsctl"), withIntermediateDirectories: true)
        _ = try dir.write("config/apnsctl/config.toml", Self.config, mode: 0o600)
        let cert = try dir.pem("client.pem", CredentialFixtures.universal)
        let variables = ["XDG_CONFIG_HOME": dir.file("config"), "XDG_CACHE_HOME": dir.file("cache")]
        let home = dir.file("home")

        let show = Self.run(["config", "show"], variables, home: home)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("dev\\u{202E} ") && show.stdout.contains(" default-profile, "), "\(show.stdout)")
        #expect(show.stdout.contains("intra\\u{9B}net,\\u{202E}example.com"), "\(show.stdout)")
        Self.expectNoneRaw(show.stdout, show.stderr, what: "config show")

        let json = Self.run(["config", "show", "-o", "json"], variables, home: home)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(
            json.stdout.contains(#""value":"dev\u202e""#) && json.stdout.contains(#"intra\u009bnet,\u202eexample.com"#),
            "\(json.stdout)")
        #expect(!json.stdout.contains("\\u{"), "JSON escapes as JSON does: \(json.stdout)")
        Self.expectNoneRaw(json.stdout, json.stderr, what: "config show -o json")
        let values = try json.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(
            values.contains {
                $0["setting"] as? String == "noproxy" && $0["value"] as? String == "intra\u{9B}net,\u{202E}example.com"
            })

        let list = Self.run(["config", "list"], variables, home: home)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(
            list.stdout.contains("profile dev\\u{202E} (default)") && list.stdout.contains("device phone\\u{9B}  "),
            "\(list.stdout)")
        Self.expectNoneRaw(list.stdout, list.stderr, what: "config list")
        let listJSON = Self.run(["config", "list", "-o", "json"], variables, home: home)
        #expect(listJSON.status == 0, "\(listJSON.stderr)")
        #expect(
            listJSON.stdout.contains(#""device":"phone\u009b""#) && listJSON.stdout.contains(#""profile":"dev\u202e""#),
            "\(listJSON.stdout)")
        #expect(!listJSON.stdout.contains("\\u{"), "\(listJSON.stdout)")
        Self.expectNoneRaw(listJSON.stdout, listJSON.stderr, what: "config list -o json")

        // -v: the origin lines; the device name in the result line.
        let verbose = Self.run(
            ["send", "--cert", cert, "-d", "phone\u{9B}", "--alert", "hi", "--dry-run", "-v"], variables, home: home)
        #expect(verbose.status == 0, "\(verbose.stderr)")
        #expect(verbose.stderr.contains("* profile dev\\u{202E} (default-profile, "), "\(verbose.stderr)")
        #expect(
            verbose.stderr.contains("* noproxy intra\\u{9B}net,\\u{202E}example.com (profile dev\\u{202E}, "),
            "\(verbose.stderr)")
        Self.expectNoneRaw(verbose.stdout, verbose.stderr, what: "send -v")

        // Messages quoting a value: a variable's, a flag's, a profile's.
        let variable = Self.run(
            ["config", "show"], variables.merging(["APNSCTL_PRIORITY": "7\(Self.csi)\(Self.rlo)"]) { $1 }, home: home)
        #expect(
            variable.status == 64 && variable.stderr.contains("APNSCTL_PRIORITY=7\\u{9B}\\u{202E}: must be 10, 5 or 1"),
            "\(variable.stderr)")
        let flag = Self.run(
            ["send", "--cert", cert, "-d", Self.token, "--dry-run", "--priority", "7\(Self.rlo)"], variables, home: home
        )
        // Quoted as a value with a character no header may hold (a bidirectional override), escaped as the
        // variable's value is, by the same function.
        #expect(flag.status == 64 && flag.stderr.contains(#"--priority "7\u{202E}""#), "\(flag.stderr)")
        let profile = Self.run(
            ["send", "--cert", cert, "-d", Self.token, "--dry-run", "-p", "nope\(Self.csi)"], variables, home: home)
        #expect(
            profile.status == 64 && profile.stderr.contains("--profile nope\\u{9B}: unknown profile"),
            "\(profile.stderr)")
        Self.expectNoneRaw(variable.stderr, flag.stderr, profile.stderr, what: "messages")
    }

    @Test func aServersReasonAndBodyAreEscapedInTextAndAsJSONInJSON() throws {
        let device = PushTarget.device(try DeviceToken(parsing: Self.token))
        // An unknown reason with ESC, CSI and an override (JSON escapes in the body), and a body that is not JSON.
        let reason = PushResult(
            target: device,
            response: HTTPResponse(status: 400, body: Array(#"{"reason":"Bad\u001b[31m\u009b\u202eToken"}"#.utf8)),
            durationMs: 3)
        let body = PushResult(
            target: device,
            response: HTTPResponse(status: 502, body: Array("<p>\u{1B}[2J\u{9B}\u{202E}gateway</p>".utf8)),
            durationMs: 3)
        let endpoint = PushEndpoint(environment: .sandbox)

        let reasonText = SendOutput.textLine(reason, environment: .sandbox)
        #expect(
            reasonText.contains("Bad\\u{1B}[31m\\u{9B}\\u{202E}Token is not a reason apnsctl knows"), "\(reasonText)")
        let reasonJSON = SendOutput.jsonLine(reason, environment: .sandbox, endpoint: endpoint)
        #expect(reasonJSON.contains(#""reason":"Bad\u001b[31m\u009b\u202eToken""#), "\(reasonJSON)")
        #expect(try jsonObject(reasonJSON)["reason"] as? String == "Bad\u{1B}[31m\u{9B}\u{202E}Token")

        let bodyText = SendOutput.textLine(body, environment: .sandbox)
        #expect(
            bodyText.contains("not APNs; it answered: <p>\\u{1B}[2J\\u{9B}\\u{202E}gateway</p>"),
            "\(bodyText)")
        let bodyJSON = SendOutput.jsonLine(body, environment: .sandbox, endpoint: endpoint)
        #expect(bodyJSON.contains(#""body":"<p>\u001b[2J\u009b\u202egateway</p>""#), "\(bodyJSON)")
        for line in [reasonText, reasonJSON, bodyText, bodyJSON] { Self.expectNoneRaw(line, what: "send output") }
        for line in [reasonJSON, bodyJSON] { #expect(!line.contains("\\u{"), "JSON escapes as JSON does: \(line)") }

        // The summary line names the reason too.
        var summary = SendSummary()
        summary.rejected = 1
        summary.reasons = [(reason: "Bad\u{1B}\u{9B}\u{202E}", count: 1)]
        let summaryLine = SendOutput.summaryLine(summary)
        #expect(summaryLine.contains("Bad\\u{1B}\\u{9B}\\u{202E} 1"), "\(summaryLine)")

        // channel: a rejection in JSON and in text.
        let json = TestWorld()
        #expect(throws: CLIError.self) {
            try ChannelOutput(format: .json, in: json.world).check(reason, operation: "get")
        }
        #expect(json.stdout.text.contains(#""reason":"Bad\u001b[31m\u009b\u202eToken""#), "\(json.stdout.text)")
        let text = TestWorld()
        #expect(throws: CLIError.self) {
            try ChannelOutput(format: .text, in: text.world).check(reason, operation: "get")
        }
        #expect(text.stderr.text.contains("rejected 400 Bad\\u{1B}[31m\\u{9B}\\u{202E}Token"), "\(text.stderr.text)")
        Self.expectNoneRaw(json.stdout.text, text.stderr.text, what: "channel output")
    }

    /// A proxy's status line: escaped in the text result line, `-v` and the error; JSON's escapes in `-o json`.
    @Test func aProxysAnswerIsEscapedInTextAndAsJSONInJSON() throws {
        let proxy = try FixedAnswerProxy(
            answer: "HTTP/1.1 403 Forbidden \u{1B}[2J\u{9B}\u{202E}drow\r\nContent-Length: 0\r\n\r\n",
            connections: 2)
        let port = proxy.port
        let dir = try TemporaryDirectory(prefix: "printed-proxy")
        let cert = try dir.pem("client.pem", CredentialFixtures.universal)
        let send = [
            "send", "--cert", cert, "-d", Self.token, "--alert", "hi", "--endpoint", "https://127.0.0.1:9", "--timeout",
            "5",
            "--proxy", "http://127.0.0.1:\(port)",
        ]
        let variables = ["XDG_CONFIG_HOME": dir.file("config"), "XDG_CACHE_HOME": dir.file("cache")]
        let text = Self.run(send + ["-v"], variables, home: dir.path)
        #expect(text.status == 69, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("403 Forbidden \\u{1B}[2J\\u{9B}\\u{202E}drow"), "\(text.stdout)")
        #expect(text.stderr.contains("403 Forbidden \\u{1B}[2J\\u{9B}\\u{202E}drow"), "\(text.stderr)")
        let json = Self.run(send + ["-o", "json"], variables, home: dir.path)
        #expect(json.status == 69, "\(json.stdout)\(json.stderr)")
        #expect(
            json.stdout.contains(#"403 Forbidden \u001b[2J\u009b\u202edrow"#) && !json.stdout.contains("\\u{"),
            "\(json.stdout)")
        let error = try jsonObject(json.stdout.split(separator: "\n").first.map(String.init) ?? "")["error"] as? String
        #expect(error?.contains("403 Forbidden \u{1B}[2J\u{9B}\u{202E}drow") == true, "\(String(describing: error))")
        Self.expectNoneRaw(text.stdout, text.stderr, json.stdout, json.stderr, what: "a proxy's answer")
    }

    /// A settings file's key in a message: quoted by the one function for printed text
    /// (`\u{1B}`), not JSON's (`\u001b`), as the same names are in listings.
    @Test func namesFromTheSettingsFileAreQuotedAsPrintedText() throws {
        let dir = try TemporaryDirectory(prefix: "printed-quoted")
        try FileManager.default.createDirectory(atPath: dir.file("config/apnsctl"), withIntermediateDirectories: true)
        try dir.write("config/apnsctl/config.toml", "\"a\\u001b\\u202eb\" = 1\n[profiles.dev]\n")
        let variables = ["XDG_CONFIG_HOME": dir.file("config"), "XDG_CACHE_HOME": dir.file("cache")]
        let list = Self.run(["config", "list"], variables, home: dir.path)
        #expect(list.status == 64 && list.stderr.contains(#""a\u{1B}\u{202E}b" at the top level"#), "\(list.stderr)")
        Self.expectNoneRaw(list.stderr, what: "settings names")
    }

    /// A payload's key in `validate`'s problem path: escaped in text, JSON's escapes in JSON.
    @Test func aPayloadsKeysAreEscapedInTextAndAsJSONInJSON() throws {
        let dir = try TemporaryDirectory(prefix: "printed-validate")
        let payload = try dir.write("p.json", #"{"aps":{"alert":"x","a\u001b\u009b\u202eb":1}}"#)
        let text = Self.run(["validate", payload], home: dir.path)
        #expect(text.stdout.contains("aps.a\\u{1B}\\u{9B}\\u{202E}b: "), "\(text.stdout)\(text.stderr)")
        let json = Self.run(["validate", "-o", "json", payload], home: dir.path)
        #expect(
            json.stdout.contains(#""path":"aps.a\u001b\u009b\u202eb""#) && !json.stdout.contains("\\u{"),
            "\(json.stdout)")
        #expect(text.status == json.status && (text.status == 0 || text.status == 65), "\(text.stderr)")
        Self.expectNoneRaw(text.stdout, text.stderr, json.stdout, json.stderr, what: "validate")
    }

    @Test func aURLsPasswordIsMaskedInEveryMessage() throws {
        let dir = try TemporaryDirectory(prefix: "printed-url")
        let cert = try dir.pem("client.pem", CredentialFixtures.universal)
        let variables = ["XDG_CONFIG_HOME": dir.file("config"), "XDG_CACHE_HOME": dir.file("cache")]
        let send = ["send", "--cert", cert, "-d", Self.token, "--alert", "hi"]
        let endpoint = "https://apns-user:s3cret-pw@127.0.0.1:9"
        let proxy = "http://proxy-user:s3cret-pw@127.0.0.1:9"
        let runs: [(String, [String], [String: String])] = [
            ("--endpoint", send + ["--endpoint", endpoint], [:]),
            ("APNSCTL_ENDPOINT", send, ["APNSCTL_ENDPOINT": endpoint]),
            ("APNSCTL_ENDPOINT, config show", ["config", "show"], ["APNSCTL_ENDPOINT": endpoint]),
            ("APNSCTL_ENDPOINT, doctor", ["doctor", "--cert", cert], ["APNSCTL_ENDPOINT": endpoint]),
            ("--endpoint sandbox=", send + ["--endpoint", "sandbox=" + endpoint], [:]),
            (
                "--proxy, -v", send + ["--endpoint", "https://127.0.0.1:9", "--timeout", "2", "--proxy", proxy, "-v"],
                [:]
            ),
            ("--proxy, --dry-run", send + ["--proxy", proxy, "--dry-run"], [:]),
            ("APNSCTL_PROXY, config show", ["config", "show"], ["APNSCTL_PROXY": proxy]),
            ("APNSCTL_PROXY, config show -o json", ["config", "show", "-o", "json"], ["APNSCTL_PROXY": proxy]),
            ("a bad proxy URL", send + ["--proxy", "https://proxy-user:s3cret-pw@127.0.0.1:9"], [:]),
            (
                "APNSCTL_PROXY, doctor",
                ["doctor", "--cert", cert, "--endpoint", "https://127.0.0.1:9", "--timeout", "2"],
                ["APNSCTL_PROXY": proxy]
            ),
        ]
        for (what, arguments, extra) in runs {
            let r = Self.run(arguments, variables.merging(extra) { $1 }, home: dir.path)
            #expect(
                !r.stdout.contains("s3cret-pw") && !r.stderr.contains("s3cret-pw"), "\(what): \(r.stdout)\(r.stderr)")
        }
        let refused = Self.run(send + ["--endpoint", endpoint], variables, home: dir.path)
        #expect(
            refused.status == 64
                && refused.stderr.contains("https://apns-user:***@127.0.0.1:9: user names are not supported"),
            "\(refused.stderr)")
        #expect(URLPassword.masked("socks5h://u:p%40ss@host:1080") == "socks5h://u:***@host:1080")
        #expect(URLPassword.masked("user:pw@host") == "user:***@host")
        #expect(URLPassword.masked("https://host:443") == "https://host:443")
        #expect(URLPassword.masked("https://user@host") == "https://user@host")
    }

    /// A relative `HOME` would put the settings file and the token cache wherever the command runs.
    @Test func aRelativeHomeCountsAsNoHome() throws {
        let dir = try TemporaryDirectory(prefix: "relative-home")
        let key = try dir.write("AuthKey_ABCDE12345.p8", CredentialFixtures.signingKey.p8PEM, mode: 0o600)
        let t = TestWorld(variables: ["HOME": "relative/home"], home: "relative/home")
        #expect(t.world.settings.home == nil)
        // The token is signed before connecting (to a closed port): with no home, not cached, and said so.
        let status = t.run([
            "send", "--auth-key", key, "--team-id", "TEAMID1234", "--topic", "com.example.app", "-d", Self.token,
            "--alert", "hi", "--endpoint", "https://127.0.0.1:9", "--timeout", "2",
        ])
        #expect(status == 69, "\(t.stderr.text)")
        #expect(
            t.stderr.text.contains(
                "warning: no home directory ($HOME is relative/home, a relative path, and $XDG_CACHE_HOME is unset or relative): "
                    + "the provider token is not cached"),
            "\(t.stderr.text)")
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/relative"))

        // From the environment, as `main` reads it: a relative $HOME is no home, and the password database's home
        // is not taken instead of what the caller set; config path says so (it printed an empty path).
        let work = try TemporaryDirectory(prefix: "relative-home-cwd")
        let path = try InProcess.apnsctl(
            ["config", "path"], environment: ["HOME": "relative/home", "XDG_CONFIG_HOME": ""],
            directory: work.path)
        #expect(path.status == 0, "\(path.stderr)")
        #expect(
            path.stdout
                == "none: no home directory for the default settings file ($HOME is relative/home, a relative path, "
                + "and $XDG_CONFIG_HOME is unset or relative); no settings are read\n",
            "\(path.stdout)\(path.stderr)")
        let json = try InProcess.apnsctl(
            ["config", "path", "-o", "json"], environment: ["HOME": "relative/home", "XDG_CONFIG_HOME": ""],
            directory: work.path)
        #expect(json.stdout == "{\"path\":null,\"origin\":\"default\",\"exists\":false}\n", "\(json.stdout)")
        // A command that writes the file is refused, saying the same.
        let initialized = try InProcess.apnsctl(
            ["config", "init", "-p", "dev", "--cert", "c.pem"],
            environment: ["HOME": "relative/home", "XDG_CONFIG_HOME": ""], directory: work.path)
        #expect(initialized.status == 64, "\(initialized.stderr)")
        #expect(
            initialized.stderr.hasPrefix(
                "error: no settings file: no home directory for the default one ($HOME is relative/home, a relative path"
            ),
            "\(initialized.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty, "something was made")
    }
}
