#if canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#else
import Glibc
#endif

/// A file that must be a regular file, opened for reading without ever blocking on a FIFO or a device, and
/// checked on the opened descriptor (no race with a rename between the check and the read): its owner and
/// mode for a permission rule (the settings file, as ssh checks its config), then its bytes.
public final class RegularFile {
    /// Why `open` refused.
    public enum Refusal: Error, Equatable, Sendable {
        /// Nothing at the path (ENOENT, ENOTDIR).
        case missing
        /// The system refused to open it; `unseen` when not even a `stat` gets through (EACCES on a folder
        /// on the way, such as another user's HOME), so whether a file is there cannot be known.
        case cannotOpen(reason: String, unseen: Bool)
        /// Opened, but `fstat` failed.
        case cannotInspect(reason: String)
        /// Not a regular file: a directory, or something else that could block or never end.
        case notRegular(isDirectory: Bool)
    }

    private let fd: Int32
    /// The owner's uid.
    public let owner: UInt32
    /// The mode bits (`st_mode`, type bits included).
    public let mode: UInt32

    /// Opens `path` (non-blocking, so a FIFO never holds it up) and checks it is a regular file.
    public init(path: String) throws(Refusal) {
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if opened < 0 {
            let e = errno
            if e == ENOENT || e == ENOTDIR { throw .missing }
            var seen = stat()
            let unseen = e == EACCES && stat(path, &seen) != 0 && errno == EACCES
            throw .cannotOpen(reason: FileSystem.errnoText(e), unseen: unseen)
        }
        var st = stat()
        guard fstat(opened, &st) == 0 else {
            let reason = FileSystem.errnoText()
            close(opened)
            throw .cannotInspect(reason: reason)
        }
        let type = st.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(opened)
            throw .notRegular(isDirectory: type == S_IFDIR)
        }
        fd = opened
        owner = UInt32(st.st_uid)
        mode = UInt32(st.st_mode)
    }

    deinit { close(fd) }

    /// The bytes, up to `limit` (blocking reads from here: it is known to be a regular file).
    public func read(limit: Int) -> [UInt8] {
        _ = fcntl(fd, F_SETFL, 0)
        return FileSystem.readAll(fd: fd, limit: limit)
    }
}

extension Environment {
    /// The real user id of this process (whose files a settings file must belong to).
    public static var userID: UInt32 { UInt32(getuid()) }
}
