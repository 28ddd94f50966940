import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": the token cache is never reached through something that is not ours. A FIFO, a link
/// or another user's file at the cache path, or a linked cache dir, is skipped with a warning (a new token is
/// signed, nothing waits), and left as it is; with no home directory there is no cache, never one in /tmp.
@Suite struct TokenCacheHostileFilesTests {
    static let device = String(repeating: "5e", count: 32)

    static func sendArguments(_ mock: InProcessMock, authKey: String? = nil, caFile: String? = nil) -> [String] {
        [
            "send", "--endpoint", mock.endpoint, "--ca-file", caFile ?? mock.caFile, "--auth-key",
            authKey ?? mock.authKey,
            "--team-id", mock.teamID, "--topic", mock.bundleID, "-d", device, "--alert", "hi",
        ]
    }

    /// The cache file `send` uses for the mock's key under `cacheHome`.
    static func cacheFile(_ mock: InProcessMock, cacheHome: String) -> String {
        "\(cacheHome)/apnsctl/token-\(mock.teamID)-\(mock.keyID).jwt"
    }

    @Test func aFIFOAtTheCachePathIsSkippedWithAWarningAndNothingHangs() throws {
        let mock = try InProcessMock()
        let home = try TemporaryDirectory(prefix: "fifo-cache")
        try FileManager.default.createDirectory(
            atPath: home.file("apnsctl"), withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        let fifo = Self.cacheFile(mock, cacheHome: home.path)
        #expect(mkfifo(fifo, 0o600) == 0)

        let r = try InProcess.apnsctl(Self.sendArguments(mock), environment: ["XDG_CACHE_HOME": home.path], timeout: 20)

        #expect(!r.timedOut && r.seconds < 10, "send waited on the FIFO (\(r.seconds) s)")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("accepted"), "\(r.stdout)")
        #expect(
            r.errorLines == [
                "warning: \(fifo): is a FIFO, not a regular file; the provider token cache is skipped "
                    + "(a new token is signed and not stored); remove it, or pass --no-token-cache"
            ], "\(r.stderr)")
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "the FIFO is left as it was")
    }

    @Test func aLinkAtTheCachePathIsNeitherFollowedNorReplaced() throws {
        let mock = try InProcessMock()
        let home = try TemporaryDirectory(prefix: "link-cache")
        try FileManager.default.createDirectory(
            atPath: home.file("apnsctl"), withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        let target = try home.write("elsewhere.txt", "not a token\n", mode: 0o644)
        let link = Self.cacheFile(mock, cacheHome: home.path)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        let r = try InProcess.apnsctl(Self.sendArguments(mock), environment: ["XDG_CACHE_HOME": home.path], timeout: 20)

        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.errorLines.count == 1 && r.stderr.hasPrefix("warning: \(link): is a symbolic link (not followed)"),
            "\(r.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try home.read("elsewhere.txt") == "not a token\n")
        #expect(OtherUser.ownerAndMode(target)?.mode == 0o644)
    }

    @Test(.enabled(if: OtherUser.isAvailable, "needs root to act as a second user"))
    func anotherUsersFileAtTheCachePathIsSkippedAndLeftAlone() throws {
        let mock = try InProcessMock()
        let home = try TemporaryDirectory(prefix: "foreign-cache")
        try FileManager.default.createDirectory(
            atPath: home.file("apnsctl"), withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        let file = Self.cacheFile(mock, cacheHome: home.path)
        // A token their key signed would be refused by the signature check anyway; this one is theirs by owner.
        try "planted\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(chown(file, OtherUser.uid, OtherUser.uid) == 0)

        let r = try InProcess.apnsctl(Self.sendArguments(mock), environment: ["XDG_CACHE_HOME": home.path], timeout: 20)

        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.errorLines.count == 1 && r.stderr.hasPrefix("warning: \(file): belongs to user"), "\(r.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "planted\n")
        #expect(OtherUser.ownerAndMode(file)?.uid == OtherUser.uid)
    }

    /// The other user links the victim's cache dir (`$XDG_CACHE_HOME/apnsctl`) to a folder of theirs: the old
    /// `chmod` on the path changed that folder to 0700. Now the link is refused and the folder keeps its mode.
    @Test(.enabled(if: OtherUser.isAvailable, "needs root to act as a second user"))
    func aLinkedCacheDirIsSkippedAndItsTargetKeepsItsMode() throws {
        let mock = try InProcessMock()
        let base = try TemporaryDirectory(prefix: "linked-cache")
        let other = try OtherUser.area(in: base)
        let cacheHome = other + "/cache"
        try OtherUser.run(["mkdir", "-m", "0755", cacheHome, other + "/theirs"])
        try OtherUser.run(["ln", "-s", other + "/theirs", cacheHome + "/apnsctl"])

        let r = try InProcess.apnsctl(Self.sendArguments(mock), environment: ["XDG_CACHE_HOME": cacheHome], timeout: 20)

        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.errorLines.count == 1 && r.stderr.hasPrefix("warning: \(cacheHome)/apnsctl: is a symbolic link"),
            "\(r.stderr)")
        #expect(OtherUser.ownerAndMode(other + "/theirs")?.mode == 0o755, "the linked folder's mode changed")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: other + "/theirs").isEmpty, "a token was written there")
    }

    /// No home directory (`HOME` unset, as for a uid with no password entry: HomeDirectoryTests has the rule that
    /// finds none there): no cache (a warning), and nothing where the old code put it (`/tmp/.cache/apnsctl`),
    /// nor anywhere under a private TMPDIR.
    @Test func noHomeDirectoryMeansNoCacheAndNothingInTmp() throws {
        let mock = try InProcessMock()
        let base = try TemporaryDirectory(prefix: "no-home")
        let privateTmp = base.file("tmp")
        try FileManager.default.createDirectory(
            atPath: privateTmp, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o1777])

        let r = try InProcess.apnsctl(
            Self.sendArguments(mock), environment: ["TMPDIR": privateTmp], directory: base.path, timeout: 20,
            homeless: true)

        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "warning: no home directory ($HOME is unset and the password database gives this user no existing directory, "
                    + "and $XDG_CACHE_HOME is unset or relative): "
                    + "the provider token is not cached; set XDG_CACHE_HOME to a directory of yours to cache it, "
                    + "or pass --no-token-cache"
            ], "\(r.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: Self.cacheFile(mock, cacheHome: "/tmp/.cache")),
            "a token was cached in /tmp")
        #expect(try FileManager.default.contentsOfDirectory(atPath: privateTmp).isEmpty)
    }

    /// A `HOME` that names no directory (`/nonexistent`, Debian's for service users) is no home: the token is not
    /// cached, with the warning naming what `HOME` held, and nothing is made there (the home itself was made, with
    /// `.cache/apnsctl` and the send history's `.local/state/apnsctl` in it, when the process could).
    @Test func aHomeThatDoesNotExistIsNoHomeAndNothingIsMadeThere() throws {
        let mock = try InProcessMock()
        let base = try TemporaryDirectory(prefix: "missing-home")
        let missing = base.file("nonexistent")
        let r = try InProcess.apnsctl(
            Self.sendArguments(mock),
            environment: ["HOME": missing, "XDG_CACHE_HOME": "", "XDG_STATE_HOME": "", "XDG_CONFIG_HOME": ""],
            directory: base.path, timeout: 20)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "warning: no home directory ($HOME is \(missing), which does not exist, and $XDG_CACHE_HOME is unset "
                    + "or relative): the provider token is not cached; set XDG_CACHE_HOME to a directory of yours to cache it, "
                    + "or pass --no-token-cache",
                // The history, kept under the home too, is not recorded either, and that is said (it was silent).
                "warning: this send was not recorded in the history: no home directory ($HOME is \(missing), which does "
                    + "not exist, and $XDG_STATE_HOME is unset or relative); set XDG_STATE_HOME to a folder of yours to "
                    + "keep the history, or pass --no-history",
            ], "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing), "the missing home was made")

        // The mock without --state-dir: refused, saying the same, and nothing made there either.
        let started = try InProcess.apnsctl(
            ["mock", "--port", "0"], environment: ["HOME": missing, "XDG_STATE_HOME": ""], directory: base.path,
            timeout: 15)
        #expect(started.status == 73, "\(started.stderr)")
        #expect(
            started.stderr.hasPrefix(
                "error: no home directory for the default --state-dir ($HOME is \(missing), which does not exist"),
            "\(started.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing), "the missing home was made")
    }

    /// The mock without `--state-dir` and without a home: refused with the advice, never a dir under /tmp.
    @Test func noHomeDirectoryMeansTheMockAsksForAStateDir() throws {
        let base = try TemporaryDirectory(prefix: "no-home-mock")
        let r = try InProcess.apnsctl(
            ["mock", "--port", "0"], directory: base.path, timeout: 15, homeless: true)
        #expect(r.status == 73, "\(r.stderr)")
        #expect(
            r.errorLines.count == 1 && r.stderr.hasPrefix("error: no home directory for the default --state-dir"),
            "\(r.stderr)")
        #expect(r.stderr.contains("--state-dir \"$(mktemp -d)\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).isEmpty, "nothing made where it ran")
    }
}
