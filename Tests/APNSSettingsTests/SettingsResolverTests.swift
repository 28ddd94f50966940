import APNSCore
import APNSTestSupport
import Foundation
import Testing

@testable import APNSSettings

/// The resolver in-process, as tables: flags, variables and file text in; values, origins and errors out.
@Suite struct SettingsResolverTests {
    static let path = "/home/u/.config/apnsctl/config.toml"
    /// CLI.md's example, plus a profile's own device table and a profile with request defaults.
    static let example =
        SettingsExample.text + """

            [profiles.prod-cert.devices]
            qa-ipad = "aaaa000000000000000000000000000000000000000000000000000000000a11"

            [profiles.staging]
            cert = "certs/staging.pem"
            env = "production"
            priority = 5
            endpoint = ["sandbox=https://127.0.0.1:1", "production=https://127.0.0.1:2"]

            """

    static func input(
        _ command: SettingCommand = .send, flags: SettingFlags = SettingFlags(), variables: [String: String] = [:],
        file: String? = example, mockJSON: String? = nil
    ) -> SettingsInput {
        SettingsInput(
            command: command, flags: flags, variables: variables, home: "/home/u",
            location: SettingsLocation(path: path, origin: .defaultValue), fileBytes: file.map { Array($0.utf8) },
            mockReadyFile: "/state/mock.json", mockJSON: mockJSON.map { Array($0.utf8) })
    }

    static func resolve(
        _ command: SettingCommand = .send, flags: SettingFlags = SettingFlags(), variables: [String: String] = [:],
        file: String? = example, mockJSON: String? = nil
    ) throws -> ResolvedSettings {
        try SettingsResolver.resolve(input(command, flags: flags, variables: variables, file: file, mockJSON: mockJSON))
    }

    static func problem(
        _ command: SettingCommand = .send, flags: SettingFlags = SettingFlags(), variables: [String: String] = [:],
        file: String? = example, mockJSON: String? = nil
    ) -> SettingsProblem? {
        do {
            let r = try SettingsResolver.resolve(
                input(command, flags: flags, variables: variables, file: file, mockJSON: mockJSON))
            try r.checkCombinations()
            return nil
        } catch { return error }
    }

    static func flags(_ edit: (inout SettingFlags) -> Void) -> SettingFlags {
        var f = SettingFlags()
        edit(&f)
        return f
    }

    // MARK: Precedence

    struct Layering: CustomStringConvertible, Sendable {
        let name: String
        let flag: String?
        let variable: String?
        let profile: Bool
        let expected: String
        let origin: SettingOrigin
        var description: String { name }
    }

    static let topicLayers: [Layering] = [
        Layering(
            name: "profile only", flag: nil, variable: nil, profile: true, expected: "com.example.app",
            origin: .profile(name: "dev", file: path, line: 6)),
        Layering(
            name: "variable over profile", flag: nil, variable: "com.var", profile: true, expected: "com.var",
            origin: .variable("APNSCTL_TOPIC")),
        Layering(
            name: "flag over variable and profile", flag: "com.flag", variable: "com.var", profile: true,
            expected: "com.flag",
            origin: .flag("--topic")),
        Layering(
            name: "empty variable falls through", flag: nil, variable: "", profile: true, expected: "com.example.app",
            origin: .profile(name: "dev", file: path, line: 6)),
        Layering(
            name: "flag over profile", flag: "com.flag", variable: nil, profile: true, expected: "com.flag",
            origin: .flag("--topic")),
        Layering(
            name: "variable without a file", flag: nil, variable: "com.var", profile: false, expected: "com.var",
            origin: .variable("APNSCTL_TOPIC")),
    ]

    @Test(arguments: topicLayers) func topicPrecedence(_ row: Layering) throws {
        let r = try Self.resolve(
            flags: Self.flags { $0[.topic] = row.flag },
            variables: row.variable.map { ["APNSCTL_TOPIC": $0] } ?? [:], file: row.profile ? Self.example : nil)
        #expect(r[.topic]?.value == row.expected)
        #expect(r[.topic]?.origin == row.origin)
    }

    @Test func profileChoice() throws {
        #expect(try Self.resolve().profile == Sourced("dev", from: .profile(name: "dev", file: Self.path, line: 1)))
        let byVariable = try Self.resolve(variables: ["APNSCTL_PROFILE": "prod-cert"])
        #expect(byVariable.profile?.origin == .variable("APNSCTL_PROFILE"))
        #expect(byVariable[.env]?.value == .one(.production))
        let byFlag = try Self.resolve(
            flags: Self.flags { $0.profile = "staging" }, variables: ["APNSCTL_PROFILE": "dev"])
        #expect(byFlag.profile?.value == "staging")
        #expect(byFlag[.priority] == Sourced(.powerAware, from: .profile(name: "staging", file: Self.path, line: 23)))
        #expect(byFlag[.endpoint]?.value.byEnvironment.count == 2)
        // An empty APNSCTL_PROFILE is unset: the default profile applies.
        #expect(try Self.resolve(variables: ["APNSCTL_PROFILE": ""]).profile?.value == "dev")
        #expect(try Self.resolve(file: nil).profile == nil)
    }

