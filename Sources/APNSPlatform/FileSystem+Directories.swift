#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Directory steps for a set of files that must appear whole (the mock's state dir: generated in a fresh
/// directory beside its place, then renamed into it in one step).
extension FileSystem {
    /// What is at a path, without following a link (`lstat`).
    public enum EntryKind: Equatable, Sendable {
        case none, directory, symbolicLink, other
    }

    /// What is at `path`, without following a link; `.none` when nothing is (or it cannot be looked at).
    public static func entryKind(_ path: String) -> EntryKind {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .none }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// Whether nothing is at `path` (ENOENT, ENOTDIR), as opposed to a path that cannot be looked at (a folder
    /// above it that cannot be searched), which `entryKind` also reports as `.none`.
    public static func isMissing(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR)
    }

    /// A new directory (0700) named by `template`, whose last six characters are `XXXXXX` (`mkdtemp`); nil
    /// when the system refuses (`errnoText()` says why).
    public static func makeUniqueDirectory(template: String) -> String? {
        var chars = Array(template.utf8CString)
        // The name is read inside the closure that lends the buffer (mkdtemp writes it in place).
        return chars.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
    }

    /// Creates one directory with `mode`; one that already exists is fine.
    public static func makeDirectory(_ path: String, mode: FileMode = 0o700) throws(Failure) {
        if mkdir(path, mode_t(mode)) != 0 && errno != EEXIST { throw .cannotCreate(path: path, reason: errnoText()) }
    }

    /// How `renameDirectory` went.
    public enum DirectoryRename: Equatable, Sendable {
        case renamed
        /// The target is a directory that is not empty (someone else put their set there first).
        case targetNotEmpty
        /// Any other refusal.
        case failed
    }

    /// Renames directory `from` to `to` (rename(2): replaces a missing or empty directory atomically and
    /// refuses a non-empty one).
    public static func renameDirectory(_ from: String, to: String) -> DirectoryRename {
        if rename(from, to) == 0 { return .renamed }
        return errno == EEXIST || errno == ENOTEMPTY ? .targetNotEmpty : .failed
    }

    /// Removes the empty directory `path` (rmdir); a failure is ignored.
    public static func removeEmptyDirectory(_ path: String) {
        _ = rmdir(path)
    }

    /// Removes the file `path` when it is a regular file (never through a symlink: `checkOutputTarget` decides, as
    /// for `--force`); nil when removed or absent, else why not.
    public static func removeRegularFile(_ path: String) -> Failure? {
        do { guard try checkOutputTarget(path) else { return nil } } catch { return error }
        guard unlink(path) == 0 else { return .cannotCreate(path: path, reason: "cannot remove: \(errnoText())") }
        return nil
    }
}

extension Environment {
    /// This process's id (`mock.json`'s `pid`, lock files).
    public static var processID: Int32 { getpid() }
}
