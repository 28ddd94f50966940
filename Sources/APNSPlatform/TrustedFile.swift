import CPlatform

#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// A file that decides where secrets go (the settings file, the mock's `mock.json`: they name the endpoint,
/// the CA and the credentials), read only when it is ours. Whoever else could write it would pick the server
/// that receives the user's provider token. So, step by step:
///
/// - the directory holding the file is opened (links on the way there followed, so the directory checked is
///   the one the file really is in) and must belong to the user or root and be writable by neither group nor
///   others;
/// - the file itself is looked at without following a link: a link is followed only when the user owns it,
///   and its target then goes through the same steps (at most `maximumLinks` links);
/// - the file is opened without following a link and without blocking (a FIFO is refused at once, never
///   waited on) and checked on the opened descriptor: a regular file of the user or root, writable by neither
///   group nor others;
/// - nothing in `/proc`, `/sys` or `/dev` is read, whatever it looks like (a non-dumpable process's
///   `/proc/PID/cmdline` seems root's, read-only and regular, yet its owner writes it).
public enum TrustedFile {
    /// Why `read` gave nothing.
    public enum Failure: Error, Equatable, Sendable {
        /// Nothing at `path`.
        case missing(path: String)
        /// A folder on the way cannot be searched (another user's HOME, as under `sudo -u`): whether a file is
        /// there cannot be known.
        case unseen(path: String, reason: String)
        /// It exists but cannot be read (`reason` is the system's).
        case unreadable(path: String, reason: String)
        /// More than the `limit` the caller gave.
        case tooLarge(path: String, limit: Int)
        /// Refused because it is not ours: `reason` says whose it is and why, `fix` what to run (if anything).
        case untrusted(path: String, reason: String, fix: String?)
        /// A directory, FIFO or device where a file belongs (`reason` says which): a path to correct, whoever
        /// owns it.
        case notAFile(path: String, reason: String)
    }

    /// Links followed at most, one after another.
    public static let maximumLinks = 8