    @Test func unknownProfiles() {
        let near = Self.problem(flags: Self.flags { $0.profile = "prod-crt" })
        #expect(near?.message == "--profile prod-crt: unknown profile; did you mean \"prod-cert\"?")
        #expect(near?.exitCode == 64)
        let far = Self.problem(variables: ["APNSCTL_PROFILE": "qa-lab"])
        #expect(
            far?.message
                == "APNSCTL_PROFILE=qa-lab: unknown profile; the profiles in \(Self.path) are dev, prod-cert, staging, mock, mock-token"
        )
        let noFile = Self.problem(flags: Self.flags { $0.profile = "dev" }, file: nil)
        #expect(noFile?.message.contains("there is no settings file") == true)
        let badDefault = Self.problem(file: "default-profile = \"nope\"\n[profiles.dev]\ntopic = \"x\"\n")
        #expect(badDefault?.message.hasPrefix("\(Self.path):1: default-profile = \"nope\": unknown profile") == true)
    }

    // MARK: Credentials as one unit

    @Test func credentialsTravelTogether() throws {
        // The flag's certificate replaces the profile's auth-key: no clash, and no key id from the profile.
        let r = try Self.resolve(flags: Self.flags { $0[.cert] = "push.pem" })
        #expect(r[.cert] == Sourced(.file("push.pem"), from: .flag("--cert")))
        #expect(r[.authKey] == nil)
        #expect(
            r[.teamID]?.origin == .profile(name: "dev", file: Self.path, line: 5), "team-id follows the ordinary order")
        try r.checkCombinations()

        // APNSCTL_CERT over a profile's auth-key uses the certificate.
        let v = try Self.resolve(variables: ["APNSCTL_CERT": "/c.pem"])
        #expect(v[.cert]?.origin == .variable("APNSCTL_CERT"))
        #expect(v[.authKey] == nil)

        // --auth-key over a profile's cert: token auth.
        let t = try Self.resolve(
            flags: Self.flags {
                $0.profile = "prod-cert"
                $0[.authKey] = "k.p8"
            })
        #expect(t[.cert] == nil)
        #expect(t[.authKey]?.value == .file("k.p8"))

        // A profile's key id does not follow its key out: with APNSCTL_AUTH_KEY the profile's key-id is not read.
        let pemKey = try Self.resolve(
            flags: Self.flags { $0.profile = "p" }, variables: ["APNSCTL_AUTH_KEY": "/k.p8"],
            file: "[profiles.p]\nauth-key = \"AuthKey_ABCDE12345.p8\"\nkey-id = \"ABCDE12345\"\n")
        #expect(pemKey[.keyID] == nil)
        #expect(pemKey[.authKey]?.origin == .variable("APNSCTL_AUTH_KEY"))

        // The profile's own key: ~/ expanded, relative paths from the file's folder.
        #expect(try Self.resolve()[.authKey]?.value == .file("/home/u/keys/AuthKey_ABCDE12345.p8"))
        #expect(
            try Self.resolve(flags: Self.flags { $0.profile = "prod-cert" })[.cert]?.value
                == .file("/home/u/.config/apnsctl/certs/push-prod.p12"))
    }

    @Test func credentialCombinations() {
        let both = "[profiles.x]\ncert = \"a.pem\"\nauth-key = \"b.p8\"\n"
        #expect(
            Self.problem(flags: Self.flags { $0.profile = "x" }, file: both)?.message
                == "cert in profile x (\(Self.path):2) and auth-key in profile x (\(Self.path):3) both given; choose one: certificate auth (cert) or token auth (auth-key)"
        )
        #expect(
            Self.problem(
                flags: Self.flags {
                    $0[.cert] = "a"
                    $0[.authKey] = "b"
                }, file: nil)?.message.hasPrefix("--cert and --auth-key both given") == true)
        #expect(Self.problem(file: nil)?.message.hasPrefix("no credential;") == true)
        #expect(
            Self.problem(flags: Self.flags { $0[.key] = "k.pem" }, file: nil)?.message
                == "--key is the certificate's private key: give the certificate with it, --cert FILE")
        #expect(
            Self.problem(variables: ["APNSCTL_KEY": "k.pem"], file: nil)?.message
                == "APNSCTL_KEY is the certificate's private key: set APNSCTL_CERT to the certificate with it")
        // Beside a .p8 key, a certificate's key is to be left out (giving a certificate too is refused next).
        #expect(
            Self.problem(
                flags: Self.flags {
                    $0[.key] = "k.pem"
                    $0[.authKey] = "AuthKey_ABCDE12345.p8"
                    $0[.teamID] = "TEAM123456"
                }, file: nil)?.message
                == "--key is a certificate's private key, and token auth (--auth-key) takes none: leave it out")
        #expect(
            Self.problem(flags: Self.flags { $0.profile = "k" }, file: "[profiles.k]\nkey = \"k.pem\"\n")?.message
                .hasSuffix("the profile has no cert: apnsctl config set --profile k cert FILE") == true)
        // A file named by --config is named again in the command to paste.
        #expect(
            ResolvedSettings.keyWithoutCertificate(
                .profile(name: "k", file: "my.toml", line: 2),
                location: SettingsLocation(path: "my.toml", origin: .flag("--config"))
            )
            .hasSuffix("apnsctl config set --config my.toml --profile k cert FILE"))
        // --key with the profile's certificate: the unit comes from the flags, which have no certificate.
        #expect(
            Self.problem(
                flags: Self.flags {
                    $0.profile = "prod-cert"
                    $0[.key] = "k.pem"
                })?.message.hasPrefix("--key is the certificate's private key") == true)
        // ... and the message says the profile's certificate is not read beside it, where the user expects the two
        // joined; a variable's key too.
        let certified = "[profiles.c]\ncert = \"c.pem\"\n"
        #expect(
            Self.problem(
                flags: Self.flags {
                    $0.profile = "c"
                    $0[.key] = "k.pem"
                }, file: certified)?.message
                == "--key is the certificate's private key: give the certificate with it, --cert FILE; credentials are taken from one place, so cert in profile c (\(Self.path):2) is not read beside --key"
        )
        #expect(
            Self.problem(flags: Self.flags { $0.profile = "c" }, variables: ["APNSCTL_KEY": "k.pem"], file: certified)?
                .message.hasSuffix("so cert in profile c (\(Self.path):2) is not read beside APNSCTL_KEY") == true)
        // A profile of the file with no credential is named; one named mock hides the built-in one, and says so.
        for name in ["bare", "mock"] {
            let message = Self.problem(
                flags: Self.flags { $0.profile = name }, file: "[profiles.\(name)]\ntopic = \"com.x\"\n")?.message
            #expect(message?.hasPrefix("no credential: profile \(name) in ") == true, "\(message ?? "")")
            #expect(
                message?.contains("(its table replaces apnsctl mock's built-in profile of that name")
                    == (name == "mock"),
                "\(message ?? "")")
        }
        // A profile holding a key id and no key is told the key is what it lacks (it was "names none", and its advice
        // to add a certificate was then refused beside the key id).
        let keyIDOnly = Self.problem(
            flags: Self.flags { $0.profile = "ci" }, file: "[profiles.ci]\nkey-id = \"ABCDE12345\"\n")?.message
        #expect(
            keyIDOnly?.hasPrefix(
                "no credential: key-id in profile ci (\(Self.path):2) names a .p8 key, but profile ci in \(Self.path) has no auth-key; give it the key ("
            ) == true, "\(keyIDOnly ?? "")")
        #expect(
            keyIDOnly?.contains("auth-key FILE, and team-id), or pass --auth-key FILE") == true, "\(keyIDOnly ?? "")")
        // A key id above the key's layer is stranded.
        #expect(
            Self.problem(flags: Self.flags { $0[.keyID] = "ABCDE12345" })?.message.hasPrefix(
                "--key-id: a key id belongs to its key, and the credentials come from auth-key in profile dev") == true)
        // The key in a variable (its PEM text, from a CI secret, cannot be given with --auth-key): its id goes beside it.
        #expect(
            Self.problem(
                flags: Self.flags { $0[.keyID] = "ABCDE12345" },
                variables: ["APNSCTL_AUTH_KEY": "-----BEGIN PRIVATE KEY-----\nMIG\n-----END PRIVATE KEY-----\n"])?
                .message
                == "--key-id: a key id belongs to its key, and the credentials come from APNSCTL_AUTH_KEY; set APNSCTL_KEY_ID beside it instead"
        )
        #expect(
            Self.problem(
                flags: Self.flags {
                    $0[.teamID] = "TEAMID1234"
                    $0[.cert] = "c.pem"
                }, file: nil)?.message == "--team-id needs a .p8 key for token auth; pass --auth-key too")
        #expect(Self.problem(.jwt, file: nil)?.message.hasPrefix("--auth-key is required") == true)
        // -p dev --team-id X is fine: the key comes from the profile.
        #expect(
            Self.problem(
                flags: Self.flags {
                    $0.profile = "dev"
                    $0[.teamID] = "OTHERTEAM1"
                }) == nil)
        #expect(
            (try? Self.resolve(flags: Self.flags { $0[.teamID] = "OTHERTEAM1" })[.teamID]?.origin) == .flag("--team-id")
        )
    }

    @Test func pemInVariables() throws {
        let pem =
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"
        let r = try Self.resolve(variables: ["APNSCTL_AUTH_KEY": pem, "APNSCTL_KEY_ID": "ABCDE12345"], file: nil)
        #expect(r[.authKey]?.value == .pem(text: pem, variable: "APNSCTL_AUTH_KEY"))
        #expect(r[.authKey]?.value.displayName == "(PEM from APNSCTL_AUTH_KEY)")
        #expect(r.value(of: Setting.of(.authKey))?.value.display == "(PEM from APNSCTL_AUTH_KEY)")
        #expect(r[.keyID]?.origin == .variable("APNSCTL_KEY_ID"))
        // Only a variable may hold the text: in a flag it is refused, never taken as a path that messages quote.
        #expect(
            Self.problem(flags: Self.flags { $0[.cert] = pem }, file: nil)?.message
                == "--cert: holds PEM text (a value of 3 lines, not shown), not a file's path; give the path of the "
                + "file, or, where a secret store holds the text (CI), put it in APNSCTL_CERT")
    }

    // MARK: Values: one parser per type, errors name their origin

    struct BadValue: CustomStringConvertible, Sendable {
        let setting: String
        let text: String
        let toml: String
        var description: String { "\(setting) \(text)" }
    }

    static let badValues: [BadValue] = [
        BadValue(setting: "priority", text: "7", toml: "7"),
        BadValue(setting: "push-type", text: "alrt", toml: "\"alrt\""),
        BadValue(setting: "env", text: "staging", toml: "\"staging\""),
        BadValue(setting: "timeout", text: "0", toml: "-1"),
        BadValue(setting: "port", text: "70000", toml: "70000"),
        BadValue(setting: "concurrency", text: "0", toml: "5000"),
        BadValue(setting: "expiration", text: "soon", toml: "\"soon\""),
        BadValue(setting: "size-limit", text: "huge", toml: "\"huge\""),
        BadValue(setting: "output", text: "yaml", toml: "\"yaml\""),
        BadValue(setting: "color", text: "sometimes", toml: "\"sometimes\""),
        BadValue(setting: "insecure", text: "maybe", toml: "\"yes\""),
        BadValue(setting: "topic", text: "com.example.app ", toml: "\"com.example.app \""),
        BadValue(setting: "endpoint", text: "ftp://x", toml: "[\"staging=https://x\"]"),
        BadValue(setting: "minify", text: "2", toml: "1"),
    ]

    @Test(arguments: badValues) func badValuesNameTheirOrigin(_ row: BadValue) throws {
        let setting = try #require(SettingCatalog.setting(row.setting))
        let variable = Self.problem(variables: [setting.variable: row.text, "APNSCTL_CERT": "c.pem"], file: nil)
        #expect(variable?.message.hasPrefix(setting.variable) == true, "\(variable?.message ?? "accepted")")
        #expect(variable?.exitCode == 64)
        let file = "[profiles.p]\ncert = \"c.pem\"\n\(row.setting) = \(row.toml)\n"
        let profile = Self.problem(flags: Self.flags { $0.profile = "p" }, file: file)
        #expect(
            profile?.message.hasPrefix("\(Self.path):3: \(row.setting)") == true, "\(profile?.message ?? "accepted")")
    }

    @Test func messagesQuoteTheValueAsGiven() {
        #expect(
            Self.problem(
                flags: Self.flags {
                    $0[.priority] = "7"
                    $0[.cert] = "c"
                }, file: nil)?.message == "--priority 7: must be 10, 5 or 1")
        #expect(
            Self.problem(variables: ["APNSCTL_PRIORITY": "7", "APNSCTL_CERT": "c"], file: nil)?.message
                == "APNSCTL_PRIORITY=7: must be 10, 5 or 1")
        #expect(
            Self.problem(
                flags: Self.flags { $0.profile = "p" }, file: "[profiles.p]\ncert = \"c\"\n\n\n\n\n\n\npriority = 7\n")?
                .message
                == "\(Self.path):9: priority = 7: must be 10, 5 or 1")
        // A wrong type is an error only for a command that reads the setting: jwt has no priority.
        #expect(
            Self.problem(
                .jwt, flags: Self.flags { $0.profile = "p" },
                file: "[profiles.p]\nauth-key = \"k.p8\"\npriority = \"x\"\n") == nil)
        // A proxy URL is never echoed (it may hold a password).
        let proxy = Self.problem(
            variables: ["APNSCTL_PROXY": "https://user:secret@proxy:3128", "APNSCTL_CERT": "c"], file: nil)
        #expect(proxy?.message.contains("secret") == false)
        #expect(proxy?.message.contains("APNSCTL_PROXY") == true)
    }

    /// The flag's own conversion is the same parser, naming the flag.
    @Test func flagsShareTheParser() throws {
        #expect(try SettingParser.parseFlag("5", for: Setting.of(.priority), command: .send) == .priority(.powerAware))
        #expect(throws: SettingsProblem.usage("--priority 7: must be 10, 5 or 1")) {
            try SettingParser.parseFlag("7", for: Setting.of(.priority), command: .send)
        }
        #expect(throws: SettingsProblem.self) {
            try SettingParser.parseFlag("auto", for: Setting.of(.env), command: .channel)
        }
    }

    /// A timeout is decimal seconds from a millisecond to a day: `Double` alone read `0x10` as 16 and took `1e-9`,
    /// whose failure then blamed the server.
    @Test func aTimeoutIsDecimalSecondsFromAMillisecondToADay() throws {
        for (text, seconds) in [
            ("30", 30.0), ("0.5", 0.5), (" 5 ", 5), ("0.001", 0.001), ("86400", 86_400), (".5", 0.5),
        ] {
            #expect(try SettingParser.parseFlag(text, for: Setting.of(.timeout), command: .send) == .seconds(seconds))
        }
        for (text, message) in [
            ("0x10", "--timeout 0x10: a number of seconds in decimal, such as 16"),
            ("1e3", "--timeout 1e3: a number of seconds in decimal, such as 1000"),
            ("1e-9", "--timeout 1e-9: must be from 0.001 (a millisecond) to 86400 seconds (a day), in decimal"),
            ("0.0001", "--timeout 0.0001: must be from 0.001 (a millisecond) to 86400 seconds (a day)"),
            ("0", "--timeout 0: must be from 0.001 (a millisecond) to 86400 seconds (a day)"),
            ("-1", "--timeout -1: must be from 0.001 (a millisecond) to 86400 seconds (a day)"),
            ("inf", "--timeout inf: must be from 0.001 (a millisecond) to 86400 seconds (a day), in decimal"),
            ("nan", "--timeout nan: not a number of seconds"),
            ("1.2.3", "--timeout 1.2.3: not a number of seconds"),
        ] {
            #expect(throws: SettingsProblem.usage(message)) {
                try SettingParser.parseFlag(text, for: Setting.of(.timeout), command: .send)
            }
        }
        // The same rule for a profile's number.
        #expect(throws: SettingsProblem.self) {
            try Self.resolve(flags: Self.flags { $0.profile = "p" }, file: "[profiles.p]\ntimeout = 1e-9\n")
        }
    }

    /// `-p "$PROFILE"` with the variable unset: said as an empty name, not as an unknown profile called "".
    @Test func anEmptyProfileNameIsSaidSo() throws {
        for name in ["", " "] {
            #expect(
                Self.problem(flags: Self.flags { $0.profile = name })
                    == .usage("--profile: empty name; give a profile's name, or leave -p out for the default"))
        }
    }

    @Test func booleansAndLists() throws {
        for (text, expected) in [
            ("1", true), ("TRUE", true), ("yes", true), ("On", true), ("0", false), ("false", false), ("NO", false),
            ("off", false),
        ] {
            #expect(try Self.resolve(variables: ["APNSCTL_INSECURE": text], file: nil).isOn(.insecure) == expected)
        }
        // A profile's true is switched off by the variable.
        let file = "[profiles.p]\ninsecure = true\n"
        #expect(try Self.resolve(flags: Self.flags { $0.profile = "p" }, file: file).isOn(.insecure))
        #expect(
            try !Self.resolve(
                flags: Self.flags { $0.profile = "p" }, variables: ["APNSCTL_INSECURE": "off"], file: file
            ).isOn(.insecure))
        let list = try Self.resolve(
            variables: ["APNSCTL_ENDPOINT": "sandbox=https://127.0.0.1:1, production=https://127.0.0.1:2"], file: nil)
        #expect(list[.endpoint]?.value.byEnvironment.count == 2)
        let one = try Self.resolve(
            flags: Self.flags { $0.profile = "p" }, file: "[profiles.p]\nendpoint = \"https://127.0.0.1:9\"\n")
        #expect(one[.endpoint]?.value.all?.port == 9)
        let flagged = try Self.resolve(
            flags: Self.flags {
                $0[list: .endpoint] = ["sandbox=https://127.0.0.1:1", "production=https://127.0.0.1:2"]
            }, file: nil)
        #expect(flagged[.endpoint]?.value.byEnvironment.count == 2)
        #expect(flagged[.endpoint]?.origin == .flag("--endpoint"))
    }

    @Test func defaultsAndCurlProxyVariables() throws {
        let r = try Self.resolve(file: nil)
        #expect(r[.timeout] == Sourced(30, from: .defaultValue))
        #expect(r[.output] == Sourced(.text, from: .defaultValue))
        #expect(r[.proxy] == nil)
        let curl = try Self.resolve(
            variables: ["HTTPS_PROXY": "http://proxy:3128", "all_proxy": "socks5h://x:1", "NO_PROXY": "localhost"],
            file: nil)
        #expect(curl[.proxy] == Sourced("http://proxy:3128", from: .variable("HTTPS_PROXY")))
        #expect(curl[.noproxy] == Sourced("localhost", from: .variable("NO_PROXY")))
        // A profile's proxy wins over curl's variables (they are part of the default).
        let profile = try Self.resolve(
            flags: Self.flags { $0.profile = "p" }, variables: ["https_proxy": "http://a:1"],
            file: "[profiles.p]\nproxy = \"http://b:2\"\n")
        #expect(profile[.proxy]?.value == "http://b:2")
        #expect(profile[.proxy]?.origin == .profile(name: "p", file: Self.path, line: 2))
    }

    /// curl's order for an `https://` URL: https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY (http_proxy is not
    /// read); a set but empty one is taken (no proxy); no_proxy before NO_PROXY, an empty no_proxy read as unset.
    @Test func curlsProxyVariablesInCurlsOrder() throws {
        var env = [
            "https_proxy": "http://a:1", "HTTPS_PROXY": "http://b:1", "all_proxy": "http://c:1",
            "ALL_PROXY": "http://d:1", "http_proxy": "http://e:1",
        ]
        for (name, url) in [
            ("https_proxy", "http://a:1"), ("HTTPS_PROXY", "http://b:1"), ("all_proxy", "http://c:1"),
            ("ALL_PROXY", "http://d:1"),
        ] {
            #expect(try Self.resolve(variables: env, file: nil)[.proxy] == Sourced(url, from: .variable(name)))
            env[name] = nil
        }
        #expect(try Self.resolve(variables: env, file: nil)[.proxy] == nil, "http_proxy is not read for https")
        let empty = try Self.resolve(variables: ["https_proxy": "", "all_proxy": "http://c:1"], file: nil)
        #expect(empty[.proxy] == Sourced("", from: .variable("https_proxy")), "set but empty: no proxy")
        let lists = ["no_proxy": "example.com", "NO_PROXY": "apple.com"]
        #expect(
            try Self.resolve(variables: lists, file: nil)[.noproxy]
                == Sourced("example.com", from: .variable("no_proxy")))
        #expect(
            try Self.resolve(variables: lists.merging(["no_proxy": ""]) { $1 }, file: nil)[.noproxy]
                == Sourced("apple.com", from: .variable("NO_PROXY")))
        let flag = try Self.resolve(flags: Self.flags { $0[.noproxy] = "" }, variables: lists, file: nil)
        #expect(flag[.noproxy]?.value == "", "--noproxy replaces the variables")
        #expect(
            try Self.resolve(flags: Self.flags { $0[.proxy] = "socks5h://x:1" }, variables: lists, file: nil)[.proxy]?
                .value == "socks5h://x:1")
    }

    /// Digits beyond Int's range are a number, out of range, not "not a whole number".
    @Test func aNumberTooLargeIsSaidToBeOne() {
        #expect(
            Self.problem(flags: Self.flags { $0[.historyEntries] = "99999999999999999999" })?.message
                == "--history-entries 99999999999999999999: a number far out of range")
        #expect(
            Self.problem(flags: Self.flags { $0[.historyEntries] = "12a" })?.message
                == "--history-entries 12a: not a whole number")
    }

    @Test func commandsReadOnlyTheirSettings() throws {
        let jwt = try Self.resolve(.jwt)
        #expect(jwt[.topic] == nil && jwt[.timeout] == nil)
        #expect(jwt[.authKey] != nil && jwt[.teamID]?.value == "TEAMID1234")
        let channel = try Self.resolve(.channel, flags: Self.flags { $0[.storage] = "most-recent" })
        #expect(channel[.storage]?.value == "most-recent")
        #expect(
            Self.problem(.channel, flags: Self.flags { $0[.env] = "auto" })?.message
                == "--env auto: auto is for send only (it tries both environments); use sandbox (development) or production"
        )
        #expect(try Self.resolve(.doctor, flags: Self.flags { $0[.env] = "both" })[.env]?.value == .both)
        #expect(try Self.resolve(flags: Self.flags { $0[.env] = "auto" })[.env]?.value == .auto)
        // A profile shared by send and doctor: its auto (either environment) is doctor's default (DoctorPlan reads
        // it as no choice); doctor's own --env auto stays refused, with the words doctor takes.
        let shared = "[profiles.p]\nenv = \"auto\"\n"
        let doctor = try Self.resolve(.doctor, flags: Self.flags { $0.profile = "p" }, file: shared)
        #expect(doctor[.env]?.value == .auto)
        #expect(try Self.resolve(flags: Self.flags { $0.profile = "p" }, file: shared)[.env]?.value == .auto)
        #expect(
            Self.problem(.doctor, flags: Self.flags { $0[.env] = "auto" })?.message.hasPrefix("--env auto: ") == true)
    }

    // MARK: The built-in mock profile

    static let mockJSON =
        #"{"endpoint":"https://127.0.0.1:2197","manage_endpoint":"https://127.0.0.1:2197","ca_file":"/state/ca.pem","cert":"/state/client.pem","auth_key":"/state/AuthKey_ABCDE12345.p8","key_id":"ABCDE12345","team_id":"TEAMID1234","bundle_id":"com.example.demo","environment":"sandbox","pid":1}"#

    @Test func mockProfile() throws {
        let r = try Self.resolve(flags: Self.flags { $0.profile = "mock" }, mockJSON: Self.mockJSON)
        #expect(r[.cert] == Sourced(.file("/state/client.pem"), from: .mock(profile: "mock", file: "/state/mock.json")))
        #expect(r[.topic]?.value == "com.example.demo")
        #expect(r[.caFile]?.value == "/state/ca.pem")
        #expect(r[.endpoint]?.value.all?.port == 2197)
        try r.checkCombinations()
        let missing = Self.problem(flags: Self.flags { $0.profile = "mock" })
        #expect(missing?.exitCode == 66)
        #expect(missing?.message.contains("start apnsctl mock") == true)
        // A file's own [profiles.mock] wins over the built-in one.
        let own = try Self.resolve(
            flags: Self.flags { $0.profile = "mock" }, file: "[profiles.mock]\ntopic = \"mine\"\ncert = \"c\"\n")
        #expect(own[.topic]?.origin == .profile(name: "mock", file: Self.path, line: 2))
        #expect(
            try MockProfile.readyFilePath(variables: ["APNSCTL_MOCK_STATE_DIR": "/s"], defaultStateDirectory: "/d")
                == "/s/mock.json")
        #expect(
            try MockProfile.readyFilePath(variables: ["APNSCTL_MOCK_STATE_DIR": ""], defaultStateDirectory: "/d")
                == "/d/mock.json")
    }

    /// The mock plays one environment, and its profiles say which: `-p mock` sends to and probes that one, and an
    /// `--env` or `APNSCTL_ENV` naming the other (or doctor's `both`) is refused rather than sent to the mock
    /// under a label it does not play. A mock.json without `environment` (an earlier mock) sets none.
    @Test func theMockProfilesCarryTheMocksEnvironment() throws {
        let mockProfile = Self.flags { $0.profile = "mock" }
        let r = try Self.resolve(flags: mockProfile, mockJSON: Self.mockJSON)
        #expect(r[.env] == Sourced(.one(.sandbox), from: .mock(profile: "mock", file: "/state/mock.json")))
        let doctor = try Self.resolve(.doctor, flags: mockProfile, mockJSON: Self.mockJSON)
        #expect(doctor[.env]?.value == .one(.sandbox))
        #expect(
            try Self.resolve(
                flags: Self.flags {
                    $0.profile = "mock"
                    $0[.env] = "dev"
                }, mockJSON: Self.mockJSON)[.env]?.value == .one(.sandbox))

        let flag = Self.problem(
            flags: Self.flags {
                $0.profile = "mock"
                $0[.env] = "prod"
            }, mockJSON: Self.mockJSON)
        #expect(flag?.exitCode == 64)
        #expect(
            flag?.message
                == "--env production, but the mock of -p mock (/state/mock.json) plays sandbox; leave --env out, or stop the mock (apnsctl mock stop) and start it again with apnsctl mock --env production and the flags you gave it"
        )
        let variable = Self.problem(
            .doctor, flags: Self.flags { $0.profile = "mock-token" }, variables: ["APNSCTL_ENV": "production"],
            mockJSON: Self.mockJSON)
        #expect(variable?.message.hasPrefix("APNSCTL_ENV=production, but the mock of -p mock-token") == true)
        #expect(variable?.message.contains("unset APNSCTL_ENV") == true)
        let both = Self.problem(
            .doctor,
            flags: Self.flags {
                $0.profile = "mock"
                $0[.env] = "both"
            }, mockJSON: Self.mockJSON)
        #expect(
            both?.message.hasPrefix("--env both, but the mock of -p mock (/state/mock.json) plays sandbox only") == true
        )

        // The mock's own URL given again (copied from its ready line) is the same server: still refused.
        let again = Self.problem(
            .doctor,
            flags: Self.flags {
                $0.profile = "mock"
                $0[.env] = "production"
                $0[.endpoint] = "https://127.0.0.1:2197/"
            }, mockJSON: Self.mockJSON)
        #expect(
            again?.message.hasPrefix("--env production, but the mock of -p mock (/state/mock.json) plays sandbox;")
                == true, "\(String(describing: again?.message))")
        // The mock's endpoint replaced: the environment is the user's to choose.
        let elsewhere = Self.flags {
            $0.profile = "mock"
            $0[.env] = "production"
            $0[.endpoint] = "https://127.0.0.1:9"
        }
        #expect(try Self.resolve(flags: elsewhere, mockJSON: Self.mockJSON)[.env]?.value == .one(.production))
        let elsewhereAlone = Self.flags {
            $0.profile = "mock"
            $0[.endpoint] = "https://127.0.0.1:9"
        }
        #expect(try Self.resolve(flags: elsewhereAlone, mockJSON: Self.mockJSON)[.env] == nil)
        // A production mock: its profile sends to production.
        let production = Self.mockJSON.replacingOccurrences(of: "\"sandbox\"", with: "\"production\"")
        #expect(try Self.resolve(flags: mockProfile, mockJSON: production)[.env]?.value == .one(.production))
        // An earlier mock's file: no environment, nothing refused.
        let earlier = Self.mockJSON.replacingOccurrences(of: #""environment":"sandbox","#, with: "")
        #expect(earlier != Self.mockJSON)
        let old = try Self.resolve(
            flags: Self.flags {
                $0.profile = "mock"
                $0[.env] = "production"
            }, mockJSON: earlier)
        #expect(old[.env]?.origin == .flag("--env"))
    }

    /// Team ids and key ids are checked where they were written, whichever place that is (exit 64); an id in
    /// lower case is told its capitals.
    @Test func teamAndKeyIDsAreCheckedWhereTheyWereWritten() throws {
        let key = ["APNSCTL_AUTH_KEY": "k.p8"]
        #expect(
            Self.problem(flags: Self.flags { $0[.teamID] = "abc" }, variables: key, file: nil)?.message
                == "--team-id abc: not a team id; it must be 10 characters A-Z and 0-9, as shown in the Apple Developer portal"
        )
        #expect(
            Self.problem(flags: Self.flags { $0[.teamID] = "teamid1234" }, variables: key, file: nil)?.message
                == "--team-id teamid1234: not a team id: the portal shows it in capitals; give TEAMID1234")
        let pasted = Self.problem(variables: key.merging(["APNSCTL_TEAM_ID": "TEAMID1234\n"]) { a, _ in a }, file: nil)
        #expect(
            pasted?.message
                == "APNSCTL_TEAM_ID: whitespace or a line break around the team id (a trailing space or line break is the usual copy-paste mistake); remove it"
        )
        let variable = Self.problem(variables: key.merging(["APNSCTL_KEY_ID": "KEY1"]) { a, _ in a }, file: nil)
        #expect(variable?.message.hasPrefix("APNSCTL_KEY_ID=KEY1: not a key id") == true, "\(variable?.message ?? "")")
        let profile = Self.problem(
            flags: Self.flags { $0.profile = "p" }, file: "[profiles.p]\nauth-key = \"k.p8\"\nteam-id = \"T1\"\n")
        #expect(
            profile?.message.hasPrefix("\(Self.path):3: team-id = \"T1\": not a team id") == true,
            "\(profile?.message ?? "")")
        #expect(profile?.exitCode == 64)
        let good = try Self.resolve(
            flags: Self.flags {
                $0[.authKey] = "k.p8"
                $0[.teamID] = "TEAMID1234"
                $0[.keyID] = "0123456789"
            }, file: nil)
        #expect(good[.teamID]?.value == "TEAMID1234" && good[.keyID]?.value == "0123456789")
    }

    @Test func passphraseSources() throws {
        let flag = try Self.resolve(
            flags: Self.flags { $0[.passphraseFile] = "pw.txt" }, variables: ["APNSCTL_PASSPHRASE": "secret"])
        #expect(flag[.passphraseFile]?.value == "pw.txt")
        #expect(flag[.passphrase] == nil, "the first place naming a passphrase supplies it")
        let variable = try Self.resolve(variables: ["APNSCTL_PASSPHRASE": "secret"], file: nil)
        #expect(variable.value(of: Setting.of(.passphrase))?.value.display == "(hidden)")
        #expect(
            Self.problem(
                variables: ["APNSCTL_PASSPHRASE": "a", "APNSCTL_PASSPHRASE_FILE": "b", "APNSCTL_CERT": "c"], file: nil)?
                .message == "APNSCTL_PASSPHRASE and APNSCTL_PASSPHRASE_FILE both given; pass only one")
        let profile = try Self.resolve(
            flags: Self.flags { $0.profile = "p" }, file: "[profiles.p]\ncert = \"c\"\npassphrase-file = \"~/pw\"\n")
        #expect(profile[.passphraseFile]?.value == "/home/u/pw")
    }
}

