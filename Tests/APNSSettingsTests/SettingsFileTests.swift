import APNSPlatform
import APNSTestSupport
import Testing

@testable import APNSSettings

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The settings file's refusals, whatever the command: each one line naming the path and line, exit 64.
@Suite struct SettingsFileTests {
    static let path = "/cfg/config.toml"

    func refusal(_ text: String) -> SettingsProblem? {
        do {
            _ = try SettingsFile.parse(Array(text.utf8), path: Self.path)
            return nil
        } catch { return error }
    }

    struct Refusal: CustomStringConvertible, Sendable {
        let text: String
        let message: String
        var description: String { message }
    }

    static let refusals: [Refusal] = [
        Refusal(
            text: "[profiles.dev]\ntopic = com.example\n",
            message: "\(path):2:9: com.example is not a TOML value; strings need quotes (\"com.example\")"),
        // A Boolean as another language writes it: quoting it, as the plain advice said, made a string the setting
        // refused in turn.
        Refusal(
            text: "[profiles.dev]\nminify = True\n",
            message:
                "\(path):2:10: True is not a TOML value: TOML's Booleans are lower case, true (a string needs quotes: \"True\")"
        ),
        Refusal(
            text: "[profiles.dev]\nminify = yes\n",
            message:
                "\(path):2:10: yes is not a TOML value: an on/off setting takes true or false (a string needs quotes: \"yes\")"
        ),
        // An editor's typographic quotes: the advice gives straight ones, not the curly ones inside them.
        Refusal(
            text: "[profiles.dev]\ntopic = \u{201C}com.example\u{201D}\n",
            message:
                "\(path):2:9: \u{201C}com.example\u{201D} is not a TOML value: typographic quotes are no TOML quotes; write straight ones (\"com.example\")"
        ),
        Refusal(
            text: "[profiles.dev]\ntopic = \"a\"\ntopik = \"b\"\n",
            message: "\(path):3: unknown key \"topik\" in [profiles.dev]; did you mean \"topic\"?"),
        Refusal(
            text: "[profiles.dev]\nzzzzzz = 1\n",
            message:
                "\(path):2: unknown key \"zzzzzz\" in [profiles.dev]; a profile's keys are the long flags of send, channel, doctor and jwt, as apnsctl send --help lists them"
        ),
        Refusal(
            text: "\n[profiles.dev]\ncert = \"c.p12\"\npassphrase = \"hunter2\"\n",
            message:
                "\(path):4: passphrase in [profiles.dev]: secrets never come from the settings file; use passphrase-file = \"FILE\" in the profile, --passphrase-file FILE, or APNSCTL_PASSPHRASE"
        ),
        // At the top level too: the advice to move it into a profile would only meet the refusal above.
        Refusal(
            text: "passphrase = \"hunter2\"\n",
            message:
                "\(path):1: passphrase at the top level: secrets never come from the settings file; use passphrase-file = \"FILE\" in a profile, --passphrase-file FILE, or APNSCTL_PASSPHRASE"
        ),
        Refusal(
            text: "[devices]\ncafe = \"3f2a\"\n",
            message:
                "\(path):2: device name \"cafe\" in [devices] is made only of hex digits, so -d cafe would read as a token; give it a name with another letter (my-cafe)"
        ),
        Refusal(
            text: "[profiles.x.devices]\nDEADBEEF = \"3f2a\"\n",
            message:
                "\(path):2: device name \"DEADBEEF\" in [profiles.x.devices] is made only of hex digits, so -d DEADBEEF would read as a token; give it a name with another letter (my-DEADBEEF)"
        ),
        // A token in Xcode's grouped form reads as that token with -d: as a name, it sent to another device.
        Refusal(
            text: "[devices]\n\"<\(String(repeating: "aaaaaaaa ", count: 7))aaaaaaaa>\" = \"3f2a\"\n",
            message:
                "\(path):2: device name \"<\(String(repeating: "aaaaaaaa ", count: 7))aaaaaaaa>\" in [devices] reads as a device token, so -d '<\(String(repeating: "aaaaaaaa ", count: 7))aaaaaaaa>' would read as a token; give it another name"
        ),
        Refusal(
            text: "[profiles.dev]\ndevice = \"3f2a\"\n",
            message:
                "\(path):2: \"device\" in [profiles.dev] is an input of one run, not a setting; give it on the command line"
        ),
        Refusal(
            text: "topic = \"x\"\n",
            message: "\(path):1: \"topic\" at the top level; settings go in a profile: put it under [profiles.NAME]"),
        Refusal(
            text: "default-profil = \"x\"\n",
            message:
                "\(path):1: unknown key \"default-profil\" at the top level; did you mean \"default-profile\"? the top level holds default-profile, [profiles.NAME] and [devices]"
        ),
        Refusal(
            text: "[profile.dev]\ntopic = \"x\"\n",
            message:
                "\(path):1: unknown key \"profile\" at the top level; did you mean \"profiles\"? the top level holds default-profile, [profiles.NAME] and [devices]"
        ),
        Refusal(text: "profiles = 1\n", message: "\(path):1: profiles must be tables, written [profiles.NAME]"),
        Refusal(
            text: "[profiles]\ndev = \"x\"\n",
            message: "\(path):2: profiles.dev must be a table, written [profiles.dev]"),
    ]

