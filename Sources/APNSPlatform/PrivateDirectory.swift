import APNSCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// The one way to reach a file that holds a secret (the token cache, the mock's state dir and its lock, a
/// converted key). The directory is opened once without following a link and, when it must be ours, checked:
/// a directory owned by our uid that neither group nor others can write. Every file in it is then opened
/// relative to that descriptor with `O_NOFOLLOW` (reads with `O_NONBLOCK`, so a FIFO planted there is never
/// waited on) and checked with `fstat` to be a regular file we own; modes are set with `fchmod` on the
/// descriptor, never `chmod` on a path. So another local user can neither make us read their files nor write
/// through their links, whatever they plant or swap in the path.
public final class PrivateDirectory: Sendable {
    /// The path the directory was opened by (for messages and for paths handed to users).
    public let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Why a directory or a file in it was not used.
    public enum Failure: Error, Equatable, Sendable {
        /// Something another user could control (a link, a FIFO, someone else's file, a shared directory or a
        /// folder above it that others can write): refused, and nothing in it touched.
        case untrusted(path: String, reason: String, remedy: Remedy)
        /// An ordinary failure (missing, unreadable, cannot create).
        case file(FileSystem.Failure)

        /// `PATH: what is wrong with it`.
        public var message: String {
            switch self {
            case .untrusted(let path, let reason, _): return "\(path): \(reason)"
            case .file(let failure): return failure.message
            }
        }
    }

    /// What the user can do about an `.untrusted` entry at `path`; the caller words it with its own flags.
    public enum Remedy: Equatable, Sendable {
        /// Our directory, which others can write: closing it (`chmod 700`) is enough, as nothing in it was used.
        case closeMode
        /// A file in our directory that is a link, another user's or of the wrong kind: removed, it is made anew.
        case remove
        /// The directory is a link, another user's or no directory: moved aside (removing another user's folder
        /// may not be allowed), a new one is made in its place.
        case moveAside
        /// `folder`, above it, is ours but others can write it: closing that (`chmod go-w`) is enough.
        case closeFolderAbove(folder: String)
        /// A folder above is another user's (or root's, open to others): what is kept here belongs in a folder of
        /// the user's own.
        case chooseAnotherFolder
    }

    // MARK: - Opening the directory

    /// Opens the existing directory `path`, which must be ours (see the type's note).
    public static func open(_ path: String) throws(Failure) -> PrivateDirectory {
        let directory = try openDirectory(path)
        try directory.checkOurs()
        return directory
    }

    /// `open`, creating `path` with mode 0700 (and missing parents 0700, like `mkdir -p`) when it does not exist.
    public static func openOrCreate(_ path: String) throws(Failure) -> PrivateDirectory {
        var st = stat()
        if lstat(path, &st) != 0 && errno == ENOENT {
            // `path` itself too: root makes none of them inside another user's folder.
            do { try FileSystem.makeDirectories(path, mode: 0o700) } catch { throw .file(error) }
        }
        return try open(path)
    }

    /// The directory a user named for an output file (`apnsctl convert -o`): any owner, links in its path
    /// followed as the user wrote them; only the files are created relative to it without following links.
    public static func openChosen(_ path: String) throws(Failure) -> PrivateDirectory {
        let fd = SystemCall.openPath(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw .file(FileSystem.creationFailure(path: path, errno)) }
        return PrivateDirectory(path: path, fd: fd)
    }

