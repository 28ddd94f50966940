import APNSTestSupport
import Foundation
import Testing

@testable import APNSHistory

/// A history that cannot be written never costs the send: a read-only, damaged, locked or full database, a
/// link or another user's file at its place each give one warning, and the send's exit status is unchanged.
@Suite struct HistoryFailureTests {
    static let device = "ef00000000000000000000000000000000000000000000000000000000000001"

    /// Sends one push and expects it accepted, with exactly one warning that contains `why`.
    func expectSentWithOneWarning(
        _ home: HistoryHome, _ mock: InProcessMock, _ why: String, _ extra: [String: String] = [:]
    ) throws {
        let r = try home.send(mock, ["-d", Self.device], extra)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("accepted  200  "), "\(r.stdout)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(lines.first?.hasPrefix("warning: this send was not recorded in the history: ") == true, "\(r.stderr)")
        #expect(r.stderr.contains(why), "\(r.stderr)")
    }

    /// The history folder, made as apnsctl would (0700), with nothing in it.
    func makeFolder(_ home: HistoryHome) throws {
        try FileManager.default.createDirectory(
            atPath: home.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The history decides where a replay sends: a database, log or folder that a `chmod` widened is narrowed
    /// again (0600, 0700) by the next send or `history` command, as the token cache is, not used as it is.
    @Test func aWidenedHistoryIsNarrowedAgain() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        #expect(try home.send(mock, ["-d", Self.device]).status == 0)
        func mode(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
        }
        let files = [home.database, home.database + "-wal", home.database + "-shm"].filter {
            FileManager.default.fileExists(atPath: $0)
        }
        #expect(files.count >= 1)
        for widened in [0o666, 0o644] {
            for file in files { chmod(file, mode_t(widened)) }
            chmod(home.folder, 0o755)
            let list = try home.run(["history", "list"])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(files.map(mode) == files.map { _ in 0o600 }, "history list, from \(String(widened, radix: 8))")
            for file in files { chmod(file, mode_t(widened)) }
            let r = try home.send(mock, ["-d", Self.device])
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
            #expect(files.map(mode) == files.map { _ in 0o600 }, "send, from \(String(widened, radix: 8))")
            #expect(mode(home.folder) == 0o700)
        }
        chmod(home.database, 0o400)
        #expect(try home.run(["history", "list"]).status == 0)
        #expect(mode(home.database) == 0o400, "a read-only history stays read-only")
        chmod(home.database, 0o600)
    }

    /// `history show last | head -1`: the reader gone is said as how far it read, as send says it, not as a bare
    /// "Broken pipe"; exit 74 stays.
    @Test func aReaderGoneFromHistoryOutputIsSaidAsHowFarItRead() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        #expect(try home.send(mock, ["-d", Self.device]).status == 0)
        for (arguments, what) in [(["history", "show", "last"], "entry #1"), (["history"], "the list of entries")] {
            let t = TestWorld(variables: home.environment, output: MemoryOutput(failingAfter: 5, with: EPIPE))
            #expect(t.run(arguments) == 74, "\(arguments): \(t.stderr.text)")
            #expect(
                t.stderr.lines.first?.hasPrefix("error: standard output was closed after 0 of ") == true
                    && t.stderr.text.hasSuffix("; the rest of \(what) was not printed\n"),
                "\(arguments): \(t.stderr.text)")
            let full = TestWorld(variables: home.environment, output: MemoryOutput(failingAfter: 5, with: ENOSPC))
            #expect(full.run(arguments) == 74)
            #expect(
                full.stderr.text
                    == "error: writing standard output: No space left on device; \(what) was not printed whole\n",
                "\(arguments): \(full.stderr.text)")
        }
    }

    @Test func aReadOnlyDatabase() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        #expect(try home.send(mock, ["-d", Self.device]).stderr.isEmpty)
        #expect(chmod(home.database, 0o400) == 0)
        try expectSentWithOneWarning(
            home, mock,
            "\(home.database): the database is read-only; make it writable (chmod u+w \(home.database)) to record "
                + "sends again, or pass --no-history")
        // Still readable: one entry, the first send's.
        #expect(try home.run(["history"]).lines.count == 1)
        // Read, but not written: `clear` is output that could not be written (74), saying what to do.
        let cleared = try home.run(["history", "clear", "--yes"])
        #expect(cleared.status == 74, "\(cleared.stderr)")
        #expect(
            cleared.stderr.hasSuffix(": the database is read-only; make it and its folder writable to clear it\n"),
            "\(cleared.stderr)")
        #expect(try home.run(["history"]).lines.count == 1)
        // The advice followed: the next send is recorded. SQLite makes its shared-memory file with the database's
        // mode, so one made while the database was read-only stays 0400 after `chmod u+w`, and every later send of
        // a user other than root still said the database was read-only: it follows the database back.
        #expect(chmod(home.database, 0o600) == 0)
        let shm = home.database + "-shm"
        if !FileManager.default.fileExists(atPath: shm) {
            #expect(FileManager.default.createFile(atPath: shm, contents: nil))
        }
        #expect(chmod(shm, 0o400) == 0)
        let after = try home.send(mock, ["-d", Self.device])
        #expect(after.status == 0 && after.stderr.isEmpty, "\(after.stderr)")
        #expect(try home.run(["history"]).lines.count == 2)
        #expect(OtherUser.ownerAndMode(shm)?.mode == 0o600, "\(String(describing: OtherUser.ownerAndMode(shm)))")
    }

    /// A folder its owner made read-only (`chmod 500`) stays so, root's too: the send goes out, nothing is
    /// recorded, and the one warning says how to undo it; the entries already there are kept.
    @Test func aReadOnlyFolderIsKeptReadOnly() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        #expect(try home.send(mock, ["-d", Self.device]).stderr.isEmpty)
        #expect(chmod(home.folder, 0o500) == 0)
        defer { chmod(home.folder, 0o700) }
        try expectSentWithOneWarning(
            home, mock,
            "\(home.folder): the folder is read-only (mode 0500); make it writable (chmod u+w \(home.folder)) to "
                + "record sends again, or pass --no-history")
        let mode = (try? FileManager.default.attributesOfItem(atPath: home.folder)[.posixPermissions]) as? Int
        #expect(mode == 0o500, "the folder's mode was changed")
        chmod(home.folder, 0o700)
        #expect(try home.run(["history"]).lines.count == 1, "the second send was recorded")
    }

    /// A folder that cannot be made (the kernel's /proc takes none) and a directory where the database belongs
    /// each say what to do, not only the system's words.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func aPlaceThatCannotHoldTheHistorySaysWhatToDo() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let sent = try home.send(mock, ["-d", Self.device], ["XDG_STATE_HOME": "/proc/apnsctl-history-test"])
        #expect(sent.status == 0)
        #expect(
            sent.stderr.hasSuffix("; set XDG_STATE_HOME to a folder you can write, or pass --no-history\n"),
            "\(sent.stderr)")
        try makeFolder(home)
        try FileManager.default.createDirectory(atPath: home.database, withIntermediateDirectories: false)
        try expectSentWithOneWarning(
            home, mock,
            "\(home.database): is a directory, not a regular file; move it aside (mv \(home.database) "
                + "\(home.database).old), or pass --no-history")
        // `history` reads it, and says the same: a folder may hold what someone keeps, so not "remove it".
        let list = try home.run(["history"])
        #expect(list.status == 66, "\(list.stderr)")
        #expect(
            list.stderr.hasPrefix(
                "error: \(home.database): is a directory, not a regular file; move it aside (mv \(home.database) "),
            "\(list.stderr)")
    }

    /// `XDG_STATE_HOME` naming a file: no send can record there, and `history` says so (66) rather than "no send
    /// is recorded yet", which read as "you never sent anything".
    @Test func aStateHomeThatIsAFileIsSaidNotTakenForAnEmptyHistory() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let file = try home.root.write("not-a-folder", "x\n")
        let sent = try home.send(mock, ["-d", Self.device], ["XDG_STATE_HOME": file])
        #expect(sent.status == 0)
        #expect(sent.stderr.contains("this send was not recorded in the history"), "\(sent.stderr)")
        for command in [["history"], ["history", "show", "last"]] {
            let r = try home.run(command, ["XDG_STATE_HOME": file])
            #expect(r.status == 66, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("not a directory"), "\(command): \(r.stderr)")
            #expect(!r.stderr.contains("no send is recorded"), "\(command): \(r.stderr)")
        }
    }

    @Test func aDamagedFileAndWhatHistorySaysAboutIt() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        try makeFolder(home)
        let garbage = [UInt8](repeating: 0x5a, count: 8192)
        #expect(
            FileManager.default.createFile(
                atPath: home.database, contents: Data(garbage), attributes: [.posixPermissions: 0o600]))
        // The send's warning says what to do too, as `history` does.
        try expectSentWithOneWarning(
            home, mock,
            "not a history database, or a damaged one; move it aside (mv \(home.database) "
                + "\(home.database).broken, with its -wal and -shm files if there are any) and the next send starts a "
                + "new history, or pass --no-history")
        let list = try home.run(["history"])
        #expect(list.status == 66)
        #expect(list.stderr.contains("mv \(home.database) \(home.database).broken"), "\(list.stderr)")
        let show = try home.run(["history", "show", "last"])
        #expect(show.status == 66)
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.database)) == Data(garbage), "left as it was")
    }

    /// Another program's SQLite database at the history's place (a layout version of 0 with tables of its own) is
    /// not a history database either: the same advice, never SQLite's "table entries already exists", and no
    /// table of ours added to it.
    @Test func anotherProgramsDatabaseIsNoHistory() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        try makeFolder(home)
        let other = try SQLiteConnection.open(home.database, readOnly: false, busyMilliseconds: 100)
        try other.execute("CREATE TABLE entries(x)")
        chmod(home.database, 0o600)
        try expectSentWithOneWarning(home, mock, "not a history database")
        let list = try home.run(["history"])
        #expect(list.status == 66)
        #expect(list.stderr.contains("mv \(home.database) \(home.database).broken"), "\(list.stderr)")
        #expect(!list.stderr.contains("already exists"), "\(list.stderr)")
        #expect(list.stderr.contains("with its -wal and -shm files if there are any"), "\(list.stderr)")
        #expect(try other.integer("SELECT count(*) FROM sqlite_master") == 1, "nothing of ours added")
        // Read-only, it is still named for what it is, not for its mode.
        chmod(home.database, 0o400)
        let readOnly = try home.run(["history"])
        #expect(readOnly.status == 66)
        #expect(readOnly.stderr.contains("not a history database"), "\(readOnly.stderr)")
    }

    /// A value no send records (a duration of 1e308 ms, NaN) or a layout not the history's (a table dropped) is a
    /// damaged history: exit 66 with the advice, never a crash or SQLite's own words.
    @Test func aDamagedValueOrLayoutIsADamagedHistory() throws {
        let mock = try InProcessMock()
        let show = [["history", "show", "last"], ["history", "show", "last", "-o", "json"]]
        let all = [["history"], ["history", "-o", "json"]] + show
        // An entry's own damage shows in every command; its results' only where they are read.
        for (damage, commands) in [
            ("UPDATE entries SET duration_ms = 1e308", all), ("UPDATE entries SET duration_ms = -1e20", all),
            ("ALTER TABLE entries DROP COLUMN outcome", all),
            // A column its version has not added yet, which the next step would add again.
            ("PRAGMA user_version = 7", all), ("ALTER TABLE entries ADD COLUMN note TEXT", all),
            // A version below 0 was the step to start from (a crash of history and of every send), and a start
            // at Int64.min overflowed the JSON's date.
            ("PRAGMA user_version = -1", all), ("UPDATE entries SET started = -9223372036854775808", all),
            ("UPDATE result_chunks SET data = x'01000140' || zeroblob(64) || x'000000000000f87f'", show),
            ("DROP TABLE result_chunks", show),
        ] {
            let home = try HistoryHome()
            let sent = try home.send(mock, ["--alert", "hi", "-d", String(repeating: "ab", count: 32)])
            #expect(sent.status == 0, "\(sent.stderr)")
            try SQLiteConnection.open(home.database, readOnly: false, busyMilliseconds: 1000).execute(damage)
            let advice = "not a history database, or a damaged one; move it aside (mv \(home.database) "
            let said = try commands.map { try home.run($0) }
            #expect(
                said.allSatisfy { $0.status == 66 && $0.stderr.contains(advice) }, "\(damage): \(said.map(\.stderr))")
            // A layout not the history's: a send still goes out, with the history's one warning (a damaged value
            // is in rows a send does not read).
            guard !damage.hasPrefix("UPDATE") else { continue }
            let again = try home.send(mock, ["--alert", "hi", "-d", String(repeating: "ab", count: 32)])
            #expect(
                again.status == 0 && again.stderr.contains("this send was not recorded in the history"),
                "\(damage): \(again.stderr)")
        }
    }

    @Test func aSymbolicLinkIsNeverFollowed() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        try makeFolder(home)
        let target = home.root.file("elsewhere.db")
        #expect(FileManager.default.createFile(atPath: target, contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: home.database, withDestinationPath: target)
        try expectSentWithOneWarning(home, mock, "symbolic link")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).isEmpty)
    }

    /// A refused place says what to do about it: close a folder that others can write, move a link aside, keep
    /// the history elsewhere when a folder above it could be swapped (SQLite opens the file by path, after the
    /// check). The history commands say the same, as exit 66.
    @Test func aRefusedPlaceSaysWhatToDo() throws {
        let mock = try InProcessMock()
        let swapped = "who could swap the folders inside it for their own"
        // The folder above made with `mode`, writable by `writers`.
        let above = [(0o777 as mode_t, "group and others"), (0o775, "group")].map { mode, writers in
            (
                "a folder above it writable by \(writers)",
                { (home: HistoryHome) throws in
                    try FileManager.default.createDirectory(
                        atPath: home.root.file("state"), withIntermediateDirectories: false)
                    chmod(home.root.file("state"), mode)
                },
                { (home: HistoryHome) in
                    let state = Self.linkFree(home.root.file("state"))
                    return "\(home.folder): is under \(state), a folder writable by \(writers) (mode "
                        + "0\(String(mode, radix: 8)), not sticky), \(swapped); close that folder (chmod go-w \(state)) "
                        + "or set XDG_STATE_HOME to another of yours"
                }
            )
        }
        let cases: [(String, (HistoryHome) throws -> Void, (HistoryHome) -> String)] =
            above + [
                (
                    "a folder of ours that others can write",
                    { home in
                        try makeFolder(home)
                        chmod(home.folder, 0o777)
                    },
                    { "\($0.folder): is writable by group and others (mode 0777); close it (chmod 700 \($0.folder))" }
                ),
                (
                    "a log that is a link",
                    { home in
                        try makeFolder(home)
                        let target = try home.root.write("elsewhere-wal", "", mode: 0o600)
                        try FileManager.default.createSymbolicLink(
                            atPath: home.database + "-wal", withDestinationPath: target)
                    },
                    { "\($0.database)-wal: is a symbolic link (not followed); remove it" }
                ),
                (
                    "a shared-memory file that is a FIFO",
                    { home in
                        try makeFolder(home)
                        #expect(mkfifo(home.database + "-shm", 0o600) == 0)
                    },
                    { "\($0.database)-shm: is a FIFO, not a regular file; remove it" }
                ),
                (
                    "a history folder that is a link",
                    { home in
                        try FileManager.default.createDirectory(
                            atPath: home.root.file("elsewhere"), withIntermediateDirectories: false,
                            attributes: [.posixPermissions: 0o700])
                        try FileManager.default.createDirectory(
                            atPath: home.root.file("state"), withIntermediateDirectories: false)
                        try FileManager.default.createSymbolicLink(
                            atPath: home.folder, withDestinationPath: home.root.file("elsewhere"))
                    },
                    {
                        "\($0.folder): is a symbolic link (never followed for a directory that holds secrets); move it "
                            + "aside (mv \($0.folder) \($0.folder).old)"
                    }
                ),
            ]
        for (what, make, said) in cases {
            let home = try HistoryHome()
            try make(home)
            let r = try home.send(mock, ["-d", Self.device])
            #expect(r.status == 0, "\(what): \(r.stderr)")
            #expect(
                r.errorLines == [
                    "warning: this send was not recorded in the history: \(said(home)), or pass --no-history"
                ],
                "\(what)")
            let list = try home.run(["history"])
            #expect(list.status == 66, "\(what): \(list.stderr)")
            #expect(list.errorLines == ["error: \(said(home))"], "\(what)")
        }
    }

    /// `path` as the system names it (no links, no doubled slashes), as a folder above the history is named.
    static func linkFree(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// A sticky folder that all can write (/tmp, or a home made in one) cannot have what is ours moved: the
    /// history is kept under it.
    @Test func aStickySharedFolderAboveItIsNoProblem() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        try FileManager.default.createDirectory(atPath: home.root.file("state"), withIntermediateDirectories: false)
        chmod(home.root.file("state"), 0o1777)
        let r = try home.send(mock, ["-d", Self.device])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(try home.run(["history"]).lines.count == 1)
    }

    @Test(.enabled(if: OtherUser.isAvailable)) func aFolderAboveItOfAnotherUserIsRefused() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let state = home.root.file("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        chmod(state, 0o777)
        #expect(chown(state, OtherUser.uid, OtherUser.uid) == 0)
        // The history's folder already there (root makes none inside another user's folder): the one above is the
        // one refused.
        try makeFolder(home)
        let owner = getpwuid(OtherUser.uid).map { "user \(String(cString: $0.pointee.pw_name)) " } ?? ""
        try expectSentWithOneWarning(
            home, mock,
            "\(home.folder): is under \(Self.linkFree(state)), a folder of \(owner)(uid \(OtherUser.uid)), who could swap the "
                + "folders inside it for their own; set XDG_STATE_HOME to a folder of yours, or pass --no-history")
    }

    /// Root with another user's HOME (`sudo -E`, a container): the history folder would be made root's, 0700,
    /// inside that user's home, and their own apnsctl could no longer use it (nor anything else their `~/.local`).
    /// Nothing is made there; the warning says why and what to do.
    @Test(.enabled(if: OtherUser.isAvailable)) func rootMakesNoFolderInAnotherUsersHome() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let theirs = try OtherUser.area(in: home.root, named: "bob")
        try expectSentWithOneWarning(
            home, mock,
            "it would be root's, inside \(theirs.replacingOccurrences(of: "//", with: "/")), a folder of user nobody (uid 65534), who could then not use it "
                + "(sudo -E and containers keep another user's HOME); set XDG_STATE_HOME to a "
                + "folder you can write, or pass --no-history",
            ["HOME": theirs, "XDG_STATE_HOME": ""])
        #expect(!FileManager.default.fileExists(atPath: theirs + "/.local"))
        // Their `~/.local/state` already there (the common case): the history's own folder is not made in it either.
        let state = theirs + "/.local/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        for folder in [theirs + "/.local", state] { #expect(chown(folder, OtherUser.uid, OtherUser.uid) == 0) }
        try expectSentWithOneWarning(
            home, mock, "\(state.replacingOccurrences(of: "//", with: "/"))/apnsctl: cannot create: it would be root's",
            ["HOME": theirs, "XDG_STATE_HOME": ""])
        #expect(!FileManager.default.fileExists(atPath: state + "/apnsctl"))
        // Nor a mock's state dir, which it makes by renaming a folder made beside it.
        let mockDir = theirs + "/mock"
        let refused = try InProcess.apnsctl(["mock", "--state-dir", mockDir, "--port", "0"], timeout: 20)
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("cannot create: it would be root's"), "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("error: --state-dir "), "\(refused.stderr)")
        // The default one is named as what it is: no --state-dir was typed.
        let byDefault = try InProcess.apnsctl(
            ["mock", "--port", "0"], environment: ["HOME": theirs, "XDG_STATE_HOME": ""], timeout: 20)
        #expect(byDefault.status == 73, "\(byDefault.stderr)")
        #expect(
            byDefault.stderr.hasPrefix("error: the mock's state dir \(state)/apnsctl/mock: "),
            "\(byDefault.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: theirs).sorted() == [".local"])
    }

    /// That user's own history folder, inside their home: moving it aside (the advice for a folder of another's
    /// in a place of ours) would only lead to the refusal above, so another folder is the advice.
    @Test(.enabled(if: OtherUser.isAvailable)) func anotherUsersFolderInTheirHomeIsNotMovedAside() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let theirs = try OtherUser.area(in: home.root, named: "bob")
        try FileManager.default.createDirectory(
            atPath: theirs + "/.local/state/apnsctl", withIntermediateDirectories: true)
        for folder in [".local", ".local/state", ".local/state/apnsctl"] {
            #expect(chown(theirs + "/" + folder, OtherUser.uid, OtherUser.uid) == 0)
        }
        try expectSentWithOneWarning(
            home, mock, "not to you; set XDG_STATE_HOME to a folder of yours, or pass --no-history",
            ["HOME": theirs, "XDG_STATE_HOME": ""])
    }

    @Test(.enabled(if: OtherUser.isAvailable)) func anotherUsersFileIsNotUsed() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        try makeFolder(home)
        #expect(
            FileManager.default.createFile(
                atPath: home.database, contents: Data(), attributes: [.posixPermissions: 0o666]))
        #expect(chown(home.database, OtherUser.uid, OtherUser.uid) == 0)
        try expectSentWithOneWarning(home, mock, "not to you")
        #expect(OtherUser.ownerAndMode(home.database)?.uid == OtherUser.uid)
    }

    @Test func aDatabaseLockedLongerThanTwoSeconds() async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let home = try HistoryHome()
            #expect(try home.send(mock, ["-d", Self.device]).stderr.isEmpty)
            let holder = try SQLiteConnection.open(home.database, readOnly: false, busyMilliseconds: 0)
            try holder.execute("BEGIN EXCLUSIVE")
            try expectSentWithOneWarning(home, mock, "locked for more than 2 s")
            // The holder may be any program (sqlite3 too); a history command is told to try again.
            let cleared = try home.run(["history", "clear", "--yes"])
            #expect(cleared.status == 66, "\(cleared.stderr)")
            #expect(
                cleared.stderr.hasSuffix(
                    ": another program (a send, a history command) kept the database locked for more than 2 s; try again once it is done\n"
                ), "\(cleared.stderr)")
            try holder.execute("ROLLBACK")
            #expect(try home.run(["history"]).lines.count == 1)
        }
    }

    /// A full disk: the history's folder on a small tmpfs filled up (needs root and mount; skipped otherwise).
    @Test(.enabled(if: OtherUser.isAvailable)) func aFullDisk() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        try makeFolder(home)
        let mounted = try CommandRunner.run("mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", home.folder])
        guard mounted.status == 0 else { return }
        defer { _ = try? CommandRunner.run("umount", [home.folder]) }
        let filler = home.folder + "/filler"
        // Written until the disk refuses (the write fails part-way, leaving the tmpfs full).
        try? Data(count: 1 << 20).write(to: URL(fileURLWithPath: filler))
        try expectSentWithOneWarning(home, mock, home.database)
    }

    @Test func eightSendsAtOnceAreEachRecordedOnce() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let results = LockedResults()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let token = "e1" + String(repeating: "0", count: 61) + String(i)
            let r = try? home.send(mock, ["-d", token, "-d", HistoryFailureTests.device])
            results.append(r)
        }
        for r in results.items {
            #expect(r?.status == 0)
            #expect(r?.stderr.isEmpty == true, "\(r?.stderr ?? "no run")")
        }
        let list = try HistoryHome.objects(try home.run(["history", "list", "-o", "json"]))
        #expect(list.count == 8)
        #expect(Set(list.compactMap { $0["id"] as? Int }).count == 8)
        #expect(list.allSatisfy { $0["targets"] as? Int == 2 })
    }
}

/// Command results gathered from several threads.
final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [CommandResult?] = []
    func append(_ r: CommandResult?) { lock.withLock { list.append(r) } }
    var items: [CommandResult?] { lock.withLock { list } }
}
