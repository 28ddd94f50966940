import APNSTestSupport
import Foundation
import Testing

/// No home directory (`HOME` naming nothing, as Debian's `/nonexistent` for service users; HomeDirectoryTests has
/// the rule): every command that would have used one says so, with what `HOME` held, and none prints an empty
/// path, looks for a `~` folder, or keeps quiet that a send was not recorded.
@Suite struct NoHomeTests {
    static let token = "a1b2c3d4000000000000000000000000000000000000000000000000e5f6a7b8"

    /// A folder for the test and a `HOME` under it that does not exist, with the XDG folders unset.
    struct Homeless {
        let base: TemporaryDirectory
        let home: String
        var environment: [String: String] {
            ["HOME": home, "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "XDG_CACHE_HOME": ""]
        }

        init() throws {
            base = try TemporaryDirectory(prefix: "no-home")
            home = base.file("nonexistent")
        }

        func run(_ arguments: [String]) throws -> CommandResult {
            try InProcess.apnsctl(arguments, environment: environment, directory: base.path, timeout: 20)
        }

        /// The reason every message gives, with the XDG folder that would have stood in.
        func reason(_ variable: String) -> String {
            "$HOME is \(home), which does not exist, and $\(variable) is unset or relative"
        }
    }

    /// A `HOME` that is a link to nothing does not exist (it was said not to be a directory).
    @Test func aHomeLinkedToNothingDoesNotExist() throws {
        let base = try TemporaryDirectory(prefix: "dangling-home")
        let home = base.file("home")
        try FileManager.default.createSymbolicLink(atPath: home, withDestinationPath: base.file("gone"))
        let r = try InProcess.apnsctl(
            ["config", "path"], environment: ["HOME": home, "XDG_CONFIG_HOME": ""], directory: base.path)
        #expect(r.stdout.contains("($HOME is \(home), which does not exist,"), "\(r.stdout)")
    }

    /// `config list` named the missing settings file and the mock's `mock.json` by an empty path, and `-p mock`
    /// said "no ; start apnsctl mock first".
    @Test func theSettingsAndTheMockProfilesSayThereIsNoHome() throws {
        let h = try Homeless()
        let list = try h.run(["config", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(
            list.errorLines == [
                "warning: no settings file: no home directory for the default one (\(h.reason("XDG_CONFIG_HOME"))); "
                    + "only the built-in mock profiles exist (mock, mock-token)"
            ], "\(list.stderr)")
        #expect(
            list.lines.first
                == "profile mock  built in: apnsctl mock's mock.json (no home for its default state dir; set "
                + "APNSCTL_MOCK_STATE_DIR)",
            "\(list.stdout)")
        let json = try h.run(["config", "list", "-o", "json"])
        #expect(json.lines.first?.contains(#""file":null"#) == true, "\(json.stdout)")

        let send = try h.run(["send", "-p", "mock", "-d", Self.token, "--alert", "hi"])
        #expect(send.status == 66, "\(send.stderr)")
        #expect(
            send.stderr
                == "error: -p mock: no home directory for the mock's default state dir (\(h.reason("XDG_STATE_HOME"))); "
                + "set APNSCTL_MOCK_STATE_DIR to the --state-dir apnsctl mock was started with\n", "\(send.stderr)")
        #expect(!FileManager.default.fileExists(atPath: h.home))
    }

    /// A device name with no settings file to define it in: the advice to add it under [devices] says there is no
    /// such file, and how to name one.
    @Test func aDeviceNameWithNoSettingsFileSaysSo() throws {
        let h = try Homeless()
        let send = try h.run(["send", "--cert", "c.pem", "-d", "my-iphone", "--alert", "hi"])
        #expect(send.status == 64, "\(send.stderr)")
        #expect(
            send.stderr.hasSuffix(
                "no device names are defined (add them under [devices] in the settings file); there is no settings file "
                    + "to add them to (no home directory: \(h.reason("XDG_CONFIG_HOME"))): name one with --config FILE\n"
            ),
            "\(send.stderr)")
    }

    /// `~/` in a profile with no home was looked for in a folder named `~`, and called a slip of the shell's; a
    /// `~/` path set by `config set` was said to be relative to the file's folder.
    @Test func aTildeWithNoHomeIsSaid() throws {
        let h = try Homeless()
        let file = try h.base.write("c.toml", "[profiles.dev]\ncert = \"~/certs/push.p12\"\n", mode: 0o600)
        let send = try h.run([
            "send", "--config", file, "-p", "dev", "-d", Self.token, "--alert", "hi", "--topic", "com.example.app",
        ])
        #expect(send.status == 64, "\(send.stderr)")
        #expect(
            send.stderr.contains(
                "~ stands for the home directory, and there is none ($HOME is \(h.home), which does not exist); "
                    + "write the path in full"), "\(send.stderr)")
        #expect(!send.stderr.contains("expanded only by a shell"), "\(send.stderr)")

