import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `apnsctl config init|set|unset|add-device|remove-device`: the settings file edited in place, every byte
/// outside the changed lines kept, the result checked as a load would, written mode 0600; and each refusal.
@Suite struct ConfigEditTests {
    typealias Home = ConfigCommandTests.Home
    static let token1 = "3f2a000000000000000000000000000000000000000000000000000000009c1d"
    static let token2 = "77b0000000000000000000000000000000000000000000000000000000000a11"

    static let commented = """
        # my settings
        default-profile = "dev"   # the usual one

        # Development, token auth.
        [profiles.dev]
        auth-key = "keys/AuthKey_ABCDE12345.p8"   # from the portal
        team-id = "TEAMID1234"
        endpoint = [
          "sandbox=https://127.0.0.1:8443",   # the mock
        ]

        # Production.
        [profiles.prod-cert]
        cert = "certs/push.p12"
        env = "production"

        [devices]
        my-iphone = "\(token1)"

        """

    func text(_ home: Home) throws -> String { try String(contentsOfFile: home.configFile, encoding: .utf8) }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    /// A settings file its owner made read-only is not edited (root could, and the rename made it 0600 again).
    @Test func aReadOnlySettingsFileIsLeftAlone() throws {
        let home = try Home()
        try home.write(Self.commented, mode: 0o400)
        for edit in [
            ["config", "set", "-p", "dev", "priority", "5"], ["config", "unset", "-p", "dev", "team-id"],
            ["config", "add-device", "ipad", Self.token2],
        ] {
            let r = try home.run(edit)
            #expect(r.status == 73, "\(edit): \(r.stderr)")
            #expect(
                r.stderr
                    == "error: \(home.configFile): read-only (mode 0400), so it was left as it is; to edit it with apnsctl config, make it writable first (chmod u+w \(home.configFile))\n"
            )
            #expect(try text(home) == Self.commented)
            #expect(try mode(home.configFile) == 0o400)
        }
        chmod(home.configFile, 0o640)
        #expect(try home.run(["config", "set", "-p", "dev", "priority", "5"]).status == 0)
        #expect(try mode(home.configFile) == 0o600)
    }

    /// A top-level key unset and set again leaves the file as it was: each round added a blank line above the
    /// first table.
    @Test func unsetAndSetAgainLeavesTheFileAsItWas() throws {
        let home = try Home()
        #expect(try home.run(["config", "set", "-p", "dev", "topic", "com.example.app"]).status == 0)
        #expect(try home.run(["config", "set", "default-profile", "dev"]).status == 0)
        let first = try text(home)
        #expect(first == "default-profile = \"dev\"\n\n[profiles.dev]\ntopic = \"com.example.app\"\n", "\(first)")
        for _ in 0..<3 {
            #expect(try home.run(["config", "unset", "default-profile"]).status == 0)
            #expect(try home.run(["config", "set", "default-profile", "dev"]).status == 0)
        }
        #expect(try text(home) == first)
    }

    /// Edits made at once (a script's `&`) run in turn: none is lost to another's rename (of 20 at once, 16 were,
    /// each saying it had written its line).
    @Test func editsMadeAtOnceAreAllKept() async throws {
        try await offThePool {
            let home = try Home()
            try home.write(Self.commented)
            let names = (0..<16).map { "phone\($0)" }
            let statuses = LockedValue<[Int32]>([])
            let group = DispatchGroup()
            for (i, name) in names.enumerated() {
                group.enter()
                Thread.detachNewThread {
                    let token = String(format: "%064x", 0xab00 + i)
                    let r = try? home.run(["config", "add-device", name, token])
                    statuses.withLock { $0.append(r?.status ?? -1) }
                    group.leave()
                }
            }
            #expect(group.wait(timeout: .now() + 60) == .success)
            #expect(statuses.current.count == names.count && statuses.current.allSatisfy { $0 == 0 })
            let file = try text(home)
            #expect(names.allSatisfy { file.contains("\n\($0) = ") }, "\(file)")
            #expect(file.hasPrefix(Self.commented.prefix(40)))
        }
    }

    /// `config unset devices` is no key's line to remove: it names the command that removes a device name, and the
    /// file is left as it is.
    @Test func unsetDevicesNamesRemoveDevice() throws {
        let home = try Home()
        let original =
            "[profiles.dev]\ntopic = \"x\"\n\n[profiles.prod]\ntopic = \"y\"\n\n[profiles.dev.devices]\nmy-iphone = \"\(Self.token1)\"\n"
        try home.write(original)
        let r = try home.run(["config", "unset", "--profile", "dev", "devices"])
        #expect(r.status == 64)
        #expect(
            r.stderr
                == "error: devices is a table of device names, not a key; remove each name with apnsctl config remove-device NAME --profile dev (apnsctl config list shows them)\n"
        )
        #expect(try text(home) == original)
    }

    /// A port is for Apple's hosts only (443 or 2197; an endpoint carries its own): `config set` and `config init`
    /// wrote 8080, which every later send refused. Refused, nothing written.
    @Test func aPortAppleDoesNotListenOnIsNotWritten() throws {
        let home = try Home()
        try home.write(Self.commented)
        let r = try home.run(["config", "set", "-p", "prod-cert", "port", "8080"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.stderr
                == "error: port 8080: Apple's push hosts listen on 443 and 2197 only; for another server set endpoint https://host:8080 (it carries its own port); nothing was written\n"
        )
        #expect(try text(home) == Self.commented)
        #expect(try home.run(["config", "set", "-p", "prod-cert", "port", "2197"]).status == 0)
        // A new profile a letter away from one the file has is likely a typo: written, and said.
        let typo = try home.run(["config", "set", "-p", "prod-crt", "topic", "com.example.app"])
        #expect(typo.status == 0, "\(typo.stderr)")
        #expect(
            typo.stderr.contains("warning: profile prod-crt is new in \(home.configFile); did you mean \"prod-cert\"?"),
            "\(typo.stderr)")
        let fresh = try home.run(["config", "set", "-p", "staging", "topic", "com.example.app"])
        #expect(!fresh.stderr.contains("warning"), "\(fresh.stderr)")
        // A numbered or another region's profile is a name of its own, not a slip.
        for other in ["prod-cert2", "dev2", "stagigng"] {
            let r = try home.run(["config", "set", "-p", other, "topic", "com.example.app"])
            #expect(r.stderr.contains("did you mean") == (other == "stagigng"), "\(other): \(r.stderr)")
        }
        #expect(try text(home).contains("port = 2197"))
        let other = home.root.file("other.toml")
        let initial = try home.run(["config", "init", "--config", other, "--port", "8080"])
        #expect(initial.status == 64, "\(initial.stderr)")
        #expect(
            initial.stderr.contains("port 8080: Apple's push hosts listen on 443 and 2197 only"), "\(initial.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other))
    }

    /// A credential of the other kind set into a profile that has one: written (the file loads), with a warning
    /// that send -p refuses such a profile and the command that removes the earlier one.
    @Test func settingACertificateBesideAnAuthKeyWarns() throws {
        let home = try Home()
        try home.write(Self.commented)
        let r = try home.run(["config", "set", "-p", "dev", "cert", "certs/push.p12"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "warning: profile dev now holds cert beside auth-key (token auth), and send -p dev refuses that (certificate or token auth, not both); if the earlier ones are not meant: apnsctl config unset -p dev auth-key\n"
            ), "\(r.stderr)")
        let other = try home.run(["config", "set", "-p", "prod-cert", "team-id", "TEAMID1234"])
        #expect(!other.stderr.contains("now holds"), "\(other.stderr)")
        // Both keys of the other auth are named, each with its command.
        let both = try home.run(["config", "set", "-p", "prod-cert", "key-id", "ABCDE12345"])
        #expect(
            both.stderr.contains("profile prod-cert now holds key-id beside cert (certificate auth)"), "\(both.stderr)")
        #expect(!both.stderr.contains("has none yet"), "\(both.stderr)")
        // A key id into a profile with no credential: send would refuse it, said now (it was written silently).
        let alone = try home.run(["config", "set", "-p", "ci", "key-id", "ABCDE12345"])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(
            alone.errorLines.contains(
                "warning: key-id names a .p8 key, and profile ci has none yet: send refuses it until it does (apnsctl config set --profile ci auth-key FILE)"
            ), "\(alone.stderr)")
        let keyed = try home.run(["config", "set", "-p", "dev", "key-id", "ABCDE12345"])
        #expect(!keyed.stderr.contains("has none yet"), "\(keyed.stderr)")
        _ = try home.run(["config", "set", "-p", "dev", "key", "certs/push.key"])
        let auth = try home.run(["config", "set", "-p", "dev", "auth-key", "keys/other.p8"])
        #expect(
            auth.stderr.contains(
                "if the earlier ones are not meant: apnsctl config unset -p dev cert; apnsctl config unset -p dev key"),
            "\(auth.stderr)")
    }

    /// A key no setting has makes every command refuse the file, naming the line; `config unset` removes it
    /// (each other byte kept), says what still stops the file loading, and an unknown key the file does not have
    /// is still refused.
    /// What `config set` echoes hides a URL's password as every message does; a path with a line break is one
    /// warning line, escaped.
    /// A proxy password is a secret, which never comes from the file (CLI.md): `config set` writes none, and a file
    /// holding one is refused where it is read, naming the line, the password never shown.
    @Test func theEchoOfAValueHidesAPasswordAndEscapesControls() throws {
        let home = try Home()
        let proxy = try home.run(["config", "set", "-p", "dev", "proxy", "http://u:s3cret@127.0.0.1:3128"])
        #expect(proxy.status == 64, "\(proxy.stderr)")
        #expect(
            proxy.stderr
                == "error: proxy http://u:***@127.0.0.1:3128: holds the proxy's password, and secrets never come from the settings file; put the URL in APNSCTL_PROXY or https_proxy instead (a CI secret store can fill them); nothing was written\n"
        )
        #expect(!proxy.stdout.contains("s3cret") && !FileManager.default.fileExists(atPath: home.configFile))
        let user = try home.run(["config", "set", "-p", "dev", "proxy", "http://u@127.0.0.1:3128"])
        #expect(user.stdout == "proxy = \"http://u@127.0.0.1:3128\" in [profiles.dev], \(home.configFile):2\n")
        try home.write("[profiles.dev]\nproxy = \"http://u:s3cret@127.0.0.1:3128\"\n")
        let read = try home.run(["config", "show", "-p", "dev"])
        #expect(read.status == 64, "\(read.stdout)")
        #expect(
            read.stderr.hasPrefix(
                "error: \(home.configFile):2: proxy http://u:***@127.0.0.1:3128: holds the proxy's password"),
            "\(read.stderr)")
        #expect(!read.stderr.contains("s3cret"))
        let path = try home.run(["config", "set", "-p", "dev", "ca-file", "a\nb.pem"])
        #expect(path.status == 0, "\(path.stderr)")
        #expect(path.stderr.split(separator: "\n").count == 1, "\(path.stderr)")
        #expect(path.stderr.hasPrefix("warning: ca-file: ") && path.stderr.contains("a\\u{A}b.pem does not exist"))
        // A bidirectional override is written escaped, as a control character is: `cat` of the file shows it as it
        // is, not a reordered line; and it reads back as the same text.
        let bidi = try home.run(["config", "set", "-p", "dev", "ca-file", "a\u{202E}b.pem"])
        #expect(bidi.status == 0, "\(bidi.stderr)")
        let device = try home.run(["config", "add-device", "ph\u{2066}one", Self.token2])
        #expect(device.status == 0, "\(device.stderr)")
        let file = try text(home)
        #expect(!file.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{2066}" }, "\(file)")
        #expect(file.contains("ca-file = \"a\\u202Eb.pem\"") && file.contains("\"ph\\u2066one\" = "), "\(file)")
        #expect(try PythonTOML.accepts(file), "\(file)")
    }

    /// A value starting with - and a digit reads as a flag (and `-1h` as -h, help): the key's setting says why it
    /// refuses the value, or the advice is `--` before it; nothing is written and help is not shown.
    @Test func aDashValueForConfigSetIsAdvisedNotTakenForHelp() throws {
        let home = try Home()
        for (value, first) in [
            ("-1h", "error: expiration -1h: a duration counts forward from now and cannot be negative"),
            ("-30m", "error: expiration -30m: a duration counts forward from now and cannot be negative"),
        ] {
            let r = try home.run(["config", "set", "-p", "dev", "expiration", value])
            #expect(r.status == 64, "\(value): \(r.stdout)\(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(r.errorLines.first?.hasPrefix(first) == true, "\(r.stderr)")
            // The value was read and refused: no usage lines for a command line that needs no mending.
            #expect(r.errorLines.count == 1, "\(r.stderr)")
        }
        let topic = try home.run(["config", "set", "-p", "dev", "topic", "-5"])
        #expect(topic.status == 64)
        #expect(
            topic.errorLines.first
                == "error: -5: a value starting with - reads as a flag; write -- before it, after every flag (-- -5)"
        )
        #expect(!FileManager.default.fileExists(atPath: home.configFile))
        // The advice works as given.
        #expect(try home.run(["config", "set", "-p", "dev", "topic", "--", "-5"]).status == 0)
        // Help asked for is still help.
        #expect(try home.run(["config", "set", "-p", "dev", "expiration", "-1h", "--help"]).status == 0)
    }

    /// A profile named as a built-in one, first written by an edit, is said to replace it: `-p mock` then reads
    /// only the file's table.
    @Test func writingAProfileNamedMockSaysItReplacesTheBuiltIn() throws {
        let home = try Home()
        let first = try home.run(["config", "set", "-p", "mock", "topic", "com.example.demo"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stderr
                == "warning: [profiles.mock] in \(home.configFile) now replaces the built-in mock profile (apnsctl mock's credentials): -p mock reads only what this file gives it; to keep the built-in, remove the table and use another profile name\n"
        )
        // Once there, it is the user's own: no warning again, and its devices table is its own too.
        let again = try home.run(["config", "add-device", "-p", "mock", "phone", Self.token1])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        let other = try home.run(["config", "set", "-p", "mock-token", "topic", "com.example.demo"])
        #expect(other.stderr.contains("replaces the built-in mock-token profile"), "\(other.stderr)")
        // Its last key unset, the empty table still replaces the built-in: said. One with devices left says nothing.
        let emptied = try home.run(["config", "unset", "-p", "mock-token", "topic"])
        #expect(emptied.status == 0, "\(emptied.stderr)")
        #expect(
            emptied.stderr
                == "warning: [profiles.mock-token] in \(home.configFile) is empty now, and still replaces the built-in mock-token profile (apnsctl mock's credentials): delete its header line to use the built-in again\n"
        )
        let kept = try home.run(["config", "unset", "-p", "mock", "topic"])
        #expect(kept.status == 0 && kept.stderr.isEmpty, "\(kept.stderr)")
    }

    /// A device added to a built-in profile the file does not define would make a table holding only devices,
    /// which replaces the built-in: `-p mock` lost the mock's credentials ("no credential"), and removing the
    /// device left the empty table behind. It is refused, pointing at [devices], which `-p mock` reads.
    @Test func aDeviceForTheBuiltInMockGoesInDevices() throws {
        let home = try Home()
        for profile in ["mock", "mock-token"] {
            let refused = try home.run(["config", "add-device", "-p", profile, "phone", Self.token1])
            #expect(refused.status == 64)
            #expect(
                refused.stderr
                    == "error: --profile \(profile) is the built-in profile of apnsctl mock: a [profiles.\(profile).devices] table would replace it, and -p \(profile) would lose the mock's credentials. Name the device in [devices], which -p \(profile) reads too: apnsctl config add-device phone \(Self.token1)\n"
            )
            #expect(!FileManager.default.fileExists(atPath: home.configFile))
        }
        // The advice works as given, and the built-in mock profile stays (config list shows it).
        #expect(try home.run(["config", "add-device", "phone", Self.token1]).status == 0)
        let list = try home.run(["config", "list"])
        #expect(list.stdout.contains("mock") && list.stdout.contains("phone"), "\(list.stdout)")
    }

    @Test func unsetMendsAFileWithAnUnknownKey() throws {
        let home = try Home()
        let broken = Self.commented.replacingOccurrences(
            of: "team-id = \"TEAMID1234\"\n", with: "team-id = \"TEAMID1234\"\ntopik = \"com.example.app\"\nzap = 1\n")
        try home.write(broken)
        #expect(try home.run(["config", "list"]).status == 64)
        let first = try home.run(["config", "unset", "-p", "dev", "topik"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "removed topik from [profiles.dev], \(home.configFile)\n")
        #expect(
            first.stderr
                == "warning: the file still does not load: \(home.configFile):8: unknown key \"zap\" in [profiles.dev]; a profile's keys are the long flags of send, channel, doctor and jwt, as apnsctl send --help lists them (apnsctl config unset -p dev zap removes the line)\n"
        )
        #expect(
            try home.run(["config", "unset", "-p", "dev", "topik"]).stderr.hasPrefix(#"error: unknown key "topik""#))
        // Named under another profile: where the file has it, and the command that removes it.
        let elsewhere = try home.run(["config", "unset", "-p", "prod-cert", "zap"])
        #expect(elsewhere.status == 64)
        #expect(
            elsewhere.errorLines
                == [
                    "error: zap is not in [profiles.prod-cert] of \(home.configFile); the file has it in [profiles.dev] (apnsctl config unset -p dev zap removes the line)"
                ], "\(elsewhere.stderr)")
        let second = try home.run(["config", "unset", "-p", "dev", "zap"])
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second.stderr)")
        #expect(try text(home) == Self.commented)
        #expect(try home.run(["config", "list"]).status == 0)
    }

    /// Every line a file is refused for that removing mends gets, in the error every command prints, the command
    /// that removes it; run as printed, it mends the file (the default file, one named by --config, one named by
    /// APNSCTL_CONFIG), without -p too, at the top level and in [devices].
    @Test(arguments: [
        ("default-profile = \"dev\"\n[profiles.dev]\ntopik = \"x\"\n", "config unset -p dev topik"),
        ("default-profle = \"dev\"\n[profiles.dev]\n", "config unset default-profle"),
        ("topic = \"x\"\n[profiles.dev]\n", "config unset topic"),
        ("[profiles.dev]\npassphrase = \"hunter2\"\n", "config unset -p dev passphrase"),
        ("[profiles.dev]\ndevice = \"x\"\n", "config unset -p dev device"),
        ("[devices]\nabcdef = \"\(token1)\"\n", "config remove-device abcdef"),
        ("[profiles.dev.devices]\ncafe = \"\(token1)\"\n", "config remove-device -p dev cafe"),
        ("[profiles.-dev]\n-x = 1\n", "config unset --profile=-dev -- -x"),
    ])
    func theErrorNamesTheCommandThatMendsTheFile(_ broken: String, _ command: String) throws {
        for origin in ["default", "flag", "variable"] {
            let home = try Home()
            let named = home.root.path + "/named.toml"
            var extra: [String: String] = [:]
            var flag: [String] = []
            switch origin {
            case "flag": flag = ["--config", named]
            case "variable": extra = ["APNSCTL_CONFIG": named]
            default: break
            }
            if origin == "default" {
                try home.write(broken)
            } else {
                _ = try home.root.write("named.toml", broken, mode: 0o600)
            }
            let refused = try home.run(["config", "list"] + flag, extra)
            #expect(refused.status == 64)
            var words = command.split(separator: " ").map(String.init)
            words.insert(contentsOf: flag, at: 2)
            let expected = "apnsctl " + words.joined(separator: " ")
            let removes = command.hasPrefix("config remove-device") ? "removes it" : "removes the line"
            #expect(refused.stderr.hasSuffix(" (\(expected) \(removes))\n"), "\(origin): \(refused.stderr)")
            let mend = try home.run(Array(expected.split(separator: " ").dropFirst().map(String.init)), extra)
            #expect(mend.status == 0 && mend.stderr.isEmpty, "\(origin) \(expected): \(mend.stderr)")
            #expect(try home.run(["config", "list"] + flag, extra).status == 0, "\(origin) \(expected)")
        }
    }

    /// No command is offered where unset would not act (a dotted key is a table) or where the printed name is
    /// not the name (a key holding ESC is printed escaped).
    @Test func noMendingCommandWhereItWouldNotWork() throws {
        for broken in ["[profiles.dev]\na.b = \"x\"\n", "[profiles.dev]\n\"a\\u001bb\" = 1\n"] {
            let home = try Home()
            try home.write(broken)
            let r = try home.run(["config", "list"])
            #expect(r.status == 64)
            #expect(!r.stderr.contains("apnsctl config unset"), "\(r.stderr)")
        }
    }

    /// A key no setting has and the file does not hold is said to be unknown, before any question of which
    /// profile (a file with no default-profile asked that first).
    @Test func anUnknownKeyIsSaidBeforeAskingWhichProfile() throws {
        let home = try Home()
        try home.write("[profiles.a]\n[profiles.b]\n")
        let r = try home.run(["config", "unset", "topik"])
        #expect(r.status == 64)
        #expect(r.errorLines == [#"error: unknown key "topik"; did you mean "topic"?"#], "\(r.stderr)")
    }

    /// A file named to be mended must be there: a misspelt --config is 66, not "nothing to remove".
    @Test func mendingAMissingNamedFileIs66() throws {
        let home = try Home()
        for command in [["unset", "-p", "dev", "topic"], ["remove-device", "phone"]] {
            let r = try home.run(["config"] + command + ["--config", home.root.path + "/nope.toml"])
            #expect(r.status == 66, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("nope.toml: no such settings file"), "\(r.stderr)")
        }
    }

    /// A profile that exists only through its own device table (add-device --profile writes just that) takes a
    /// key: its header is written before the device table's, and both read back.
    @Test func aKeyIsSetInAProfileKnownOnlyByItsDevices() throws {
        let home = try Home()
        #expect(try home.run(["config", "add-device", "-p", "dev", "phone", Self.token1]).status == 0)
        let set = try home.run(["config", "set", "-p", "dev", "topic", "com.example.demo"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "topic = \"com.example.demo\" in [profiles.dev], \(home.configFile):2\n")
        #expect(
            try String(contentsOfFile: home.configFile, encoding: .utf8)
                == "[profiles.dev]\ntopic = \"com.example.demo\"\n\n[profiles.dev.devices]\nphone = \"\(Self.token1)\"\n"
        )
        let shown = try home.run(["config", "show", "dev"])
        #expect(shown.lines.contains { $0.hasPrefix("topic") && $0.contains("com.example.demo") }, "\(shown.stdout)")
        #expect(try home.run(["config", "list"]).lines.contains { $0.hasPrefix("device phone  \(Self.token1)") })
    }

    /// add-device with a name the file has replaces its token, and says what it named before.
    @Test func addingANameAgainSaysWhatItNamedBefore() throws {
        let home = try Home()
        try home.write(Self.commented)
        let again = try home.run(["config", "add-device", "my-iphone", Self.token2])
        #expect(again.status == 0)
        #expect(again.stderr == "warning: my-iphone named \(Self.token1) until now; it names the new token\n")
        let same = try home.run(["config", "add-device", "my-iphone", Self.token2])
        #expect(same.status == 0 && same.stderr.isEmpty, "\(same.stderr)")
    }

    @Test func eachEditChangesOnlyItsOwnLines() throws {
        let home = try Home()
        try home.write(Self.commented, mode: 0o644 & ~0o022)
        let steps: [([String], String)] = [
            (["set", "--profile", "dev", "topic", "com.example.app"], "topic = \"com.example.app\" in [profiles.dev]"),
            (["set", "--profile", "dev", "auth-key", "keys/AuthKey_FGHIJ67890.p8"], "auth-key = "),
            (["set", "team-id", "TEAMID5678"], "team-id = \"TEAMID5678\" in [profiles.dev]"),
            (["set", "--profile", "dev", "endpoint", "https://127.0.0.1:9443"], "endpoint = "),
            (["set", "--profile", "dev", "priority", "5"], "priority = 5 in"),
            (["unset", "--profile", "prod-cert", "env"], "removed env from [profiles.prod-cert]"),
            (
                ["add-device", "qa-ipad", "<77b00000 00000000 00000000 00000000 00000000 00000000 00000000 00000a11>"],
                "qa-ipad = "
            ),
            (["add-device", "--profile", "prod-cert", "ops", Self.token1], "ops = "),
            (["set", "default-profile", "prod-cert"], "default-profile = \"prod-cert\""),
            (["remove-device", "my-iphone"], "removed my-iphone from [devices]"),
        ]
        for (arguments, expected) in steps {
            let r = try home.run(["config"] + arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            // A path is written as given, with a warning when it names no file.
            let warning =
                arguments.contains("auth-key")
                ? "warning: auth-key: \(home.root.path)/xdg/apnsctl/keys/AuthKey_FGHIJ67890.p8 does not exist; written as given (a relative path is relative to \(home.root.path)/xdg/apnsctl)\n"
                : ""
            #expect(r.stderr == warning, "\(arguments): \(r.stderr)")
            #expect(r.stdout.hasPrefix(expected), "\(arguments): \(r.stdout)")
            let now = try text(home)
            #expect(try PythonTOML.accepts(now), "\(arguments): \(now)")
            #expect(try home.run(["config", "list"]).status == 0)
        }
        #expect(
            try text(home) == """
                # my settings
                default-profile = "prod-cert"   # the usual one

                # Development, token auth.
                [profiles.dev]
                auth-key = "keys/AuthKey_FGHIJ67890.p8"   # from the portal
                team-id = "TEAMID5678"
                endpoint = "https://127.0.0.1:9443"
                topic = "com.example.app"
                priority = 5

                # Production.
                [profiles.prod-cert]
                cert = "certs/push.p12"

                [profiles.prod-cert.devices]
                ops = "\(Self.token1)"

                [devices]
                qa-ipad = "\(Self.token2)"

                """)
        #expect(try mode(home.configFile) == 0o600)
        let shown = try home.run(["config", "show", "dev"])
        #expect(shown.stdout.contains("priority"), "\(shown.stdout)")
    }

    /// A relative path a shell completed from the working directory is still written as given, and the
    /// warning names the file it was probably meant to be, with the full path to give instead.
    @Test func aRelativePathOfAFileHereGetsItsFullPathInTheWarning() throws {
        let home = try Home()
        let here = try TemporaryDirectory(prefix: "cwd")
        let key = try here.write("AuthKey_FGHIJ67890.p8", "not read here")
        for arguments in [
            ["config", "set", "--profile", "dev", "auth-key", "./AuthKey_FGHIJ67890.p8"],
            ["config", "init", "--config", home.root.file("new.toml"), "--auth-key", "AuthKey_FGHIJ67890.p8"],
        ] {
            let r = try home.run(arguments, directory: here.path)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(
                r.stderr.hasSuffix(
                    "does not exist; written as given (a relative path is relative to \(arguments[1] == "set" ? home.root.path + "/xdg/apnsctl" : home.root.path)); \(key) is there: to use it, \(arguments[1] == "set" ? "give that full path" : "apnsctl config set --config \(home.root.file("new.toml")) --profile dev auth-key \(key)")\n"
                ), "\(arguments): \(r.stderr)")
        }
        // A path with a space stays one word of the command offered.
        let spaced = try TemporaryDirectory(prefix: "cwd with space")
        let spacedKey = try spaced.write("AuthKey_FGHIJ67890.p8", "not read here")
        let config = home.root.file("new settings.toml")
        let r = try home.run(
            ["config", "init", "--config", config, "--auth-key", "AuthKey_FGHIJ67890.p8"], directory: spaced.path)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.hasSuffix("apnsctl config set --config '\(config)' --profile dev auth-key '\(spacedKey)'\n"),
            "\(r.stderr)")
        // A folder of that name is not offered as the file.
        try FileManager.default.createDirectory(atPath: here.file("certs"), withIntermediateDirectories: true)
        let folder = try home.run(["config", "set", "--profile", "dev", "ca-file", "certs"], directory: here.path)
        #expect(folder.status == 0 && !folder.stderr.contains("is there"), "\(folder.stderr)")
    }

    @Test func windowsLineEndingsAndAFileWithoutFinalNewlineStayAsTheyAre() throws {
        let home = try Home()
        try home.write("# crlf\r\n[profiles.dev]\r\ntopic = \"a\" # old\r\n\r\n[devices]\r\nphone = \"\(Self.token1)\"")
        #expect(try home.run(["config", "set", "-p", "dev", "topic", "b"]).status == 0)
        #expect(try home.run(["config", "set", "-p", "dev", "env", "sandbox"]).status == 0)
        #expect(
            try text(home)
                == "# crlf\r\n[profiles.dev]\r\ntopic = \"b\" # old\r\nenv = \"sandbox\"\r\n\r\n[devices]\r\nphone = \"\(Self.token1)\""
        )
    }

    @Test func aNewFileIsMadeByTheFirstEdit() throws {
        let home = try Home()
        let config = home.root.path + "/fresh/apnsctl.toml"
        let r = try home.run(["config", "set", "--config", config, "-p", "ci", "topic", "com.example.app"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "[profiles.ci]\ntopic = \"com.example.app\"\n")
        #expect(try mode(config) == 0o600)
        #expect(try mode(home.root.path + "/fresh") == 0o700)
    }

    /// A settings file kept as a link (a dotfiles repository's) is read through the link, and edited where it
    /// leads: the link stays a link (every edit refused it, advising flags config does not have).
    @Test func aLinkedSettingsFileIsEditedWhereItLeads() throws {
        let home = try Home()
        let repository = home.root.path + "/dotfiles"
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        chmod(repository, 0o700)
        let real = try home.root.write(
            "dotfiles/config.toml", "[profiles.dev]\ntopic = \"com.example.app\"\n", mode: 0o600)
        try FileManager.default.createSymbolicLink(atPath: home.configFile, withDestinationPath: real)
        for edit in [
            ["config", "set", "-p", "dev", "env", "production"], ["config", "unset", "-p", "dev", "topic"],
            ["config", "add-device", "my-iphone", Self.token1],
        ] {
            let r = try home.run(edit)
            #expect(r.status == 0, "\(edit): \(r.stderr)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: home.configFile) == real)
        #expect(
            try String(contentsOfFile: real, encoding: .utf8)
                == "[profiles.dev]\nenv = \"production\"\n\n[devices]\nmy-iphone = \"\(Self.token1)\"\n")
        // A link that leads nowhere is refused, with no flag advised.
        try FileManager.default.removeItem(atPath: real)
        let dangling = try home.run(["config", "set", "-p", "dev", "env", "production"])
        #expect(dangling.status == 73, "\(dangling.stderr)")
        #expect(
            dangling.stderr
                == "error: \(home.configFile): a link whose file is missing; restore the file it names, or remove the link\n",
            "\(dangling.stderr)")
    }

    /// A new settings file in a folder others may write is one no command reads: init wrote one there ("wrote",
    /// then every later command refused it); now it writes nothing and says why (64), as set already did.
    @Test func aNewFileNoCommandWouldReadIsNotLeft() throws {
        let home = try Home()
        let open = home.root.path + "/shared"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        chmod(open, 0o777)
        for edit in [
            ["config", "init", "--config", open + "/c.toml", "--topic", "com.example.app"],
            ["config", "set", "--config", open + "/d.toml", "-p", "dev", "topic", "com.example.app"],
        ] {
            let r = try home.run(edit)
            #expect(r.status == 64, "\(edit): \(r.stdout)\(r.stderr)")
            #expect(r.stderr.contains("writable by"), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: open).isEmpty)
    }

    /// A short token is written as -d takes it, with -d's warning (it was written silently, and only a later
    /// send asked whether the copy was cut short).
    @Test func aShortTokenIsWrittenWithTheWarningDGives() throws {
        let home = try Home()
        let r = try home.run(["config", "add-device", "my-iphone", "3f2a"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr == "warning: my-iphone: only 4 hex digits (tokens are usually 64); was the copy cut short?\n",
            "\(r.stderr)")
        #expect(try text(home) == "[devices]\nmy-iphone = \"3f2a\"\n")
    }

    /// `history = false` is how CLI.md spells the history's switch in a profile, and the file reads it: `config
    /// set` and `unset` take that key too (they said "unknown key"), writing it as typed.
    @Test func theHistorySwitchIsSetAndUnsetAsTheFileSpellsIt() throws {
        let home = try Home()
        let set = try home.run(["config", "set", "-p", "dev", "history", "false"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try text(home) == "[profiles.dev]\nhistory = false\n")
        let shown = try home.run(["config", "show", "dev"])
        #expect(
            shown.stdout.split(separator: "\n").contains { $0.hasPrefix("no-history") && $0.contains("true") },
            "\(shown.stdout)")
        let bad = try home.run(["config", "set", "-p", "dev", "history", "maybe"])
        #expect(bad.status == 64, "\(bad.stderr)")
        // Named as typed, not as the opposite key it is checked as.
        #expect(bad.stderr.hasPrefix("error: history maybe: not a boolean"), "\(bad.stderr)")
        // A value of the wrong type in the file is such, not an unknown key whose removal turns the history on.
        for value in ["\"no\"", "0"] {
            try home.write("[profiles.dev]\nhistory = \(value)\n")
            let wrong = try home.run(["config", "list"])
            #expect(wrong.status == 64)
            #expect(wrong.stderr.contains("history = \(value): expected true or false, found"), "\(wrong.stderr)")
            #expect(!wrong.stderr.contains("unknown key") && !wrong.stderr.contains("unset"), "\(wrong.stderr)")
        }
        try home.write("[profiles.dev]\nhistory = false\n")
        // One switch, two spellings: setting one replaces the other, and unsetting either removes the one written.
        let other = try home.run(["config", "set", "-p", "dev", "no-history", "false"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try text(home) == "[profiles.dev]\nno-history = false\n")
        #expect(try home.run(["config", "unset", "-p", "dev", "history"]).status == 0)
        #expect(try text(home) == "[profiles.dev]\n")
        #expect(try home.run(["config", "set", "-p", "dev", "history", "false"]).status == 0)
        // Both in a file written by hand would let the first win unseen: refused, naming the lines to fix.
        try home.write("[profiles.dev]\nhistory = false\nno-history = false\n")
        let both = try home.run(["config", "list"])
        #expect(both.status == 64 && both.stderr.contains("delete one of the two lines"), "\(both.stderr)")
        try home.write("[profiles.dev]\nhistory = false\n")
        let unset = try home.run(["config", "unset", "-p", "dev", "history"])
        #expect(unset.status == 0, "\(unset.stderr)")
        #expect(try text(home) == "[profiles.dev]\n")
    }

    /// `config init --passphrase` is told to give `--passphrase-file` on the same line: the `config set` the other
    /// advice names would fail here, as the new file has no default profile yet.
    @Test func initWithAPassphraseIsToldTheFileFlag() throws {
        let home = try Home()
        let r = try home.run(["config", "init", "-p", "ci", "--passphrase", "x"])
        #expect(r.status == 64)
        #expect(
            r.stderr
                == "error: --passphrase: secrets never go in the settings file; give --passphrase-file FILE on this line instead, or use APNSCTL_PASSPHRASE\n"
        )
        #expect(!FileManager.default.fileExists(atPath: home.configFile))
    }

    /// `config init -d TOKEN`: a device is no setting, and its own command is named (not "--name value").
    @Test func initWithADeviceIsToldAddDevice() throws {
        let home = try Home()
        for flag in ["-d", "--device", "--devices"] {
            let r = try home.run(["config", "init", "--topic", "com.example.app", flag, Self.token1])
            #expect(r.status == 64)
            #expect(
                r.stderr
                    == "error: \(flag): config init writes settings, and a device is not one; after it, apnsctl config add-device NAME TOKEN names a device for send -d NAME\n"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: home.configFile))
    }

    /// A new profile's name with a control character (`-p $'dev\n'` from a script) is refused as a device name
    /// is: it would print as `dev\u{A}` everywhere. A name with blanks inside is written.
    @Test func aNewProfileNameWithAControlCharacterIsRefused() throws {
        let home = try Home()
        let r = try home.run(["config", "set", "-p", "n\nl", "topic", "com.example.app"])
        #expect(r.status == 64)
        #expect(
            r.stderr
                == "error: profile name \"n\\u{A}l\" has a control character, as a stray line break from a script leaves; name it n-l\n",
            "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.configFile))
        #expect(try home.run(["config", "set", "-p", "my app", "topic", "com.example.app"]).status == 0)
    }

    /// Every refusal: exit 64 (or 73 for init on a file), one error line saying what to do, the file untouched.
    @Test func everyRefusalLeavesTheFileUntouched() throws {
        let home = try Home()
        try home.write(Self.commented)
        let cases: [([String], Int32, String)] = [
            (["set", "bundle-id", "com.example.app"], 64, #"error: unknown key "bundle-id"; did you mean "topic"?"#),
            (["set", "environment", "production"], 64, #"error: unknown key "environment"; did you mean "env"?"#),
            (["set", "sandbox", "true"], 64, #"error: unknown key "sandbox"; did you mean env = "sandbox"?"#),
            (["set", "topik", "x"], 64, #"error: unknown key "topik"; did you mean "topic"?"#),
            (
                ["set", "passphrase", "hunter2"], 64,
                "error: passphrase: secrets never go in the settings file; use passphrase-file (apnsctl config set passphrase-file FILE), --passphrase-file FILE, or APNSCTL_PASSPHRASE"
            ),
            // The advice's command keeps the profile given.
            (
                ["set", "-p", "ci", "passphrase", "hunter2"], 64,
                "error: passphrase: secrets never go in the settings file; use passphrase-file (apnsctl config set --profile ci passphrase-file FILE), --passphrase-file FILE, or APNSCTL_PASSPHRASE"
            ),
            (
                ["set", "alert", "hi"], 64,
                #"error: "alert" is an input of one run, not a setting; give it on the command line"#
            ),
            (
                ["set", "devices", "x"], 64,
                "error: devices: devices is the profile's table of device names; use apnsctl config add-device NAME TOKEN"
            ),
            (["set", "priority", "7"], 64, "error: priority 7: must be 10, 5 or 1"),
            // Ids too: a send would refuse them, so the file never holds them.
            (["set", "team-id", "abc"], 64, "error: team-id abc: not a team id; it must be 10 characters A-Z and 0-9"),
            (
                ["set", "key-id", "abcde12345"], 64,
                "error: key-id abcde12345: not a key id: the portal shows it in capitals"
            ),
            (
                ["set", "env", "staging"], 64,
                "error: env staging: unknown environment; use sandbox (development), production or auto"
            ),
            (["set", "topic", "com.example.app "], 64, "error: topic \"com.example.app \": ends with a space"),
            (["set", "topic"], 64, "error: topic: no value; give one (apnsctl config set topic VALUE)"),
            (["set", "topic", "a", "b"], 64, "error: topic takes one value, 2 given; quote a value holding spaces"),
            (
                ["set", "default-profile", "dve"], 64,
                #"error: default-profile "dve": no such profile; did you mean "dev"? the profiles are dev, prod-cert, mock, mock-token (create one with apnsctl config set --profile dve KEY VALUE)"#
            ),
            (
                ["set", "-p", "dev", "default-profile", "dev"], 64,
                "error: default-profile is a top-level key, not a profile's; leave out --profile"
            ),
            (
                ["add-device", "cafe", Self.token2], 64,
                #"error: device name "cafe" is made only of hex digits, so -d cafe would read as a token; give it a name with another letter (my-cafe)"#
            ),
            (
                ["add-device", String(repeating: "aaaaaaaa ", count: 7) + "aaaaaaaa", Self.token2], 64,
                #"error: device name "aaaaaaaa aaaaaaaa aaaaaaaa aaaaaaaa aaaaaaaa aaaaaaaa aaaaaaaa aaaaaaaa" reads as a device token, so -d 'aaaaaaaa aaaaaaaa aaaaaaaa aaaaaaaa aaaaaaaa aaaaaaaa aaaaaaaa aaaaaaaa' would read as a token; give it another name"#
            ),
            (["add-device", "phone", "xyz"], 64, #"error: device token for "phone": "#),
            (["remove-device", "my-iphon"], 64, #"error: "my-iphon": no such device name in [devices] of "#),
            (["unset", "bundle-id"], 64, #"error: unknown key "bundle-id"; did you mean "topic"?"#),
            // Near the passphrase, which the file refuses: the file that holds one, which it takes.
            (
                ["set", "-p", "dev", "pass-phrase", "x"], 64,
                #"error: unknown key "pass-phrase"; did you mean "passphrase-file"?"#
            ),
            (
                ["set", "-p", "dev", "passphrse", "x"], 64,
                #"error: unknown key "passphrse"; did you mean "passphrase-file"?"#
            ),
            (
                ["set", "-p", "dev", "password", "x"], 64,
                #"error: unknown key "password"; did you mean "passphrase-file"?"#
            ),
            (["init"], 73, "error: \(home.configFile): a settings file is already there, and init leaves it untouched"),
        ]
        for (arguments, status, message) in cases {
            let r = try home.run(["config"] + arguments)
            #expect(r.status == status, "\(arguments): \(r.stderr)")
            #expect(r.errorLines.count == 1 && r.stderr.hasPrefix(message), "\(arguments): \(r.stderr)")
            #expect(r.stdout.isEmpty)
            let now = try text(home)
            #expect(now == Self.commented, "\(arguments) changed the file")
        }
        // A profile written as dotted keys or an inline table (TOML reads both) is not edited in place: said,
        // naming the table, and the file is left as it is.
        for written in ["profiles.dev.topic = \"a\"\n", "[profiles]\ndev = { topic = \"a\" }\n"] {
            let dotted = try Home()
            try dotted.write(written)
            for edit in [["set", "-p", "dev", "env", "sandbox"], ["unset", "-p", "dev", "topic"]] {
                let r = try dotted.run(["config"] + edit)
                #expect(r.status == 64, "\(edit): \(r.stderr)")
                #expect(
                    r.stderr
                        == "error: \(dotted.configFile): [profiles.dev] is written as dotted keys or an inline table, which config edits cannot change in place; write it as a [profiles.dev] table of its own (one key per line), or edit the file by hand\n",
                    "\(r.stderr)")
                #expect(try String(contentsOfFile: dotted.configFile, encoding: .utf8) == written)
            }
        }
        // A name in another table of the file: the command that removes it there.
        let there = try home.run(["config", "remove-device", "-p", "dev", "my-iphone"])
        #expect(there.status == 64)
        #expect(
            there.stderr.hasSuffix(
                "; it is in [devices]: apnsctl config remove-device my-iphone\n"), "\(there.stderr)")
        #expect(try text(home) == Self.commented)
        // No default-profile and no --profile: which profile is asked, not guessed.
        let other = try Home()
        try other.write("[profiles.a]\n[profiles.b]\n")
        let r = try other.run(["config", "set", "topic", "x"])
        #expect(r.status == 64)
        #expect(
            r.stderr
                == "error: config set topic: which profile? pass --profile NAME (\(other.configFile) has no default-profile; its profiles: a, b)\n"
        )
        // No file at all: said as such, not as a file without a default-profile.
        let none = try Home()
        let missing = try none.run(["config", "set", "topic", "x"])
        #expect(missing.status == 64)
        #expect(
            missing.stderr
                == "error: config set topic: which profile? pass --profile NAME (\(none.configFile) does not exist yet)\n",
            "\(missing.stderr)")
    }

    @Test func initWritesACommentedFileWithAFirstProfile() throws {
        let home = try Home()
        try FileManager.default.removeItem(atPath: home.root.path + "/xdg/apnsctl")
        let r = try home.run([
            "config", "init", "--team-id", "TEAMID1234", "--topic", "com.example.app", "--env", "sandbox", "--insecure",
            "--endpoint", "sandbox=https://127.0.0.1:8443", "--endpoint=production=https://127.0.0.1:8444",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout
                == "wrote \(home.configFile) with profile dev (the default-profile); apnsctl config list shows it\n")
        let written = try text(home)
        #expect(written.hasPrefix("# apnsctl settings:"))
        #expect(
            written.contains(
                """
                default-profile = "dev"

                [profiles.dev]
                team-id = "TEAMID1234"
                topic = "com.example.app"
                env = "sandbox"
                insecure = true
                endpoint = ["sandbox=https://127.0.0.1:8443", "production=https://127.0.0.1:8444"]

                """), "\(written)")
        #expect(try PythonTOML.accepts(written))
        #expect(try mode(home.configFile) == 0o600)
        #expect(try mode(home.root.path + "/xdg/apnsctl") == 0o700)
        let shown = try home.run(["config", "show"])
        #expect(shown.stdout.contains("profile dev, \(home.configFile):14"), "\(shown.stdout)")

        let bare = try Home()
        let plain = try bare.run(["config", "init"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try text(bare).hasSuffix("[devices]\n"))
        #expect(try bare.run(["config", "add-device", "phone", Self.token1]).status == 0)
        #expect(try text(bare).hasSuffix("[devices]\nphone = \"\(Self.token1)\"\n"))

        let typo = try Home()
        let wrong = try typo.run(["config", "init", "--bundle-id", "com.example.app"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr == "error: --bundle-id: not a setting flag; did you mean --topic?\n")
        #expect(!FileManager.default.fileExists(atPath: typo.configFile))
    }

    @Test func listWarnsAboutADefaultProfileNamingNoProfile() throws {
        let home = try Home()
        try home.write("default-profile = \"prd\"\n\n[profiles.prod]\ntopic = \"x\"\n")
        let r = try home.run(["config", "list"])
        #expect(r.status == 0)
        #expect(
            r.stderr
                == "warning: \(home.configFile):1: default-profile = \"prd\" names no profile, so every command without -p fails; did you mean \"prod\"? fix it with apnsctl config set default-profile NAME\n"
        )
        // A file named by --config is the one the advice edits, and the one a profile with no credential is mended in.
        let other = try TemporaryDirectory(prefix: "other-config")
        let file = try other.write("dp.toml", "default-profile = \"prd\"\n\n[profiles.prod]\ntopic = \"x\"\n")
        chmod(file, 0o600)
        let named = try home.run(["config", "list", "--config", file])
        #expect(named.stderr.hasSuffix("fix it with apnsctl config set --config \(file) default-profile NAME\n"))
        let send = try home.run([
            "send", "--config", file, "-p", "prod", "-d", String(repeating: "ab", count: 32), "--alert", "x",
        ])
        #expect(send.status == 64)
        #expect(
            send.stderr.contains("give it one (apnsctl config set --config \(file) --profile prod cert FILE"),
            "\(send.stderr)")
    }

    /// The file itself gets the same advice for keys users bring from elsewhere.
    @Test func keysFromOtherToolsInTheFileGetTheSettingTheyMean() throws {
        for (line, advice) in [
            ("bundle-id = \"x\"", #"did you mean "topic"?"#), ("environment = \"production\"", #"did you mean "env"?"#),
            ("sandbox = true", #"did you mean env = "sandbox"?"#),
            ("sandbox = false", #"did you mean env = "production"?"#),
        ] {
            let home = try Home()
            try home.write("[profiles.dev]\n\(line)\n")
            let r = try home.run(["config", "list"])
            #expect(r.status == 64)
            let key = String(line.prefix { $0 != " " })
            #expect(
                r.stderr.hasSuffix(
                    "in [profiles.dev]; \(advice) (apnsctl config unset -p dev \(key) removes the line)\n"),
                "\(r.stderr)")
        }
    }

    /// A default-profile naming a profile the file lacks (here the built-in mock) is no profile for set or unset
    /// to make unasked: a [profiles.mock] table written by `config set priority 5` replaced the mock's
    /// credentials. Refused (64), the file untouched; with --profile it is made, as asked.
    @Test func aDefaultProfileTheFileLacksIsNotMadeUnasked() throws {
        let home = try Home()
        try home.write("default-profile = \"mock\"\n")
        for arguments in [["config", "set", "priority", "5"], ["config", "unset", "priority"]] {
            let r = try home.run(arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(
                r.errorLines.first?.contains(
                    "default-profile \"mock\" chooses the profile to edit, and the file has none of that name (the "
                        + "built-in profile of apnsctl mock") == true, "\(arguments): \(r.stderr)")
            #expect(try String(contentsOfFile: home.configFile, encoding: .utf8) == "default-profile = \"mock\"\n")
        }
    }
}
