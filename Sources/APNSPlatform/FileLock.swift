#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// An exclusive `flock(2)` lock on a file, held while the value lives. The kernel drops it when the holder
/// exits in any way (SIGKILL included), so a lock left by a killed process is simply free again: no stale pid
/// file to clean up. The holder writes its pid into the file so a refused process can say who holds it.
/// flock locks belong to the open file description, so a second lock in the same process is refused too.
public final class FileLock: @unchecked Sendable {
    /// The lock file.
    public let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    /// Closing the descriptor releases the lock.
    deinit { close(fd) }

    /// What `acquire` found.
    public enum Outcome: Sendable {
        /// The lock is ours until the value goes away.
        case acquired(FileLock)
        /// Another process (or descriptor) holds it; `holder` is the pid it wrote, when it had written one.
        case held(holder: Int32?)
        /// The file could not be opened or locked, or was refused (a link, another user's file).
        case failed(PrivateDirectory.Failure)
    }

    /// Tries once, without waiting, to lock the file `name` in `directory` (created with `mode` if missing),
    /// opened through `PrivateDirectory`: a link planted at `name` is refused, never followed, and a file of
    /// another user's is never truncated. On success the file holds this process's pid.
    ///
    /// Taking the lock and writing the pid happen under the directory's own lock, and so does a refused
    /// process's reading of the pid: it never reads the file between another's taking and writing, when the
    /// file still names the holder before (which may have exited, or be a zombie not yet reaped).
    public static func acquire(_ name: String, in directory: PrivateDirectory, mode: FileMode = 0o644) -> Outcome {
        let path = directory.file(name)
        let fd: Int32
        do { fd = try directory.openForLocking(name, mode: mode) } catch { return .failed(error) }
        let outcome = directory.whileLocked { () -> Outcome in
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let e = errno
                if e == EINTR { continue }
                if e == EWOULDBLOCK || e == EAGAIN { return .held(holder: writtenHolder(of: name, in: directory)) }
                return .failed(.file(.cannotCreate(path: path, reason: "cannot lock it: \(FileSystem.errnoText(e))")))
            }
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            return .acquired(FileLock(path: path, fd: fd))
        }
        guard let outcome else {
            close(fd)
            return .failed(.file(.cannotCreate(path: path, reason: "cannot lock the folder holding it")))
        }
        if case .acquired = outcome { return outcome }
        close(fd)
        return outcome
    }

    /// Waits for the lock on `name` in `directory` to be free, with a limit: true once it is, false when `seconds`
    /// pass with it held (its holder stopped with Ctrl-Z, say) or the file cannot be opened. Tries every 20 ms:
    /// flock has no timed wait.
    public static func waitUntilFree(_ name: String, in directory: PrivateDirectory, seconds: Int) -> Bool {
        guard let fd = try? directory.openForLocking(name, mode: 0o644) else { return false }
        defer { close(fd) }
        guard lock(fd, waitingUpTo: seconds) else { return false }
        _ = flock(fd, LOCK_UN)
        return true
    }

    /// Takes an exclusive flock on `fd`, trying every 20 ms for up to `seconds` (flock has no timed wait): false
    /// when the time runs out or the lock cannot be taken.
    static func lock(_ fd: Int32, waitingUpTo seconds: Int) -> Bool {
        let deadline = SystemClock.monotonicNanoseconds() + UInt64(seconds) * 1_000_000_000
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            let e = errno
            guard e == EWOULDBLOCK || e == EAGAIN || e == EINTR else { return false }
            if SystemClock.monotonicNanoseconds() >= deadline { return false }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            _ = nanosleep(&pause, nil)
        }
    }

    /// Whether process `pid` holds the flock on `name` in `directory`, as the kernel lists its locks
    /// (`/proc/locks`); nil where that list cannot be read (not Linux). The pid a lock file names is only what its
    /// holder wrote: a pid of another namespace (a container's) names some other process here.
    public static func isHeld(_ name: String, in directory: PrivateDirectory, by pid: Int32) -> Bool? {
        // The list gives pids as the namespace that mounted /proc sees them: unless that is this process's own
        // (`/proc/self` names our pid), they cannot be compared with the pid a mock beside us wrote.
        var link = [CChar](repeating: 0, count: 32)
        let count = readlink("/proc/self", &link, link.count - 1)
        guard count > 0,
            Int32(String(decoding: link.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self))
                == getpid()
        else { return nil }
        guard let inode = directory.inode(name),
            let bytes = try? FileSystem.read("/proc/locks", limit: 1 << 22)
        else { return nil }
        var listed = false
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            // `1: FLOCK  ADVISORY  WRITE 4711 fd:01:5678 0 EOF`; a waiter's line has `->` after the number.
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK",
                fields[5].split(separator: ":").last.flatMap({ UInt64($0) }) == inode
            else { continue }
            if Int32(fields[4]) == pid { return true }
            listed = true
        }
        // No line for the file at all (a list masked or emptied, as some sandboxes do): unknown, not "someone else".
        return listed ? false : nil
    }

    /// The pid written in a lock file, read under the directory's lock (see `acquire`): the holder's.
    private static func writtenHolder(of name: String, in directory: PrivateDirectory) -> Int32? {
        guard let bytes = try? directory.read(name, limit: 64) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard let pid = Int32(text), pid > 0 else { return nil }
        return pid
    }
}