        // Not written either, by config set or init: the next command would refuse the profile (it was written
        // with a warning).
        let before = try String(contentsOfFile: file, encoding: .utf8)
        let refusal =
            "~ stands for the home directory, and there is none ($HOME is \(h.home), which does not exist); write "
            + "the path in full; nothing was written\n"
        let set = try h.run(["config", "set", "--config", file, "-p", "dev", "key", "~/k.pem"])
        #expect(set.status == 64 && set.stderr == "error: key: " + refusal, "\(set.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
        let initialized = try h.run(["config", "init", "--config", h.base.file("i.toml"), "--cert", "~"])
        #expect(initialized.status == 64 && initialized.stderr == "error: cert: " + refusal, "\(initialized.stderr)")
        #expect(!FileManager.default.fileExists(atPath: h.base.file("i.toml")))
    }

    /// The history commands said "no send is recorded yet" (and `history show last` that send records each one),
    /// when no history is kept at all.
    @Test func theHistorySaysNoneIsKept() throws {
        let h = try Homeless()
        let why =
            "no history is kept: no home directory (\(h.reason("XDG_STATE_HOME"))); set XDG_STATE_HOME to a folder "
            + "of yours to keep one"
        let list = try h.run(["history"])
        #expect(list.status == 0 && list.stderr == "warning: \(why)\n", "\(list.stderr)")
        let show = try h.run(["history", "show", "last"])
        #expect(show.status == 64 && show.stderr == "error: \(why)\n", "\(show.stderr)")
        let clear = try h.run(["history", "clear", "--yes"])
        #expect(clear.status == 0 && clear.stderr == "\(why); nothing to clear\n", "\(clear.stderr)")
        #expect(!FileManager.default.fileExists(atPath: h.home))
    }

    /// A home that is a link to a folder (or reached through one, /home → /data/home) is a home: SQLite's
    /// no-follow open refused every link in the history's path, so each send warned that it was not recorded.
    @Test func aHomeThatIsALinkKeepsTheHistory() throws {
        let mock = try InProcessMock()
        let base = try TemporaryDirectory(prefix: "linked-home")
        let real = base.file("real")
        try FileManager.default.createDirectory(
            atPath: real, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let link = base.file("home")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let environment = ["HOME": link, "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "XDG_CACHE_HOME": ""]
        let send = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                "--topic", mock.bundleID, "-d", Self.token, "--alert", "hi",
            ], environment: environment, directory: base.path, timeout: 20)
        #expect(send.status == 0 && send.stderr.isEmpty, "\(send.stderr)")
        #expect(FileManager.default.fileExists(atPath: real + "/.local/state/apnsctl/history.db"))
        let list = try InProcess.apnsctl(["history"], environment: environment, directory: base.path, timeout: 20)
        #expect(list.status == 0 && list.stderr.isEmpty, "\(list.stderr)")
        #expect(list.stdout.hasPrefix("#1  "), "\(list.stdout)")
    }

    /// `HOME` is quoted as any variable is: a line break or a long value is described, not shown, and a control
    /// character is escaped, in the no-home messages and in `config path` when the home exists.
    @Test func theHomeIsQuotedAsAnyVariable() throws {
        let base = try TemporaryDirectory(prefix: "quoted-home")
        for home in [base.file("x\nfoo"), base.path + "/" + String(repeating: "a", count: 300)] {
            let r = try InProcess.apnsctl(
                ["config", "path"], environment: ["HOME": home, "XDG_CONFIG_HOME": ""], directory: base.path)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("not shown)") && !r.stdout.contains(home), "\(r.stdout)")
            #expect(r.lines.count == 1, "\(r.stdout)")
        }
        let escaped = base.file("y\u{1B}[31m")
        try FileManager.default.createDirectory(atPath: escaped, withIntermediateDirectories: false)
        let r = try InProcess.apnsctl(
            ["config", "path"], environment: ["HOME": escaped, "XDG_CONFIG_HOME": ""], directory: base.path)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("\u{1B}") && r.stdout.contains("y\\u{1B}[31m"), "\(r.stdout)")
    }
}
