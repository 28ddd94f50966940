import APNSTestSupport
import Foundation
import Testing

/// `apnsctl config path|list|show` end to end, each run with HOME and the XDG directories in fresh temporary
/// directories. Every settings file written here is also read by Python's tomllib: the format is TOML.
@Suite struct ConfigCommandTests {
    /// A fresh home with `XDG_CONFIG_HOME` under it, and the settings file (mode 0600 unless told).
    final class Home: @unchecked Sendable {
        let root: TemporaryDirectory
        var environment: [String: String]
        var configFile: String { root.path + "/xdg/apnsctl/config.toml" }

        init() throws {
            root = try TemporaryDirectory(prefix: "config-home")
            for dir in ["home", "xdg/apnsctl", "cache", "state", "tmp"] {
                try FileManager.default.createDirectory(
                    atPath: root.path + "/" + dir, withIntermediateDirectories: true)
            }
            environment = [
                "HOME": root.path + "/home", "XDG_CONFIG_HOME": root.path + "/xdg",
                "XDG_CACHE_HOME": root.path + "/cache",
                "XDG_STATE_HOME": root.path + "/state", "TMPDIR": root.path + "/tmp",
            ]
        }

        /// Writes the settings file, after checking that Python reads it as TOML (unless it is meant not to be).
        func write(_ text: String, mode: Int = 0o600, toml: Bool = true) throws {
            if toml { #expect(try PythonTOML.accepts(text), "Python's tomllib refuses: \(text)") }
            _ = try root.write("xdg/apnsctl/config.toml", text, mode: mode)
            chmod(configFile, mode_t(mode))
        }

        func run(
            _ arguments: [String], _ extra: [String: String] = [:], directory: String? = nil, stdin: [UInt8]? = nil
        ) throws -> CommandResult {
            try InProcess.apnsctl(
                arguments, stdin: stdin, environment: environment.merging(extra) { $1 }, directory: directory)
        }
    }

    static let example = SettingsExample.text

    /// `~alice/…` in a profile was read as a folder named `~alice` beside the settings file, and its "no such file"
    /// said nothing of the `~`: only a shell expands another user's home. Reading it and writing it are refused.
    @Test func anotherUsersTildeInAProfileIsSaid() throws {
        let home = try Home()
        try home.write("[profiles.dev]\ncert = \"~alice/certs/push.p12\"\n")
        let send = try home.run(["send", "-p", "dev", "-d", String(repeating: "ab", count: 32), "--alert", "hi"])
        #expect(send.status == 64, "\(send.stderr)")
        let said =
            "~alice/ is expanded only by a shell (a settings file expands ~/ alone, to your home); write the path in full"
        #expect(send.stderr.contains(said), "\(send.stderr)")
        let set = try home.run(["config", "set", "--profile", "dev", "key", "~alice/certs/key.pem"])
        #expect(set.status == 64, "\(set.stderr)")
        #expect(set.stderr == "error: key: \(said); nothing was written\n", "\(set.stderr)")
        #expect(!(try String(contentsOfFile: home.configFile, encoding: .utf8)).contains("key.pem"))
        // A name that merely starts with ~ is a name.
        try home.write("[profiles.dev]\ncert = \"~backup.pem\"\n")
        let plain = try home.run(["send", "-p", "dev", "-d", String(repeating: "ab", count: 32), "--alert", "hi"])
        #expect(plain.status == 66 && !plain.stderr.contains("expanded only by a shell"), "\(plain.stderr)")
    }