/// Generated from the settings table: every setting of every command reads its `APNSCTL_` variable and its
/// profile key, and a bad value in either names its origin (exit 64). Kinds with no value to refuse here
/// (paths, credentials, free text, the passphrase) are checked where the file is used.
@Suite struct EverySettingTests {
    /// A value the setting's parser refuses, as variable text and as TOML.
    static func badValue(_ kind: SettingKind) -> (text: String, toml: String)? {
        switch kind {
        case .word: return ("two words", "\"two words\"")
        case .identifier: return ("abc", "\"abc\"")
        case .boolean: return ("maybe", "\"maybe\"")
        case .environment: return ("staging", "\"staging\"")
        case .endpoints: return ("ftp://x", "[\"ftp://x\"]")
        case .port: return ("70000", "70000")
        case .proxy: return ("https://proxy:3128", "\"https://proxy:3128\"")
        case .concurrency: return ("0", "0")
        case .seconds: return ("-1", "-1")
        case .pushType: return ("alrt", "\"alrt\"")
        case .priority: return ("7", "7")
        case .expiration: return ("soon", "\"soon\"")
        case .sizeLimit: return ("huge", "\"huge\"")
        case .outputFormat: return ("yaml", "\"yaml\"")
        case .color: return ("sometimes", "\"sometimes\"")
        case .storage: return ("all", "\"all\"")
        case .duration: return ("a while", "\"a while\"")
        case .count: return ("0", "0")
        case .text, .path, .credential, .secret: return nil
        }
    }

