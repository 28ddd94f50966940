import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": the settings file decides where secrets go, so it is read only when it is ours: a link
/// is followed only when the user owns it, nothing in /proc, /sys or /dev is read, and the folder holding the
/// file must be writable by no one else; anything else is exit 64 saying whose it is and why. The user's own
/// links (a dotfiles repository) and root's files (`/etc`) stay usable.
@Suite struct SettingsFileTrustTests {
    static let settings = "[profiles.dev]\ntopic = \"com.example.app\"\n"

    /// A folder of the user's own, 0700, as `config init` makes one.
    static func privateFolder(_ base: TemporaryDirectory, _ name: String) throws -> String {
        let path = base.file(name)
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// `config show --config PATH` (the file is read before anything else happens).
    static func show(_ path: String, timeout: Double = 20) throws -> CommandResult {
        try InProcess.apnsctl(["config", "show", "dev", "--config", path], timeout: timeout)
    }

    /// A process of the other user that made itself not dumpable, as the attacker's did: the kernel then gives
    /// its /proc files to root (`/proc/PID/cmdline` looks root's, read-only, regular) though its owner decides
    /// what they say. Killed when the value goes away.
    final class NonDumpableProcess {
        let process = Process()
        var cmdline: String { "/proc/\(process.processIdentifier)/cmdline" }

        init() throws {
            // The system's python (a shim under /root would be out of the other user's reach); PR_SET_DUMPABLE is 4.
            process.executableURL = URL(fileURLWithPath: try CommandRunner.which("setpriv"))
            process.arguments =
                OtherUser.prefix() + [
                    "/usr/bin/python3", "-c",
                    "import ctypes, time; ctypes.CDLL(None).prctl(4, 0, 0, 0, 0); time.sleep(60)",
                ]
            try process.runAsAShellWould()
            // Given to root once python has run its prctl. Root's too, though, before that: while env and setpriv
            // run as root, and between setpriv's change of user and its exec. Python's own command line, given to
            // root, can only follow the prctl.
            let made = Wait.until(seconds: 10, interval: 0.005) { [cmdline] in
                (try? String(contentsOfFile: cmdline, encoding: .utf8))?.hasPrefix("/usr/bin/python3\0") == true
                    && OtherUser.ownerAndMode(cmdline)?.uid == 0
            }
            guard made else {
                kill(process.processIdentifier, SIGKILL)
                throw TestSupportError("the other user's python did not make itself non-dumpable within 10 s")
            }
        }

        deinit {
            // SIGKILL: the sleeper has nothing to finish, and nothing it could do delays the kill.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The user's own link into /proc, to their own command line or to the attacker's non-dumpable process's:
    /// refused for where it leads, not parsed.
    @Test(arguments: ["self", "other user's non-dumpable process"])
    func aLinkIntoProcIsRefused(_ target: String) throws {
        let base = try TemporaryDirectory(prefix: "proc-link")
        let folder = try Self.privateFolder(base, "config")
        var attacker: NonDumpableProcess? = nil
        let destination: String
        if target == "self" {
            destination = "/proc/self/cmdline"
        } else {
            try #require(OtherUser.isAvailable, "needs root to act as a second user")
            let process = try NonDumpableProcess()
            attacker = process
            destination = process.cmdline
            let owner = try #require(OtherUser.ownerAndMode(destination))
            try #require(owner.uid == 0 && owner.mode == 0o444, "the attacker's cmdline looks root's and read-only")
        }
        let link = folder + "/config.toml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: destination)

        let r = try Self.show(link)

        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.errorLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: \(link): leads to \(destination), which is in /proc ("), "\(r.stderr)")
        #expect(r.stderr.contains("files in /proc, /sys and /dev are never read"), "\(r.stderr)")
        withExtendedLifetime(attacker) {}
    }

    /// The attack as it was: the other user's link, in a folder of theirs the victim's settings point at, to
    /// their non-dumpable process's command line. Refused before anything is read.
    @Test(.enabled(if: OtherUser.isAvailable, "needs root to act as a second user"))
    func theirLinkToTheirProcessIsRefused() throws {
        let base = try TemporaryDirectory(prefix: "proc-attack")
        let other = try OtherUser.area(in: base)
        let attacker = try NonDumpableProcess()
        try OtherUser.run(["ln", "-s", attacker.cmdline, other + "/config.toml"])

        let r = try Self.show(other + "/config.toml")

        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.errorLines.count == 1
                && r.stderr.hasPrefix("error: \(other)/config.toml: is in \(other), a folder of user "),
            "\(r.stderr)")
        #expect(r.stderr.contains("(uid \(OtherUser.uid))"), "\(r.stderr)")
        // What to do: the folder's owner cannot be changed by the refused user, a copy of their own can be made.
        #expect(
            r.stderr.hasSuffix(
                "copy the file into a folder of your own (install -m 600) and give that copy, or run as the folder's owner\n"
            ), "\(r.stderr)")
        withExtendedLifetime(attacker) {}
    }

    /// `config show` of the user's own file in a folder of `mode` (and `group`), made for the test.
    static func showInFolder(mode: mode_t, group: uid_t? = nil) throws -> (String, String, CommandResult) {
        let base = try TemporaryDirectory(prefix: "writable-folder")
        let folder = base.file("shared")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        if let group { #expect(chown(folder, getuid(), group) == 0) }
        #expect(chmod(folder, mode) == 0)
        let file = try base.write("shared/config.toml", Self.settings, mode: 0o600)
        let r = try Self.show(file)
        return withExtendedLifetime(base) { (file, folder, r) }
    }

    /// The user's own file in a folder their group can write: the group could swap it, so it is refused.
    @Test(.enabled(if: OtherUser.isAvailable, "needs root to act as a second user"))
    func aFileInAGroupWritableFolderIsRefused() throws {
        let (file, folder, r) = try Self.showInFolder(mode: 0o2770, group: OtherUser.uid)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "error: \(file): is in \(folder), a folder writable by group (mode 02770), who could replace it; "
                    + "apnsctl reads only a settings file no one else can change, as ssh does: chmod go-w \(folder)"
            ],
            "\(r.stderr)")
    }

    /// The user's own file in a shared folder such as /tmp (writable by all, sticky): refused, and the advice is to
    /// move the file, never to change the shared folder's mode.
    @Test func aFileInASharedStickyFolderIsToldToMove() throws {
        let (file, folder, r) = try Self.showInFolder(mode: 0o1777)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "error: \(file): is in \(folder), a folder writable by group and others (mode 01777), who could replace "
                    + "it; apnsctl reads only a settings file no one else can change, as ssh does: \(folder) is shared "
                    + "by all users: keep the file in a folder of your own (mkdir -m 700 ~/apnsctl, say)"
            ],
            "\(r.stderr)")
    }

    /// A link another user owns, to the user's own good file: not followed.
    @Test(.enabled(if: OtherUser.isAvailable, "needs root to act as a second user"))
    func aLinkAnotherUserOwnsIsNotFollowed() throws {
        let base = try TemporaryDirectory(prefix: "their-link")
        let folder = try Self.privateFolder(base, "config")
        let real = try base.write("config/real.toml", Self.settings, mode: 0o600)
        let link = folder + "/config.toml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(lchown(link, OtherUser.uid, OtherUser.uid) == 0)

        let r = try Self.show(link)

        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.errorLines.count == 1 && r.stderr.hasPrefix("error: \(link): is a symbolic link owned by user "),
            "\(r.stderr)")
        #expect(
            r.stderr.contains("(uid \(OtherUser.uid)), not by you; a link is followed only when it is yours"),
            "\(r.stderr)")
    }

    /// `--config DIR`: a path to correct, not a file to distrust; the settings file in it is named, and ssh's
    /// rationale (about who can change a file) is not given.
    @Test func aFolderGivenAsTheFileNamesTheFileInIt() throws {
        let base = try TemporaryDirectory(prefix: "folder-settings")
        #expect(chmod(base.path, 0o700) == 0)
        // In a folder of the user's own, as ~/.config/apnsctl is (one in /tmp is refused for where it is).
        let folder = base.file("apnsctl")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let r = try Self.show(folder)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "error: \(folder): is a directory, not a regular file; --config names the settings file itself, such as \(folder)/config.toml"
            ], "\(r.stderr)")
        let variable = try InProcess.apnsctl(
            ["config", "show", "dev"], environment: ["APNSCTL_CONFIG": folder + "/"])
        #expect(variable.status == 64, "\(variable.stderr)")
        #expect(
            variable.stderr.hasSuffix(
                "; APNSCTL_CONFIG names the settings file itself, such as \(folder)/config.toml\n"),
            "\(variable.stderr)")
    }

    /// A FIFO is refused at once (64), never waited on.
    @Test func aFIFOIsRefusedAtOnce() throws {
        let base = try TemporaryDirectory(prefix: "fifo-settings")
        let fifo = base.file("config.toml")
        #expect(mkfifo(fifo, 0o600) == 0)

        let r = try Self.show(fifo)

        #expect(!r.timedOut && r.seconds < 5, "waited on the FIFO (\(r.seconds) s)")
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.errorLines.count == 1 && r.stderr.hasPrefix("error: \(fifo): is a FIFO, not a regular file"),
            "\(r.stderr)")
    }

    /// A dotfiles repository: the default location is the user's link (through a linked folder too) to their
    /// file elsewhere, a link to a link included. All read.
    @Test func theUsersOwnLinksAreFollowed() throws {
        let base = try TemporaryDirectory(prefix: "dotfiles")
        _ = try Self.privateFolder(base, "dotfiles/apnsctl")
        try base.write("dotfiles/apnsctl/config.toml", Self.settings, mode: 0o600)
        _ = try Self.privateFolder(base, "xdg")
        try FileManager.default.createSymbolicLink(
            atPath: base.file("xdg/apnsctl"), withDestinationPath: "../dotfiles/apnsctl")
        try FileManager.default.createSymbolicLink(
            atPath: base.file("elsewhere.toml"), withDestinationPath: "xdg/apnsctl/config.toml")
        let chained = try Self.privateFolder(base, "chained")
        try FileManager.default.createSymbolicLink(
            atPath: chained + "/config.toml", withDestinationPath: base.file("elsewhere.toml"))

        let viaDefault = try InProcess.apnsctl(
            ["config", "show", "dev"], environment: ["XDG_CONFIG_HOME": base.file("xdg")])
        #expect(viaDefault.status == 0, "\(viaDefault.stderr)")
        #expect(viaDefault.stdout.contains("com.example.app"), "\(viaDefault.stdout)")
        let viaChain = try Self.show(chained + "/config.toml")
        #expect(viaChain.status == 0, "\(viaChain.stderr)")
        #expect(viaChain.stdout.contains("com.example.app"), "\(viaChain.stdout)")
    }

    /// Root's file in root's folder, as in /etc, reached by another user through their own link: read.
    @Test(.enabled(if: OtherUser.isAvailable, "needs root to act as a second user"))
    func aRootOwnedTargetIsReadByAnotherUser() throws {
        let base = try TemporaryDirectory(prefix: "etc-style")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: base.path)
        let etc = base.file("etc")
        try FileManager.default.createDirectory(
            atPath: etc, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let file = try base.write("etc/config.toml", Self.settings, mode: 0o644)
        let theirs = try OtherUser.area(in: base, named: "user")
        try OtherUser.run(["ln", "-s", file, theirs + "/config.toml"])

        let direct = try OtherUser.run([CommandRunner.apnsctlPath, "config", "show", "dev", "--config", file])
        #expect(direct.stdout.contains("com.example.app"), "\(direct.stdout)")
        let linked = try OtherUser.run([
            CommandRunner.apnsctlPath, "config", "show", "dev", "--config", theirs + "/config.toml",
        ])
        #expect(linked.stdout.contains("com.example.app"), "\(linked.stdout)")
    }
}
