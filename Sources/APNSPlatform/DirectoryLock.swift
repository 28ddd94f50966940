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
        /// No folder on the way to `path` could be opened to lock (nothing to exclude another with).
        case unavailable
    }

    /// Locks the directory `path`, or the nearest folder above it that exists (a file's folder is made by its
    /// first write), waiting up to `seconds` for another holder.
    public static func acquire(nearest path: String, seconds: Int) -> Outcome {
        var directory = path
        while !FileSystem.isDirectory(directory) {
            let parent = PrivateDirectory.parentPath(of: directory)
            if parent == directory { return .unavailable }
            directory = parent
        }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return .unavailable }
        guard FileLock.lock(fd, waitingUpTo: seconds) else {
            close(fd)
            return .held(directory: directory)
        }
        return .acquired(DirectoryLock(fd: fd))
    }
}