    static var cases: [(SettingCommand, String)] {
        SettingCommand.allCases.flatMap { c in SettingCatalog.settings(for: c).map { (c, $0.name) } }
    }

    @Test(arguments: cases) func badValuesNameTheirVariableAndLine(command: SettingCommand, name: String) throws {
        let setting = try #require(SettingCatalog.setting(name))
        guard let bad = Self.badValue(setting.kind) else { return }
        let credential = command == .jwt ? "APNSCTL_AUTH_KEY" : "APNSCTL_CERT"
        let variable = SettingsResolverTests.problem(
            command, variables: [setting.variable: bad.text, credential: "x"], file: nil)
        #expect(variable?.exitCode == 64)
        #expect(variable?.message.hasPrefix(setting.variable) == true, "\(variable?.message ?? "accepted")")
        // A key id belongs to its key: the profile holds both (with the key in a variable, the profile's
        // key id is not read at all).
        let unit = SettingCatalog.credentialUnit.contains { $0.name == name }
        let file = "[profiles.p]\n\(unit ? "auth-key = \"k.p8\"" : "")\n\(name) = \(bad.toml)\n"
        #expect(try PythonTOML.accepts(file))
        let profile = SettingsResolverTests.problem(
            command, flags: SettingsResolverTests.flags { $0.profile = "p" },
            variables: unit ? [:] : [credential: "x"], file: file)
        #expect(
            profile?.message.hasPrefix("\(SettingsResolverTests.path):3: \(name)") == true,
            "\(profile?.message ?? "accepted")")
    }

    @Test(arguments: cases) func goodValuesAreReadFromTheVariable(command: SettingCommand, name: String) throws {
        let setting = try #require(SettingCatalog.setting(name))
        let good: String
        switch setting.kind {
        case .boolean: good = "1"
        case .environment: good = "production"
        case .endpoints: good = "https://127.0.0.1:1"
        case .port: good = "2197"
        case .proxy: good = "http://proxy:3128"
        case .concurrency: good = "3"
        case .seconds: good = "5"
        case .pushType: good = "alert"
        case .priority: good = "5"
        case .expiration: good = "1h"
        case .sizeLimit: good = "4k"
        case .outputFormat: good = "json"
        case .color: good = "never"
        case .storage: good = "most-recent"
        case .duration: good = "30d"
        case .count: good = "7"
        case .identifier: good = "ABCDE12345"
        case .word, .text, .path, .credential, .secret: good = "value"
        }
        let r = try SettingsResolverTests.resolve(command, variables: [setting.variable: good], file: nil)
        #expect(
            r.value(of: setting)?.origin == .variable(setting.variable), "\(command) does not read \(setting.variable)")
    }
}
