#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// A regular file read at chosen offsets (`pread`), for formats whose interesting parts sit at offsets their
/// headers give (a Mach-O's code signature at the end of a 100 MB executable): only those bytes are read.
public final class RandomAccessFile {
    public let path: String
    /// The file's size when it was opened.
    public let size: UInt64
    private let fd: Int32

    /// Opens `path` (not a directory, not a FIFO or device: those have no offsets to read at).
    public init(path: String) throws(FileSystem.Failure) {
        self.path = path
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if opened < 0 {
            let e = errno
            if e == ENOENT || e == ENOTDIR { throw .missing(path: path) }
            throw .unreadable(path: path, reason: FileSystem.errnoText(e))
        }
        var st = stat()
        guard fstat(opened, &st) == 0 else {
            let reason = FileSystem.errnoText()
            close(opened)
            throw .unreadable(path: path, reason: reason)
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR:
            close(opened)
            throw .isDirectory(path: path)
        default:
            close(opened)
            throw .notARegularFile(path: path, what: "not a regular file")
        }
        fd = opened
        size = UInt64(max(0, st.st_size))
    }

    deinit { close(fd) }

    /// Up to `count` bytes from `offset`; fewer only at the end of the file.
    public func read(at offset: UInt64, count: Int) throws(FileSystem.Failure) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let wanted = Int(min(UInt64(count), size - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(fd, base + done, wanted - done, off_t(offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: FileSystem.errnoText())
            }
            if n == 0 { break }
            done += n
        }
        return done == wanted ? bytes : Array(bytes[..<done])
    }
}

extension FileSystem {
    /// The names in directory `path` (without `.` and `..`), sorted; `.missing` or `.unreadable` when it cannot
    /// be listed.
    public static func directoryEntries(_ path: String) throws(Failure) -> [String] {
        guard let dir = opendir(path) else {
            let e = errno
            if e == ENOENT { throw .missing(path: path) }
            throw .unreadable(path: path, reason: errnoText(e))
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
