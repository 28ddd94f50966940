import Testing

@testable import APNSPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file-system steps other modules now take through APNSPlatform instead of libc: the mock's atomic
/// state dir (unique directory, rename), the settings file's checked open, `--devices`' input kinds.
@Suite struct FileSystemDirectoriesTests {
    /// A scratch directory under $TMPDIR, removed (one level deep) afterwards.
    final class Scratch {
        let path: String
        init() throws {
            let base = Environment.value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            guard let made = FileSystem.makeUniqueDirectory(template: base + "/apnsctl-platform-test.XXXXXX") else {
                throw FileSystem.Failure.cannotCreate(path: base, reason: FileSystem.errnoText())
            }
            path = made
        }
        func file(_ name: String) -> String { path + "/" + name }
        deinit {
            var names: [String] = []
            if let dir = opendir(path) {
                while let entry = readdir(dir) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) {
                        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if name != "." && name != ".." { names.append(name) }
                }
                closedir(dir)
            }
            for name in names { if rmdir(file(name)) != 0 { unlink(file(name)) } }
            rmdir(path)
        }
    }

    @Test func aUniqueDirectoryIsNewPrivateAndNamedAsItsTemplate() throws {
        let scratch = try Scratch()
        let first = try #require(FileSystem.makeUniqueDirectory(template: scratch.file("state.new-XXXXXX")))
        let second = try #require(FileSystem.makeUniqueDirectory(template: scratch.file("state.new-XXXXXX")))
        #expect(first != second)
        for made in [first, second] {
            #expect(
                made.hasPrefix(scratch.file("state.new-"))
                    && made.utf8.count == scratch.file("state.new-XXXXXX").utf8.count)
            #expect(!made.hasSuffix("XXXXXX"))
            #expect(FileSystem.entryKind(made) == .directory)
            var st = stat()
            #expect(stat(made, &st) == 0 && st.st_mode & 0o777 == 0o700)
        }
        #expect(FileSystem.makeUniqueDirectory(template: scratch.file("missing/x-XXXXXX")) == nil)
    }

    @Test func entryKindDoesNotFollowLinks() throws {
        let scratch = try Scratch()
        try FileSystem.write([1], to: scratch.file("plain"), overwrite: false)
        #expect(symlink(scratch.path, scratch.file("link")) == 0)
        #expect(FileSystem.entryKind(scratch.path) == .directory)
        #expect(FileSystem.entryKind(scratch.file("link")) == .symbolicLink)
        #expect(FileSystem.entryKind(scratch.file("plain")) == .other)
        #expect(FileSystem.entryKind(scratch.file("none")) == .none)
    }

    @Test func aDirectoryRenamesOntoNothingOrAnEmptyOneButNotOntoAFullOne() throws {
        let scratch = try Scratch()
        let made = try #require(FileSystem.makeUniqueDirectory(template: scratch.file("a-XXXXXX")))
        #expect(FileSystem.renameDirectory(made, to: scratch.file("state")) == .renamed)
        let again = try #require(FileSystem.makeUniqueDirectory(template: scratch.file("b-XXXXXX")))
        try FileSystem.write([1], to: again + "/inside", overwrite: false)
        #expect(FileSystem.renameDirectory(scratch.file("state"), to: again) == .targetNotEmpty)
        #expect(FileSystem.renameDirectory(scratch.file("gone"), to: scratch.file("elsewhere")) == .failed)
        unlink(again + "/inside")
        try FileSystem.makeDirectory(scratch.file("state"))
        FileSystem.removeEmptyDirectory(scratch.file("state"))
        #expect(FileSystem.entryKind(scratch.file("state")) == .none)
    }

    @Test func aTrustedFileIsCheckedOnItsDescriptorAndAFIFONeverWaitedOn() throws {
        let scratch = try Scratch()
        try FileSystem.write(Array("a = 1\n".utf8), to: scratch.file("settings.toml"), mode: 0o640, overwrite: false)
        #expect(try TrustedFile.read(scratch.file("settings.toml"), limit: 100) == Array("a = 1\n".utf8))
        #expect(throws: TrustedFile.Failure.tooLarge(path: scratch.file("settings.toml"), limit: 3)) {
            try TrustedFile.read(scratch.file("settings.toml"), limit: 3)
        }
        #expect(throws: TrustedFile.Failure.missing(path: scratch.file("none.toml"))) {
            try TrustedFile.read(scratch.file("none.toml"), limit: 100)
        }
        #expect(throws: TrustedFile.Failure.missing(path: scratch.file("none/x.toml"))) {
            try TrustedFile.read(scratch.file("none/x.toml"), limit: 100)
        }
        try FileSystem.makeDirectory(scratch.file("folder"))
        #expect(
            throws: TrustedFile.Failure.notAFile(
                path: scratch.file("folder"), reason: "is a directory, not a regular file")
        ) {
            try TrustedFile.read(scratch.file("folder"), limit: 100)
        }
        #expect(mkfifo(scratch.file("fifo"), 0o600) == 0)
        // No writer: a blocking open would hang here.
        #expect(
            throws: TrustedFile.Failure.notAFile(
                path: scratch.file("fifo"), reason: "is a FIFO, not a regular file")
        ) {
            try TrustedFile.read(scratch.file("fifo"), limit: 100)
        }
        #expect(chmod(scratch.file("settings.toml"), 0o620) == 0)
        #expect(
            throws: TrustedFile.Failure.untrusted(
                path: scratch.file("settings.toml"), reason: "is writable by group (mode 0620)",
                fix: "chmod go-w \(scratch.file("settings.toml"))")
        ) {
            try TrustedFile.read(scratch.file("settings.toml"), limit: 100)
        }
    }

    /// Links of our own are followed, to the end of a chain of at most `TrustedFile.maximumLinks`.
    @Test func ourLinksAreFollowedUpToTheLimit() throws {
        let scratch = try Scratch()
        try FileSystem.write(Array("x".utf8), to: scratch.file("real"), mode: 0o600, overwrite: false)
        var previous = "real"
        for n in 0...TrustedFile.maximumLinks {
            #expect(symlink(previous, scratch.file("link\(n)")) == 0)
            previous = "link\(n)"
        }
        #expect(try TrustedFile.read(scratch.file("link\(TrustedFile.maximumLinks - 1)"), limit: 10) == Array("x".utf8))
        #expect(
            throws: TrustedFile.Failure.untrusted(
                path: scratch.file("link\(TrustedFile.maximumLinks)"),
                reason: "leads through more than \(TrustedFile.maximumLinks) symbolic links", fix: nil)
        ) {
            try TrustedFile.read(scratch.file("link\(TrustedFile.maximumLinks)"), limit: 10)
        }
    }

    @Test func anInputFileKnowsWhetherItCanBeReadTwice() throws {
        let scratch = try Scratch()
        try FileSystem.write(Array("one\ntwo\n".utf8), to: scratch.file("devices"), overwrite: false)
        let input = try InputFile(path: scratch.file("devices"))
        #expect(input.kind == .regular)
        let first = input.lines()
        #expect(first.next() == "one" && first.next() == "two" && first.next() == nil)
        try input.rewind()
        let second = input.lines()
        #expect(second.next() == "one" && second.lineNumber == 1)
        #expect(try InputFile(path: scratch.path).kind == .directory)
        #expect(throws: FileSystem.Failure.missing(path: scratch.file("none"))) {
            try InputFile(path: scratch.file("none"))
        }
    }

    /// A file where a folder above goes (`XDG_STATE_HOME` naming a file): that file is the one named to move
    /// aside, not the folder below it, which `mv` could not reach.
    @Test func aFileAboveTheDirectoryIsTheOneNamed() throws {
        let scratch = try Scratch()
        let file = scratch.file("state")
        let fd = open(file, O_CREAT | O_WRONLY, 0o600)
        #expect(fd >= 0)
        close(fd)
        let below = file + "/apnsctl/history"
        #expect(
            throws: PrivateDirectory.Failure.untrusted(path: file, reason: "is not a directory", remedy: .moveAside)
        ) {
            try PrivateDirectory.openOrCreate(below)
        }
        #expect(
            throws: PrivateDirectory.Failure.untrusted(path: file, reason: "is not a directory", remedy: .moveAside)
        ) {
            try PrivateDirectory.open(file)
        }
    }

    /// `publish` creates a file whole or not at all and never replaces one: the second writer gets `.exists` and
    /// the first's bytes stay; no temporary file is left behind. `readWithPermissions` reports the mode as set.
    @Test func publishingNeverReplacesAndLeavesNoTemporaryFile() throws {
        let scratch = try Scratch()
        let dir = try PrivateDirectory.open(scratch.path)
        try dir.publish([1, 2, 3], as: "secret", mode: 0o600)
        #expect(throws: PrivateDirectory.Failure.file(.exists(path: scratch.file("secret")))) {
            try dir.publish([9, 9], as: "secret", mode: 0o600)
        }
        let read = try dir.readWithPermissions("secret")
        #expect(read.bytes == [1, 2, 3] && read.permissions == 0o600)
        var names: [String] = []
        if let listing = opendir(scratch.path) {
            while let entry = readdir(listing) {
                names.append(
                    withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                )
            }
            closedir(listing)
        }
        #expect(names.filter { $0 != "." && $0 != ".." } == ["secret"])
    }

    /// A file replaced by root keeps its owner and group (`sudo apnsctl convert --force` over a user's file leaves
    /// it theirs, as `cp` would); a new file is root's. Root alone can give a file away, so this runs as root only.
    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func aReplacedFileKeepsItsOwner() throws {
        let scratch = try Scratch()
        let theirs = scratch.file("theirs.pem")
        try FileSystem.write([1], to: theirs, mode: 0o600, overwrite: false)
        #expect(chown(theirs, 65534, 65534) == 0)
        try FileSystem.write([2, 3], to: theirs, mode: 0o600, overwrite: true)
        var st = stat()
        #expect(stat(theirs, &st) == 0)
        #expect(st.st_uid == 65534 && st.st_gid == 65534 && st.st_mode & 0o7777 == 0o600 && st.st_size == 2)
        let fresh = scratch.file("fresh.pem")
        try FileSystem.write([4], to: fresh, mode: 0o600, overwrite: true)
        #expect(stat(fresh, &st) == 0 && st.st_uid == 0)
    }

    /// Only the null device open for writing is: not another character device, a pipe or a regular file (the
    /// mock skips a log sent there, and must not skip one a reader is waiting for). The devices are nodes made in
    /// a scratch folder with the null device's number and another (`mknod`, which needs root; without it only the
    /// rest is checked), not the machine's own /dev entries.
    @Test func onlyTheNullDeviceIsTheNullDevice() throws {
        let scratch = try Scratch()
        var system = stat()
        #expect(stat("/dev/null", &system) == 0)
        let nullNode = scratch.path + "/null"
        let otherNode = scratch.path + "/other"
        var opened: [Int32] = []
        defer { for fd in opened where fd >= 0 { close(fd) } }
        if mknod(nullNode, S_IFCHR | 0o600, system.st_rdev) == 0,
            mknod(otherNode, S_IFCHR | 0o600, system.st_rdev + 2) == 0
        {
            let null = open(nullNode, O_WRONLY)
            let nullToRead = open(nullNode, O_RDONLY)
            let other = open(otherNode, O_RDONLY)
            opened += [null, nullToRead, other]
            #expect(null >= 0 && nullToRead >= 0 && other >= 0)
            #expect(FileSystem.isNullDevice(null))
            // Read-only, a write there fails: not a place output may be skipped.
            #expect(!FileSystem.isNullDevice(nullToRead))
            #expect(!FileSystem.isNullDevice(other))
        }
        let file = open(scratch.path + "/log", O_WRONLY | O_CREAT, 0o600)
        var pipeEnds: [Int32] = [-1, -1]
        #expect(pipe(&pipeEnds) == 0)
        opened += [file] + pipeEnds
        #expect(!FileSystem.isNullDevice(file))
        #expect(!FileSystem.isNullDevice(pipeEnds[1]))
        #expect(!FileSystem.isNullDevice(-1))
    }
}