    /// The bytes of `path`, at most `limit` of them (more is `.tooLarge`), if it passes every rule above.
    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let me = geteuid()
        var current = path
        for _ in 0...maximumLinks {
            let place = try Place(path: path, current: current)
            defer { close(place.directory) }
            try place.checkDirectory(me: me)
            var st = stat()
            if fstatat(place.directory, place.name, &st, AT_SYMLINK_NOFOLLOW) != 0 {
                let e = errno
                if e == ENOENT || e == ENOTDIR { throw .missing(path: path) }
                if e == EACCES { throw .unseen(path: path, reason: FileSystem.errnoText(e)) }
                throw .unreadable(path: path, reason: FileSystem.errnoText(e))
            }
            switch st.st_mode & S_IFMT {
            case S_IFLNK:
                guard st.st_uid == me else {
                    throw .untrusted(
                        path: path,
                        reason: "\(place.subject) a symbolic link owned by \(FileOwnership.ownerName(st.st_uid)), "
                            + "not by you; a link is followed only when it is yours", fix: nil)
                }
                current = try place.linkTarget()
                continue
            case S_IFREG:
                return try place.readFile(me: me, limit: limit)
            default:
                throw .notAFile(
                    path: path, reason: "\(place.subject) \(FileOwnership.kindName(st.st_mode)), not a regular file")
            }
        }
        throw .untrusted(path: path, reason: "leads through more than \(maximumLinks) symbolic links", fix: nil)
    }

    /// One step: the directory holding `current` (opened for lookups only) and the name in it.
    private struct Place {
        /// The path as the caller gave it, named in every failure.
        let path: String
        /// Where the links followed so far have led (`path` itself before any).
        let current: String
        let directory: Int32
        let name: String

        init(path: String, current: String) throws(Failure) {
            self.path = path
            self.current = current
            var trimmed = Substring(current)
            while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            let folder = PrivateDirectory.parentPath(of: String(trimmed))
            name = FileSystem.baseName(String(trimmed))
            if name == "." || name == ".." || name == "/" || trimmed.hasSuffix("/") {
                throw .notAFile(
                    path: path,
                    reason:
                        "\(current == path ? "is" : "leads to \(current), which is") a directory, not a regular file")
            }
            let opened = SystemCall.openPath(folder, CPlatform_lookupOnlyFlags() | O_DIRECTORY | O_CLOEXEC)
            if opened < 0 {
                let e = errno
                if e == ENOENT || e == ENOTDIR { throw .missing(path: path) }
                if e == EACCES { throw .unseen(path: path, reason: FileSystem.errnoText(e)) }
                throw .unreadable(path: path, reason: FileSystem.errnoText(e))
            }
            directory = opened
        }

        /// `is`, or `leads to CURRENT, which is` once a link was followed: the start of a reason.
        var subject: String { current == path ? "is" : "leads to \(current), which is" }

        /// The holding directory: the user's or root's, writable by no one else, and not in /proc, /sys or /dev.
        func checkDirectory(me: uid_t) throws(Failure) {
            var st = stat()
            guard fstat(directory, &st) == 0 else { throw .unreadable(path: path, reason: FileSystem.errnoText()) }
            try refusePseudoFileSystem(
                directory, shown: TrustedFile.canonicalPath(of: directory) ?? PrivateDirectory.parentPath(of: current))
            let folder = PrivateDirectory.parentPath(of: current)
            if st.st_uid != me && st.st_uid != 0 {
                throw .untrusted(
                    path: path,
                    reason: "\(subject) in \(folder), a folder of \(FileOwnership.ownerName(st.st_uid)), "
                        + "who could replace it (the folder must be yours or root's)",
                    fix: "copy the file into a folder of your own (install -m 600) and give that copy, or run as the "
                        + "folder's owner")
            }
            if let writers = FileOwnership.otherWriters(st.st_mode) {
                // A shared folder such as /tmp is meant to be writable by all: the file moves, not the folder's mode.
                let shared = st.st_mode & S_ISVTX != 0 && st.st_mode & S_IWOTH != 0
                throw .untrusted(
                    path: path,
                    reason: "\(subject) in \(folder), a folder writable by \(writers) "
                        + "(mode \(FileOwnership.octal(st.st_mode))), who could replace it",
                    fix: shared
                        ? "\(folder) is shared by all users: keep the file in a folder of your own (mkdir -m 700 ~/apnsctl, say)"
                        : "chmod go-w \(folder)")
            }
        }

        /// Where the link `name` points, as a path (relative targets are relative to the link's folder).
        func linkTarget() throws(Failure) -> String {
            var buffer = [CChar](repeating: 0, count: 4097)
            let count = readlinkat(directory, name, &buffer, buffer.count - 1)
            guard count > 0 else { throw .unreadable(path: path, reason: FileSystem.errnoText()) }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") { return target }
            let folder = PrivateDirectory.parentPath(of: current)
            return (folder.hasSuffix("/") ? folder : folder + "/") + target
        }

        /// Opens and reads the file, checking it on the descriptor read.
        func readFile(me: uid_t, limit: Int) throws(Failure) -> [UInt8] {
            let opened: (fd: Int32, status: stat)
            do {
                opened = try RegularFile.open(name, in: directory, flags: O_RDONLY) { $0 == me || $0 == 0 }
            } catch {
                switch error {
                case .link:
                    throw .untrusted(
                        path: path, reason: "\(subject) a symbolic link (it was swapped in while being opened)",
                        fix: nil)
                case .missing: throw .missing(path: path)
                case .failed(let e): throw .unreadable(path: path, reason: FileSystem.errnoText(e))
                case .notRegular(let type):
                    throw .notAFile(
                        path: path, reason: "\(subject) \(FileOwnership.kindName(type)), not a regular file")
                case .owner(let uid):
                    throw .untrusted(
                        path: path, reason: "\(subject) owned by \(FileOwnership.ownerName(uid)), not by you or root",
                        fix: "chown it, or copy it")
                }
            }
            defer { close(opened.fd) }
            try refusePseudoFileSystem(opened.fd, shown: TrustedFile.canonicalPath(of: opened.fd) ?? current)
            if let writers = FileOwnership.otherWriters(opened.status.st_mode) {
                throw .untrusted(
                    path: path,
                    reason: "\(subject) writable by \(writers) (mode \(FileOwnership.octal(opened.status.st_mode)))",
                    fix: "chmod go-w \(current)")
            }
            let bytes = FileSystem.readAll(fd: opened.fd, limit: limit + 1)
            guard bytes.count <= limit else { throw .tooLarge(path: path, limit: limit) }
            return bytes
        }

        /// Refuses a descriptor in /proc, /sys or /dev, told by its file system (/proc and /sys, wherever they
        /// are mounted) or by where it really is.
        func refusePseudoFileSystem(_ fd: Int32, shown: String) throws(Failure) {
            let magic = CPlatform_fileSystemMagic(fd)
            let place =
                magic == TrustedFile.procMagic
                ? "/proc"
                : magic == TrustedFile.sysMagic
                    ? "/sys"
                    : TrustedFile.pseudoRoots.first { shown == $0 || shown.hasPrefix($0 + "/") }
            if let place {
                throw .untrusted(
                    path: path,
                    reason: "\(subject) in \(place) (\(shown)); files in /proc, /sys and /dev are never read "
                        + "(their owner and mode do not say who controls them)", fix: nil)
            }
        }
    }

    /// `fstatfs` magic numbers of procfs and sysfs.
    static let procMagic = 0x9fa0
    static let sysMagic = 0x6265_6572
    /// Trees whose files are never settings, whatever their owner and mode.
    static let pseudoRoots = ["/proc", "/sys", "/dev"]

    /// Where the descriptor's file really is (every link resolved), from `/proc/self/fd` on Linux; nil
    /// elsewhere or when /proc is not mounted (then nothing can lead into it either).
    static func canonicalPath(of fd: Int32) -> String? {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4097)
            let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            return nil
        #endif
    }
}
