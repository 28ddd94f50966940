#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// The one way apnsctl opens a file whose owner matters (the token cache, the mock's state files, the settings
/// file, `mock.json`): relative to a directory already opened and checked, without following a link, without
/// blocking (a FIFO or a device is refused, never waited on), and checked with `fstat` on the descriptor it
/// opened, so nothing swapped in between a check and the read is ever used.
enum RegularFile {
    /// Why `open` refused.
    enum Refusal: Error, Equatable {
        /// `name` is a symbolic link (not followed).
        case link
        /// Nothing is called `name`.
        case missing
        /// The system refused to open or inspect it (`errno`).
        case failed(Int32)
        /// Not a regular file: `type` is its `st_mode`'s type bits (`S_IFIFO`), named by `FileOwnership.kindName`.
        case notRegular(type: mode_t)
        /// A regular file, but its owner is not one `open` was told to accept.
        case owner(uid_t)
    }

    /// Opens `name` in the directory `directory` with `flags` (plus no-follow, non-blocking and close-on-exec;
    /// `mode` for a file `O_CREAT` makes), then checks it is a regular file owned by a uid `owners` accepts.
    /// Returns the descriptor (blocking again, as a regular file's always behaves; the caller closes it) and
    /// the `stat` it was checked with.
    static func open(
        _ name: String, in directory: Int32, flags: Int32, mode: FileMode = 0,
        ownedBy owners: (uid_t) -> Bool
    ) throws(Refusal) -> (fd: Int32, status: stat) {
        let descriptor = SystemCall.openRelative(directory, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        if descriptor < 0 {
            let e = errno
            var st = stat()
            if fstatat(directory, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && (st.st_mode & S_IFMT) == S_IFLNK {
                throw .link
            }
            if e == ENOENT || e == ENOTDIR { throw .missing }
            throw .failed(e)
        }
        var st = stat()
        guard fstat(descriptor, &st) == 0 else {
            let e = errno
            close(descriptor)
            throw .failed(e)
        }
        if (st.st_mode & S_IFMT) != S_IFREG {
            close(descriptor)
            throw .notRegular(type: st.st_mode & S_IFMT)
        }
        if !owners(st.st_uid) {
            close(descriptor)
            throw .owner(st.st_uid)
        }
        // Regular files ignore O_NONBLOCK, but clear it so the descriptor behaves as an ordinary one.
        let status = fcntl(descriptor, F_GETFL)
        if status >= 0 { _ = fcntl(descriptor, F_SETFL, status & ~O_NONBLOCK) }
        return (descriptor, st)
    }
}

/// How a file's owner and mode are described in messages, spelled once for every refusal.
enum FileOwnership {
    /// `user NAME (uid N)` or `uid N` when the password database has no entry.
    static func ownerName(_ uid: uid_t) -> String {
        if let entry = getpwuid(uid), let name = entry.pointee.pw_name {
            return "user \(String(cString: name)) (uid \(uid))"
        }
        return "uid \(uid)"
    }

    /// Who besides the owner can write with `mode` ("group", "others", "group and others"); nil for nobody.
    static func otherWriters(_ mode: mode_t) -> String? {
        switch (mode & 0o020 != 0, mode & 0o002 != 0) {
        case (true, true): return "group and others"
        case (true, false): return "group"
        case (false, true): return "others"
        case (false, false): return nil
        }
    }

    /// `0644`: the permission bits as `chmod` takes them.
    static func octal(_ mode: mode_t) -> String { "0" + String(mode & 0o7777, radix: 8) }

    /// What a file that is not a regular file is ("a FIFO").
    static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a directory"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a file"
        }
    }
}