    @Test(arguments: refusals) func refusedWhole(_ row: Refusal) throws {
        let problem = try #require(refusal(row.text))
        #expect(problem.message == row.message)
        #expect(problem.exitCode == 64)
        // The tables hold TOML that Python reads (only the syntax-error rows are not TOML).
        if !row.message.contains("is not a TOML value") { #expect(try PythonTOML.accepts(row.text), "\(row.text)") }
    }

    @Test func passphraseValueIsNeverEchoed() throws {
        let problem = try #require(refusal("[profiles.dev]\npassphrase = \"hunter2\"\n"))
        #expect(!problem.message.contains("hunter2"))
    }

    @Test func exampleOfCLIMarkdownReads() throws {
        let file = try SettingsFile.parse(Array(SettingsResolverTests.example.utf8), path: Self.path)
        #expect(file.defaultProfile?.name == "dev")
        #expect(file.profiles.map(\.name) == ["dev", "prod-cert", "staging"])
        #expect(file.devices.map(\.name) == ["my-iphone", "qa-ipad"])
        #expect(file.profile("prod-cert")?.devices.map(\.name) == ["qa-ipad"])
        #expect(try PythonTOML.accepts(SettingsResolverTests.example))
    }

    @Test func readerRefusesOnDisk() throws {
        let dir = try TemporaryDirectory()
        let good = try dir.write("config.toml", "[profiles.a]\ntopic = \"x\"\n", mode: 0o600)
        #expect(try SettingsFileReader.read(SettingsLocation(path: good, origin: .flag("--config"))) != nil)
        let open = try dir.write("open.toml", "", mode: 0o666)
        chmod(open, 0o666)
        #expect(throws: SettingsProblem.self) {
            try SettingsFileReader.read(SettingsLocation(path: open, origin: .defaultValue))
        }
        // A missing default file is no settings; a missing named one is 66.
        #expect(
            try SettingsFileReader.read(SettingsLocation(path: dir.file("none.toml"), origin: .defaultValue)) == nil)
        do {
            _ = try SettingsFileReader.read(
                SettingsLocation(path: dir.file("none.toml"), origin: .variable("APNSCTL_CONFIG")))
            Issue.record("a missing named file was accepted")
        } catch {
            #expect(error.exitCode == 66)
            #expect(error.message.hasPrefix("APNSCTL_CONFIG=\(dir.file("none.toml")): no such settings file"))
        }
        // A FIFO is refused at once, never waited on, and a directory is no file: both 64, as anything that is
        // not a regular file of ours.
        let fifo = dir.file("fifo.toml")
        mkfifo(fifo, 0o600)
        let folder = dir.file("folder.toml")
        mkdir(folder, 0o700)
        for (path, what) in [(fifo, "a FIFO"), (folder, "a directory")] {
            do {
                _ = try SettingsFileReader.read(SettingsLocation(path: path, origin: .flag("--config")))
                Issue.record("\(path) was read")
            } catch {
                #expect(
                    error.exitCode == 64 && error.message.hasPrefix("\(path): is \(what), not a regular file"),
                    "\(error.message)")
            }
        }
    }

    @Test func location() throws {
        #expect(
            try SettingsLocation.find(configFlag: nil, variables: [:], configHome: "/h/.config").path
                == "/h/.config/apnsctl/config.toml")
        #expect(
            try SettingsLocation.find(configFlag: nil, variables: ["APNSCTL_CONFIG": ""], configHome: "/x").origin
                == .defaultValue)
        #expect(
            try SettingsLocation.find(configFlag: nil, variables: ["APNSCTL_CONFIG": "/v.toml"], configHome: "/x")
                .origin
                == .variable("APNSCTL_CONFIG"))
        #expect(
            try SettingsLocation.find(configFlag: "f.toml", variables: ["APNSCTL_CONFIG": "/v.toml"], configHome: "/x")
                == SettingsLocation(path: "f.toml", origin: .flag("--config")))
        // `--config ''` (an unset variable) is no "no settings file": refused, where the variable empty is unset.
        #expect {
            try SettingsLocation.find(configFlag: "", variables: [:], configHome: "/x")
        } throws: { error in
            (error as? SettingsProblem)?.exitCode == 64
                && (error as? SettingsProblem)?.message.hasPrefix("--config is empty (is the variable meant") == true
        }
        // A key pasted into the variable is no path: refused without a word of it (every message quotes the path).
        let pem =
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"
        for value in [
            pem, "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg" + String(repeating: "TUlHSEFn", count: 8),
        ] {
            #expect {
                try SettingsLocation.find(configFlag: nil, variables: ["APNSCTL_CONFIG": value], configHome: "/x")
            } throws: { error in
                let message = (error as? SettingsProblem)?.message ?? ""
                return (error as? SettingsProblem)?.exitCode == 64 && message.hasPrefix("APNSCTL_CONFIG holds ")
                    && message.contains("(not shown), not a path") && !message.contains("MIGHAgEA")
                    && !message.contains("TUlHSEFn")
            }
        }
        // A path that is merely long is a path.
        let long = "/" + String(repeating: "TUlHSEFnRUFNQk1HQnlx", count: 11)
        #expect(
            try SettingsLocation.find(configFlag: nil, variables: ["APNSCTL_CONFIG": long], configHome: "/x").path
                == long)
        #expect(SettingsLocation(path: "f.toml", origin: .defaultValue).directory == ".")
        #expect(SettingsLocation(path: "/config.toml", origin: .defaultValue).directory == "/")
    }
}
