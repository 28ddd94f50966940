#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// A file a command reads line by line, maybe twice (`--devices FILE`, or `-` for standard input): opened
/// once, its kind known from `fstat`, so the caller can check a regular file whole and then read it again,
/// and stream anything that can be read only once (a FIFO, `<(…)`, a terminal).
public final class InputFile {
    /// What the descriptor is.
    public enum Kind: Equatable, Sendable {
        /// A regular file: it can be read again from the start (`rewind`).
        case regular
        case directory
        /// Anything else (standard input, a FIFO, a device): one pass only.
        case stream
    }

    /// The name the user gave (`-` for standard input).
    public let path: String
    public let kind: Kind
    private let fd: Int32
    private let ownsDescriptor: Bool

    /// Opens `path` for reading (`-` with a `standardInput` given: that descriptor, which stays open afterwards). A
    /// path that does not exist is `.missing`; any other refusal is `.unreadable` with the system's reason.
    /// A FIFO's writer is waited for here (uninterruptibly, as open(2) did) unless `pollsFirst`: the caller then
    /// polls the descriptor with its interrupts before the first read (`FileSystem.openForReading`).
    public init(path: String, standardInput: Int32? = nil, pollsFirst: Bool = false) throws(FileSystem.Failure) {
        self.path = path
        if FileSystem.namesStandardInput(path), let standardInput {
            try ClosedStandardInput.check(standardInput, path: path)
            fd = standardInput
            ownsDescriptor = false
        } else {
            let opened = FileSystem.openForReading(path)
            if opened < 0 {
                let e = errno
                if e == ENOENT || e == ENOTDIR { throw .missing(path: path) }
                throw .unreadable(path: path, reason: FileSystem.errnoText(e))
            }
            fd = opened
            ownsDescriptor = true
        }
        var st = stat()
        let type = fstat(fd, &st) == 0 ? st.st_mode & S_IFMT : 0
        kind = type == S_IFREG ? .regular : type == S_IFDIR ? .directory : .stream
        if type == S_IFIFO, ownsDescriptor, !pollsFirst { FileSystem.waitForWriter(fd) }
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// A reader from the current position, taking at most `limit` bytes; the file stays open as long as this value
    /// lives.
    public func lines(limit: Int? = nil) -> LineReader { LineReader(fd: fd, ownsDescriptor: false, limit: limit) }

    /// The file's size now (`fstat` of the open descriptor: the file read, whatever its name points to since).
    public func currentSize() -> Int? {
        var st = stat()
        return fstat(fd, &st) == 0 ? Int(st.st_size) : nil
    }

    /// Goes back to the start of a regular file, for another pass.
    public func rewind() throws(FileSystem.Failure) {
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw .unreadable(path: path, reason: FileSystem.errnoText()) }
    }
}
