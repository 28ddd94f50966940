#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// An exclusive `flock(2)` on a directory, held while the value lives: edits that read a file in it, change it
/// and rename a new copy over it (the settings file) run one at a time, so none is lost to another's rename. No
/// lock file is left beside the user's own; the kernel lets go when the holder exits in any way.
public final class DirectoryLock {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// What `acquire` found.
    public enum Outcome {
        case acquired(DirectoryLock)
        /// Another holder kept it longer than the wait.
        case held(directory: String)
        /// The folder could not be opened to lock (it does not exist yet), or others can write it.
        case unavailable
    }

    /// Locks the directory `directory`, waiting up to `seconds` for another holder. A folder not made yet, or one
    /// that group or others can write (`/tmp`), is `.unavailable`: there anyone could hold the lock, and keep the
    /// caller waiting (what such a folder holds is refused by its readers anyway).
    public static func acquire(_ directory: String, seconds: Int) -> Outcome {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return .unavailable }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & 0o022 == 0 else {
            close(fd)
            return .unavailable
        }
        guard FileLock.lock(fd, waitingUpTo: seconds) else {
            close(fd)
            return .held(directory: directory)
        }
        return .acquired(DirectoryLock(fd: fd))
    }
}