    /// The directory part of `path` (`.` for a bare name).
    public static func parentPath(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    private static func openDirectory(_ path: String) throws(Failure) -> PrivateDirectory {
        let fd = SystemCall.openPath(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd >= 0 { return PrivateDirectory(path: path, fd: fd) }
        let e = errno
        var st = stat()
        if lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK {
            throw .untrusted(
                path: path, reason: "is a symbolic link (never followed for a directory that holds secrets)",
                remedy: .moveAside)
        }
        switch e {
        case ENOENT: throw .file(.missing(path: path))
        case ENOTDIR:
            // A file above it (`XDG_STATE_HOME` naming a file) is the one in the way: moving `path` aside could not work.
            throw .untrusted(
                path: firstNonDirectory(in: path) ?? path, reason: "is not a directory", remedy: .moveAside)
        default: throw .file(.unreadable(path: path, reason: FileSystem.errnoText(e)))
        }
    }

    /// The first folder on the way to `path` (`path` itself last) that exists and is not a directory.
    private static func firstNonDirectory(in path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            var st = stat()
            guard stat(prefix, &st) == 0 else { return nil }
            if (st.st_mode & S_IFMT) != S_IFDIR { return path.hasPrefix("/") ? prefix : String(prefix.dropFirst(2)) }
        }
        return nil
    }

    /// Owner and mode of the open directory: ours, and writable by nobody else.
    private func checkOurs() throws(Failure) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .file(.unreadable(path: path, reason: FileSystem.errnoText())) }
        if st.st_uid != geteuid() {
            // Inside a folder of that user too (another user's HOME), moving it aside would only make the next run
            // create one there, which is refused: another folder is the way.
            var parent = stat()
            let theirsAbove =
                stat(Self.parentPath(of: path), &parent) == 0 && parent.st_uid != geteuid() && parent.st_uid != 0
            throw .untrusted(
                path: path, reason: "belongs to \(FileOwnership.ownerName(st.st_uid)), not to you",
                remedy: theirsAbove ? .chooseAnotherFolder : .moveAside)
        }
        if st.st_mode & 0o022 != 0 {
            let who = st.st_mode & 0o020 != 0 ? (st.st_mode & 0o002 != 0 ? "group and others" : "its group") : "others"
            throw .untrusted(
                path: path, reason: "is writable by \(who) (mode \(FileOwnership.octal(st.st_mode)))",
                remedy: .closeMode)
        }
    }

    /// For a directory whose file another library opens by path (the history's database): every folder above
    /// it, by the path its descriptor has (no links), must be ours or root's and writable by nobody else, unless
    /// it is sticky as /tmp is (others cannot move what is ours there). Whoever could write one of them could
    /// otherwise swap the folders below it between this check and that open, and have their file opened as ours.
    public func checkFoldersAbove() throws(Failure) {
        guard var folder = Self.linkFreePath(of: fd, path: path) else { return }
        let me = geteuid()
        while folder != "/" {
            folder = Self.parentPath(of: folder)
            var st = stat()
            guard lstat(folder, &st) == 0 else {
                throw .file(.unreadable(path: folder, reason: FileSystem.errnoText()))
            }
            let swap = "who could swap the folders inside it for their own"
            if (st.st_mode & S_IFMT) != S_IFDIR {
                throw .untrusted(
                    path: path,
                    reason: "is under \(folder), which was swapped for \(FileOwnership.kindName(st.st_mode))",
                    remedy: .chooseAnotherFolder)
            }
            if st.st_uid != me && st.st_uid != 0 {
                throw .untrusted(
                    path: path,
                    reason: "is under \(folder), a folder of \(FileOwnership.ownerName(st.st_uid)), \(swap)",
                    remedy: .chooseAnotherFolder)
            }
            if let writers = FileOwnership.otherWriters(st.st_mode), st.st_mode & S_ISVTX == 0 {
                throw .untrusted(
                    path: path,
                    reason: "is under \(folder), a folder writable by \(writers) "
                        + "(mode \(FileOwnership.octal(st.st_mode)), not sticky), \(swap)",
                    remedy: st.st_uid == me ? .closeFolderAbove(folder: folder) : .chooseAnotherFolder)
            }
        }
    }

    /// Where the directory open as `fd` really is: `/proc/self/fd`'s answer, else `realpath` of `path`.
    private static func linkFreePath(of fd: Int32, path: String) -> String? {
        if let resolved = TrustedFile.canonicalPath(of: fd) { return resolved }
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// Sets the directory's own mode through its descriptor.
    public func setMode(_ mode: FileMode) { _ = fchmod(fd, mode_t(mode)) }

    /// Takes from the directory's own mode every permission bit `mode` lacks, keeping those the owner took away
    /// (a `chmod 500` stays 0500), and returns the mode it has then.
    @discardableResult
    public func narrowMode(to mode: FileMode) -> FileMode {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return mode }
        let permissions = FileMode(st.st_mode & 0o7777)
        guard permissions & ~mode != 0 else { return permissions }
        _ = fchmod(fd, mode_t(permissions & mode))
        return permissions & mode
    }

    // MARK: - Files in it

    /// `path/name`, for messages and for paths given to other programs.
    public func file(_ name: String) -> String { path + "/" + name }

    /// `name` in this directory by the directory's own path without links (the one its descriptor has, the
    /// directory checked), for a program that refuses a link anywhere in a path: SQLite's no-follow open refused
    /// a history under a home that is a link, or that is reached through one (/home → /data/home).
    public func fileWithoutLinks(_ name: String) -> String {
        (Self.linkFreePath(of: fd, path: path) ?? path) + "/" + name
    }

    /// Reads the regular file `name` that we own; a link, FIFO, device or another user's file is `.untrusted`.
    public func read(_ name: String, limit: Int = FileSystem.maximumReadSize) throws(Failure) -> [UInt8] {
        try readWithPermissions(name, limit: limit).bytes
    }

    /// `read`, with the file's permission bits as `fstat` gave them on the descriptor read (a secret that its
    /// group or others can read or write is not to be trusted, whoever owns it).
    public func readWithPermissions(_ name: String, limit: Int = FileSystem.maximumReadSize) throws(Failure)
        -> (bytes: [UInt8], permissions: FileMode)
    {
        let descriptor = try openFile(name, flags: O_RDONLY, mode: 0)
        defer { close(descriptor) }
        var st = stat()
        guard fstat(descriptor, &st) == 0 else {
            throw .file(.unreadable(path: file(name), reason: FileSystem.errnoText()))
        }
        let bytes = FileSystem.readAll(fd: descriptor, limit: limit + 1)
        guard bytes.count <= limit else {
            throw .file(.unreadable(path: file(name), reason: "more than \(limit) bytes"))
        }
        return (bytes, FileMode(st.st_mode & 0o7777))
    }

    /// The inode number of the entry `name` (not following a link), or nil when there is none.
    public func inode(_ name: String) -> UInt64? {
        var st = stat()
        guard fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return UInt64(st.st_ino)
    }

    /// Whether an entry called `name` exists (a link counts; it is not followed).
    public func contains(_ name: String) -> Bool {
        var st = stat()
        return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Whether the directory has no entries besides `.` and `..`.
    public var isEmpty: Bool {
        var empty = true
        forEachName { _ in
            empty = false
            return false
        }
        return empty
    }

    /// The names of its entries (not `.` and `..`), as read through its descriptor; empty when it cannot be listed.
    public var names: [String] {
        var all: [String] = []
        forEachName {
            all.append($0)
            return true
        }
        return all
    }

    /// Calls `body` with each entry's name until it returns false.
    private func forEachName(_ body: (String) -> Bool) {
        let copy = dup(fd)
        guard copy >= 0, let listing = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return
        }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." && !body(name) { return }
        }
    }

    /// Removes the entry `name` (a link itself, never its target).
    public func remove(_ name: String) { _ = unlinkat(fd, name, 0) }

    /// Writes `bytes` to `name` with `mode` (set with `fchmod`, so the umask cannot widen or narrow it), whole or
    /// not at all: the bytes go to a new temporary file in this directory, then renamed over `name` (`overwrite`:
    /// a link at `name` is replaced, never written through) or linked to it (`linkat`, which never replaces: an
    /// existing entry, a link included, is `.exists` and left alone). A reader, or a write cut short, never
    /// leaves half a file under `name`. A regular file replaced keeps its owner and group, as `cp` onto it would.
    public func write(_ bytes: [UInt8], to name: String, mode: FileMode, overwrite: Bool) throws(Failure) {
        // Not named after `name`: a name near the file system's limit would leave no room for a suffix.
        let temporary = ".apnsctl.tmp-\(UUIDString.random())"
        try create(bytes, at: temporary, mode: mode, reportedAs: name)
        defer { remove(temporary) }
        if overwrite {
            keepOwner(of: name, on: temporary)
            if renameat(fd, temporary, fd, name) != 0 {
                throw .file(FileSystem.replacementFailure(path: file(name), errno))
            }
            return
        }
        guard linkat(fd, temporary, fd, name, 0) != 0 else { return }
        let e = errno
        // A file system without hard links (FAT, some network mounts): created in place, O_EXCL never replacing.
        guard [EPERM, EOPNOTSUPP, ENOTSUP, ENOSYS, EXDEV, EMLINK].contains(e) else {
            throw .file(FileSystem.creationFailure(path: file(name), e))
        }
        try create(bytes, at: name, mode: mode, reportedAs: name)
    }

    /// Gives `replacement` the owner and group of the regular file `name` it is about to replace: `sudo apnsctl
    /// convert --force` over a user's file must not leave them a root-owned file they can no longer read. Only
    /// root can give a file away; for anyone else a differing owner stays theirs, which the rename makes anyway.
    private func keepOwner(of name: String, on replacement: String) {
        var old = stat()
        var new = stat()
        guard fstatat(fd, name, &old, AT_SYMLINK_NOFOLLOW) == 0, (old.st_mode & S_IFMT) == S_IFREG,
            fstatat(fd, replacement, &new, AT_SYMLINK_NOFOLLOW) == 0,
            old.st_uid != new.st_uid || old.st_gid != new.st_gid
        else { return }
        _ = fchownat(fd, replacement, old.st_uid, old.st_gid, AT_SYMLINK_NOFOLLOW)
    }

    /// Creates `target` (never there before, never through a link) holding `bytes` with `mode`; every write and the
    /// close checked (disk full, a size limit: exit 74), nothing left behind on failure. Messages name `name`.
    private func create(_ bytes: [UInt8], at target: String, mode: FileMode, reportedAs name: String) throws(Failure) {
        let out = SystemCall.openRelative(fd, target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        if out < 0 {
            let code = errno
            // The directory is open, so it exists: ENOENT is a file system that makes no files (/proc, /sys).
            if code == ENOENT {
                throw .file(.cannotCreate(path: file(name), reason: FileSystem.noNewFilesReason))
            }
            throw .file(FileSystem.creationFailure(path: file(name), code))
        }
        _ = fchmod(out, mode_t(mode))
        let sink = OutputSink(fd: out, name: file(name))
        sink.write(bytes)
        if let failure = sink.close() {
            remove(target)
            throw .file(.writeFailed(path: file(name), reason: failure.reason))
        }
    }

    /// Creates `name` holding `bytes` with `mode`, whole or not at all (`write` without `overwrite`): a reader sees
    /// no file or all of it; of two writers racing, one wins and the other gets `.exists` (and reads the winner's).
    public func publish(_ bytes: [UInt8], as name: String, mode: FileMode) throws(Failure) {
        try write(bytes, to: name, mode: mode, overwrite: false)
    }

    /// Runs `body` holding an exclusive `flock(2)` on the directory itself, taken through a descriptor of its own
    /// so that threads of one process exclude each other as processes do: for steps on its files that must not
    /// interleave. Nil, without running `body`, when the directory cannot be locked.
    func whileLocked<T>(_ body: () -> T) -> T? {
        let own = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard own >= 0 else { return nil }
        // Closing the descriptor lets go of the lock.
        defer { close(own) }
        while flock(own, LOCK_EX) != 0 {
            if errno != EINTR { return nil }
        }
        return body()
    }

    /// Opens (creating with `mode` when missing) the regular file `name` that we own for reading and writing, for
    /// a lock. The caller owns the returned descriptor.
    func openForLocking(_ name: String, mode: FileMode) throws(Failure) -> Int32 {
        let descriptor = try openFile(name, flags: O_RDWR | O_CREAT, mode: mode)
        _ = fchmod(descriptor, mode_t(mode))
        return descriptor
    }

    /// Checks the file `name` that another library opens by path (a database): a regular file we own, never a
    /// link, made with `mode` when `create` and it is missing. The directory is ours and closed to others, so the
    /// path keeps naming this file. Returns its permission bits, or nil when it is missing and not created.
    public func checkFile(_ name: String, creatingWith mode: FileMode?) throws(Failure) -> FileMode? {
        if mode == nil && !contains(name) { return nil }
        let descriptor = try openFile(name, flags: mode == nil ? O_RDONLY : O_RDONLY | O_CREAT, mode: mode ?? 0)
        defer { close(descriptor) }
        var st = stat()
        guard fstat(descriptor, &st) == 0 else {
            throw .file(.unreadable(path: file(name), reason: FileSystem.errnoText()))
        }
        // A new (empty) file gets exactly `mode`, whatever the umask took away.
        if let mode, st.st_size == 0 {
            _ = fchmod(descriptor, mode_t(mode))
            return mode
        }
        return FileMode(st.st_mode & 0o7777)
    }

    /// Takes from the file `name` (ours, never a link; a missing one is left missing) every permission bit
    /// `mode` lacks: a file that decides where a later command sends, widened by a `chmod` or another program,
    /// is narrowed again rather than trusted.
    public func restrict(_ name: String, to mode: FileMode) {
        guard contains(name), let descriptor = try? openFile(name, flags: O_RDONLY, mode: 0) else { return }
        defer { close(descriptor) }
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return }
        let permissions = FileMode(st.st_mode & 0o7777)
        if permissions & ~mode != 0 { _ = fchmod(descriptor, mode_t(permissions & mode)) }
    }

    /// Gives the file `name` (ours, never a link; a missing one is left missing) its owner's write permission:
    /// files made to match another's mode while that one was read-only (SQLite's log files) follow it back.
    public func allowOwnerWrite(_ name: String) {
        guard contains(name), let descriptor = try? openFile(name, flags: O_RDONLY, mode: 0) else { return }
        defer { close(descriptor) }
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return }
        let permissions = FileMode(st.st_mode & 0o7777)
        if permissions & 0o200 == 0 { _ = fchmod(descriptor, mode_t(permissions | 0o200)) }
    }

    /// `RegularFile.open` of `name` here: a regular file owned by us, never a link, never waited on.
    private func openFile(_ name: String, flags: Int32, mode: FileMode) throws(Failure) -> Int32 {
        let me = geteuid()
        do {
            return try RegularFile.open(name, in: fd, flags: flags, mode: mode) { $0 == me }.fd
        } catch {
            switch error {
            case .link:
                throw .untrusted(path: file(name), reason: "is a symbolic link (not followed)", remedy: .remove)
            case .missing: throw .file(.missing(path: file(name)))
            case .failed(EISDIR):
                throw .untrusted(path: file(name), reason: "is a directory, not a regular file", remedy: .moveAside)
            case .failed(let e): throw .file(.unreadable(path: file(name), reason: FileSystem.errnoText(e)))
            case .notRegular(let type):
                // A folder (opened for reading, it is no EISDIR) may hold what someone keeps: moved aside, not removed.
                throw .untrusted(
                    path: file(name), reason: "is \(FileOwnership.kindName(type)), not a regular file",
                    remedy: type == S_IFDIR ? .moveAside : .remove)
            case .owner(let uid):
                throw .untrusted(
                    path: file(name), reason: "belongs to \(FileOwnership.ownerName(uid)), not to you",
                    remedy: .remove)
            }
        }
    }
}

/// `open(2)` and `openat(2)`, named apart from the methods called `open` above.
enum SystemCall {
    static func openPath(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
    static func openRelative(_ fd: Int32, _ name: String, _ flags: Int32, _ mode: FileMode) -> Int32 {
        openat(fd, name, flags, mode_t(mode))
    }
}