    @Test func pathNamesTheFileAndWhetherItExists() throws {
        let home = try Home()
        let missing = try home.run(["config", "path"])
        #expect(missing.status == 0)
        #expect(missing.stdout == "\(home.configFile) (the default; does not exist: no settings are read)\n")
        try home.write(Self.example)
        #expect(try home.run(["config", "path"]).stdout == "\(home.configFile) (the default; exists)\n")
        let byVariable = try home.run(["config", "path", "-o", "json"], ["APNSCTL_CONFIG": "/nowhere/c.toml"])
        #expect(
            byVariable.stdout
                == "{\"path\":\"/nowhere/c.toml\",\"origin\":\"variable\",\"variable\":\"APNSCTL_CONFIG\",\"exists\":false}\n"
        )
        let byFlag = try home.run(
            ["config", "path", "--config", home.configFile], ["APNSCTL_CONFIG": "/nowhere/c.toml"])
        #expect(byFlag.stdout == "\(home.configFile) (from --config; exists)\n")
        // Something there that no command reads: said with why, not as a file in use.
        let folder = home.root.file("folder.toml")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let shared = try home.root.write("shared.toml", Self.example, mode: 0o666)
        for (path, why) in [(folder, "is a directory"), (shared, "writable by")] {
            let said = try home.run(["config", "path", "--config", path])
            #expect(said.status == 0, "\(said.stderr)")
            #expect(
                said.stdout.hasPrefix("\(path) (from --config; exists, but no command reads it: ")
                    && said.stdout.contains(why), "\(said.stdout)")
        }
    }

    @Test func listShowsProfilesAndDevices() throws {
        let home = try Home()
        try home.write(Self.example)
        let text = try home.run(["config", "list"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.lines == [
                "profile dev (default)  \(home.configFile):3",
                "profile prod-cert  \(home.configFile):9",
                "profile mock  built in: apnsctl mock's \(home.root.path)/state/apnsctl/mock/mock.json",
                "profile mock-token  built in: apnsctl mock's \(home.root.path)/state/apnsctl/mock/mock.json, token auth",
                "device my-iphone  3f2a000000000000000000000000000000000000000000000000000000009c1d  \(home.configFile):14",
                "device qa-ipad  77b0000000000000000000000000000000000000000000000000000000000a11  \(home.configFile):15",
            ])
        let json = try home.run(["config", "list", "-o", "json"])
        #expect(json.lines.first == "{\"profile\":\"dev\",\"default\":true,\"file\":\"\(home.configFile)\",\"line\":3}")
        #expect(
            json.lines.last
                == "{\"device\":\"qa-ipad\",\"token\":\"77b0000000000000000000000000000000000000000000000000000000000a11\",\"profile\":null,\"file\":\"\(home.configFile)\",\"line\":15}"
        )
        for line in json.lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil) }
        // No file at all: only the built-in profiles, and exit 0.
        let empty = try Home()
        let none = try empty.run(["config", "list"])
        #expect(none.status == 0)
        #expect(
            none.lines.count == 2 && none.lines[0].hasPrefix("profile mock  built in")
                && none.lines[1].hasPrefix("profile mock-token  built in"))
        #expect(none.stderr.hasPrefix("warning: no settings file at "))
    }

    /// A device name `send -d` would refuse is listed with a warning naming why and the commands that mend it (a
    /// profile's own table with --profile); mended, the warning goes.
    @Test func listWarnsAboutUnusableDeviceValues() throws {
        let home = try Home()
        let token = String(repeating: "ab", count: 32)
        try home.write(
            "[devices]\nx = 5\nok = \"\(token)\"\n[profiles.dev]\ntopic = \"a.b\"\n[profiles.dev.devices]\n\"my w\" = \"zz\"\n"
        )
        let listed = try home.run(["config", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.lines.contains("device x  5  \(home.configFile):2"), "\(listed.stdout)")
        #expect(
            listed.stderr.split(separator: "\n").map(String.init) == [
                "warning: \(home.configFile):2: device \"x\" is not a usable token: expected a string, found an integer; send -d x fails until it is mended: apnsctl config add-device x TOKEN replaces it, apnsctl config remove-device x removes it",
                "warning: \(home.configFile):7: device \"my w\" is not a usable token: the device token must be hex, found 'z'; send -d 'my w' fails until it is mended: apnsctl config add-device --profile dev 'my w' TOKEN replaces it, apnsctl config remove-device --profile dev 'my w' removes it",
            ])
        #expect(try home.run(["config", "add-device", "x", token]).status == 0)
        #expect(try home.run(["config", "remove-device", "--profile", "dev", "my w"]).status == 0)
        let mended = try home.run(["config", "list"])
        #expect(mended.status == 0 && mended.stderr.isEmpty, "\(mended.stderr)")
        // A file named by --config: the commands to paste name it too, or they would edit the default file.
        let other = try home.root.write("devs.toml", "[devices]\nx = 5\n", mode: 0o600)
        let named = try home.run(["config", "list", "--config", other])
        #expect(
            named.stderr.hasSuffix(
                "apnsctl config add-device --config \(other) x TOKEN replaces it, apnsctl config remove-device --config \(other) x removes it\n"
            ), "\(named.stderr)")
        #expect(try home.run(["config", "remove-device", "--config", other, "x"]).status == 0)
        #expect(try home.run(["config", "list", "--config", other]).stderr.isEmpty)
        // An entry the editor cannot take out in place (an inline table) is not given commands that then refuse.
        let inline = try home.root.write("inline.toml", "[devices]\nbaz = {a = 1}\n", mode: 0o600)
        let byHand = try home.run(["config", "list", "--config", inline])
        #expect(
            byHand.stderr.hasSuffix(
                "send -d baz fails until it is mended: apnsctl config cannot change it in place; edit line 2 by hand\n"),
            "\(byHand.stderr)")
        // Many at once: the first 20 are warned about one by one (each tried in an edit of the whole file; 5,000
        // took minutes), the rest counted.
        let many = try home.root.write(
            "many.toml", "[devices]\n" + (0..<3000).map { "dev\($0) = \"zz\"\n" }.joined(), mode: 0o600)
        let counted = try home.run(["config", "list", "--config", many])
        let warnings = counted.stderr.split(separator: "\n")
        #expect(warnings.count == 21, "\(warnings.count)")
        #expect(
            warnings.last
                == "warning: and 2980 more device names that are not usable tokens (each listed with its line)")
        #expect(counted.lines.count >= 3000)
        // So is a key of a table array with two headers, which `config unset` could not remove either.
        let twice = try home.root.write(
            "twice.toml", "[profiles.x]\ntopic = \"a.b\"\n[[profiles.x.y]]\n[[profiles.x.y]]\n", mode: 0o600)
        let refused = try home.run(["config", "show", "--config", twice, "-p", "x"])
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains("unknown key \"y\"")
                && refused.stderr.hasSuffix("(apnsctl config cannot remove it in place; edit the file by hand)\n"),
            "\(refused.stderr)")
        #expect(try home.run(["config", "unset", "--config", twice, "-p", "x", "y"]).status == 64)
    }

    @Test func showNamesEveryOrigin() throws {
        let home = try Home()
        try home.write(Self.example)
        let r = try home.run(
            ["config", "show"], ["APNSCTL_PRIORITY": "5", "APNSCTL_TIMEOUT": "", "APNSCTL_PASSPHRASE": "hunter2"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = Dictionary(
            r.lines.map { line in
                let parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                return (parts[0], parts.dropFirst().joined(separator: " "))
            }, uniquingKeysWith: { a, _ in a })
        #expect(rows["profile"] == "dev default-profile, \(home.configFile):1")
        #expect(rows["topic"] == "com.example.app profile dev, \(home.configFile):6")
        #expect(
            rows["auth-key"] == "\(home.root.path)/home/keys/AuthKey_ABCDE12345.p8 profile dev, \(home.configFile):4")
        #expect(rows["priority"] == "5 APNSCTL_PRIORITY")
        #expect(rows["timeout"] == "30 default", "an empty variable is unset")
        #expect(rows["passphrase"] == "(hidden) APNSCTL_PASSPHRASE")
        #expect(!r.stdout.contains("hunter2"))

        let json = try home.run(["config", "show", "prod-cert", "--for", "channel", "-o", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(
            json.lines.contains(
                "{\"setting\":\"cert\",\"value\":\"\(home.root.path)/xdg/apnsctl/certs/push-prod.p12\",\"origin\":\"profile\",\"profile\":\"prod-cert\",\"file\":\"\(home.configFile)\",\"line\":10}"
            ))
        #expect(json.lines.contains("{\"setting\":\"storage\",\"value\":\"none\",\"origin\":\"default\"}"))
        #expect(!json.stdout.contains("\"setting\":\"priority\""), "channel has no priority")
        // An unset env is what each command makes of it: doctor checks both environments, send picks one.
        let bare = try Home()
        let doctor = try bare.run(["config", "show", "--for", "doctor", "-o", "json"])
        #expect(
            doctor.lines.contains {
                $0.contains(#""setting":"env""#)
                    && $0.contains(
                        #""note":"the certificate's environments (both for a universal one); both with token auth""#)
            }, "\(doctor.stdout)")
        let send = try bare.run(["config", "show", "--for", "send", "-o", "json"])
        #expect(send.lines.contains { $0.contains(#""note":"the certificate's only environment, else sandbox""#) })
    }

    /// `config show -p NAME`, as `send -p NAME` and `config set -p NAME` take a profile, shows what `config show
    /// NAME` shows; two different profiles are a usage error.
    @Test func theProfileMayBeGivenWithP() throws {
        let home = try Home()
        try home.write(
            """
            [profiles.dev]
            priority = 5

            [profiles.prod]
            priority = 10
            """)
        let positional = try home.run(["config", "show", "dev"])
        #expect(positional.status == 0, "\(positional.stderr)")
        #expect(positional.stdout.contains("profile dev"), "\(positional.stdout)")
        for args in [["-p", "dev"], ["--profile", "dev"], ["dev", "-p", "dev"]] {
            let r = try home.run(["config", "show"] + args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.stdout == positional.stdout, "\(args)")
        }
        let both = try home.run(["config", "show", "dev", "-p", "prod"])
        #expect(both.status == 64)
        #expect(both.stderr == "error: two profiles: \"dev\" and \"prod\"; give one\n", "\(both.stderr)")
    }

    @Test func pemInAVariableIsNeverPrinted() throws {
        let home = try Home()
        let body = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSECRETSECRETSECRET"
        let pem = "-----BEGIN PRIVATE KEY-----\n\(body)\n-----END PRIVATE KEY-----\n"
        for format in ["text", "json"] {
            let r = try home.run(
                ["config", "show", "-o", format],
                ["APNSCTL_AUTH_KEY": pem, "APNSCTL_PROXY": "http://user:pw-secret@proxy:3128"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("(PEM from APNSCTL_AUTH_KEY)"))
            #expect(!r.stdout.contains(body) && !r.stderr.contains(body))
            #expect(!r.stdout.contains("pw-secret"))
        }
    }

    /// `config show topic`, as `git config get` reads one key: a setting's name where the profile goes is said so.
    @Test func aSettingsNameWhereTheProfileGoesIsSaidSo() throws {
        let home = try Home()
        try home.write("[profiles.dev]\ntopic = \"com.example.app\"\n")
        let r = try home.run(["config", "show", "topic"])
        #expect(r.status == 64)
        #expect(
            r.stderr
                == "error: \"topic\" is a setting, not a profile: config show takes a profile and lists every setting, topic among them (apnsctl config show | grep topic)\n"
        )
    }

    @Test func pathsFromAnotherWorkingDirectory() throws {
        let home = try Home()
        // A passphrase file that is not there is hidden (it may be the passphrase): this one is.
        let pw = try home.root.write("pw", "secret\n")
        try home.write("[profiles.p]\ncert = \"certs/a.pem\"\nca-file = \"~/ca.pem\"\npassphrase-file = \"\(pw)\"\n")
        let elsewhere = try TemporaryDirectory(prefix: "cwd")
        let r = try home.run(["config", "show", "p", "-o", "json"], directory: elsewhere.path)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"value\":\"\(home.root.path)/xdg/apnsctl/certs/a.pem\""))
        #expect(r.stdout.contains("\"value\":\"\(home.root.path)/home/ca.pem\""))
        #expect(r.stdout.contains("\"value\":\"\(pw)\""))
    }

    struct Refusal: CustomStringConvertible, Sendable {
        let text: String
        let mode: Int
        let expected: String
        var description: String { expected }
    }

    static let refusals: [Refusal] = [
        Refusal(text: "[profiles.dev]\ntopic = com.example\n", mode: 0o600, expected: "config.toml:2:9: "),
        Refusal(
            text: "[profiles.dev]\ntopik = \"x\"\n", mode: 0o600,
            expected: "config.toml:2: unknown key \"topik\" in [profiles.dev]; did you mean \"topic\"?"),
        Refusal(
            text: "[profiles.dev]\npassphrase = \"hunter2\"\n", mode: 0o600,
            expected: "config.toml:2: passphrase in [profiles.dev]"),
        Refusal(text: "[devices]\nbeef = \"00ff\"\n", mode: 0o600, expected: "config.toml:2: device name \"beef\""),
        Refusal(
            text: "[profiles.dev]\ntopic = \"x\"\n", mode: 0o666,
            expected: "config.toml: is writable by group and others (mode 0666)"),
        Refusal(
            text: "[profiles.dev]\ntopic = \"x\"\n", mode: 0o620,
            expected: "config.toml: is writable by group (mode 0620)"),
    ]

    @Test(arguments: refusals) func badFilesAreRefusedByEveryConfigCommand(_ row: Refusal) throws {
        let home = try Home()
        try home.write(row.text, mode: row.mode, toml: !row.expected.contains(":2:9:"))
        for command in [["config", "list"], ["config", "show"], ["config", "show", "--for", "jwt"]] {
            let r = try home.run(command)
            #expect(r.status == 64, "\(command): \(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(r.errorLines.count == 1)
            #expect(r.stderr.hasPrefix("error: \(home.root.path)/xdg/apnsctl/\(row.expected)"), "\(r.stderr)")
            #expect(!r.stderr.contains("hunter2"))
        }
    }

    @Test func missingNamedFileAndMockProfile() throws {
        let home = try Home()
        let missing = try home.run(["config", "show", "--config", home.root.path + "/none.toml"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("error: --config \(home.root.path)/none.toml: no such settings file"))
        let noMock = try home.run(
            ["config", "show", "mock"], ["APNSCTL_MOCK_STATE_DIR": home.root.path + "/state/none"])
        #expect(noMock.status == 66)
        #expect(noMock.stderr.contains("start apnsctl mock"))

        let mock = try InProcessMock()
        let r = try home.run(
            ["config", "show", "mock", "-o", "json"], ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path])
        #expect(r.status == 0, "\(r.stderr)")
        let readyFile = mock.stateDirectory.file("mock.json")
        #expect(
            r.lines.contains(
                "{\"setting\":\"cert\",\"value\":\"\(mock.certificate)\",\"origin\":\"mock\",\"profile\":\"mock\",\"file\":\"\(readyFile)\"}"
            ))
        #expect(
            r.lines.contains(
                "{\"setting\":\"topic\",\"value\":\"\(mock.bundleID)\",\"origin\":\"mock\",\"profile\":\"mock\",\"file\":\"\(readyFile)\"}"
            ))
        #expect(
            r.lines.contains(
                "{\"setting\":\"endpoint\",\"value\":[\"\(mock.endpoint)\"],\"origin\":\"mock\",\"profile\":\"mock\",\"file\":\"\(readyFile)\"}"
            ))
    }

    /// `apnsctl mock` takes APNSCTL_MOCK_STATE_DIR as its --state-dir default, so it and `-p mock` agree.
    @Test func mockAndMockProfileShareTheStateDirVariable() throws {
        let home = try Home()
        let state = try TemporaryDirectory(prefix: "mock-env")
        let mock = try InProcess.Run(
            ["mock", "--port", "0"],
            environment: home.environment.merging(["APNSCTL_MOCK_STATE_DIR": state.path]) { $1 })
        defer {
            mock.interrupts.deliver(SIGTERM)
            _ = mock.finish(within: 30)
        }
        let ready = state.file("mock.json")
        Wait.until { FileManager.default.fileExists(atPath: ready) || mock.finish(within: 0).status != nil }
        #expect(FileManager.default.fileExists(atPath: ready), "apnsctl mock did not use APNSCTL_MOCK_STATE_DIR")
        let r = try home.run(["config", "show", "mock"], ["APNSCTL_MOCK_STATE_DIR": state.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("profile mock, \(ready)"))
        // The environment the mock plays comes with its profile.
        let env = r.stdout.split(separator: "\n").first { $0.hasPrefix("env ") }.map(String.init) ?? ""
        #expect(env.contains(" sandbox ") && env.hasSuffix("profile mock, \(ready)"), "\(r.stdout)")
    }

    @Test func badValuesAreNamedWhenUsed() throws {
        let home = try Home()
        try home.write("default-profile = \"p\"\n[profiles.p]\nauth-key = \"k.p8\"\npriority = 7\n")
        let send = try home.run(["config", "show"])
        #expect(send.status == 64)
        #expect(send.stderr == "error: \(home.configFile):4: priority = 7: must be 10, 5 or 1\n")
        // jwt has no priority: the value is not its concern.
        #expect(try home.run(["config", "show", "--for", "jwt"]).status == 0)
        let variable = try home.run(["config", "show"], ["APNSCTL_PRIORITY": "7"])
        #expect(variable.stderr == "error: APNSCTL_PRIORITY=7: must be 10, 5 or 1\n")
        let unknown = try home.run(["config", "show", "q"])
        #expect(unknown.status == 64)
        // Named as typed, an argument, not a --profile that was not given.
        #expect(unknown.stderr == "error: profile q: unknown profile; did you mean \"p\"?\n")
        let flag = try home.run(["config", "show", "-p", "q"])
        #expect(flag.stderr == "error: --profile q: unknown profile; did you mean \"p\"?\n")
        let forWhat = try home.run(["config", "show", "--for", "inspect"])
        #expect(forWhat.status == 64)
    }

    /// docs/settings.md's example settings file (the here-document its runnable block writes, which apnsctl
    /// reads there) is TOML to Python too.
    @Test func settingsPageExampleIsTOML() throws {
        let page = try String(contentsOfFile: Repository.path("docs/settings.md"), encoding: .utf8)
        let start = try #require(
            page.range(of: "$ cat ~/.config/apnsctl/config.toml\n"), "docs/settings.md shows no config.toml")
        let end = try #require(page[start.upperBound...].range(of: "\n$ "))
        let block = String(page[start.upperBound..<end.lowerBound]) + "\n"
        #expect(block.contains("[profiles.") && block.contains("[devices]"))
        #expect(try PythonTOML.accepts(block))
        #expect(try PythonTOML.accepts(Self.example))
    }

    /// A full disk: the world's standard output fails as /dev/full does (ENOSPC). The process's own write to a
    /// full device is OutputFailureTests'.
    @Test func aFullDiskIsExit74() throws {
        let home = try Home()
        try home.write(Self.example)
        let world = TestWorld(
            variables: home.environment, home: home.root.path + "/home", output: MemoryOutput(failingAfter: 0))
        #expect(world.run(["config", "list"]) == 74, "\(world.stderr.text)")
        #expect(world.stderr.text.hasPrefix("error: writing standard output: No space left on device"))
    }
}
