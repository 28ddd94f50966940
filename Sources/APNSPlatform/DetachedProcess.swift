#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// A copy of this program started in the background (`apnsctl mock --detach`): standard input from /dev/null,
/// standard output and error appended to a log file, and a pipe on descriptor 3 through which it says it is
/// ready. The parent blocks reading the pipe: the child's message arrives when it is ready, and end-of-file
/// with no message when it ended first, so no one polls a file or sleeps.
public final class DetachedProcess {
    private let child: SpawnedProcess
    public var pid: Int32 { child.pid }
    /// The read end of the ready pipe.
    private let readyFD: Int32

    /// The descriptor the child finds the pipe's write end on.
    public static let readyDescriptor: Int32 = 3

    private init(child: SpawnedProcess, readyFD: Int32) { (self.child, self.readyFD) = (child, readyFD) }

    deinit { close(readyFD) }

    /// Why the child could not be started.
    public struct Failure: Error, Sendable {
        public let message: String
    }

    /// Starts `executable` with `arguments` (without the program name), its output appended to `logPath`
    /// (created 0600).
    public static func start(executable: String, arguments: [String], logPath: String) throws(Failure)
        -> DetachedProcess
    {
        // Not blocking: a FIFO nobody reads would otherwise hold this command (and its user) forever.
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard log >= 0 else {
            let code = errno
            let folder = logPath.hasSuffix("/") ? logPath : logPath + "/"
            switch code {
            case EISDIR:
                // A folder given as the log: the file to write in it is named.
                throw Failure(
                    message:
                        "\(logPath): cannot open the log: \(FileSystem.errnoText(code)); give the log file's path, such as \(folder)mock.log"
                )
            case ELOOP:
                throw Failure(
                    message: "\(logPath): is a symbolic link (not followed); give the log file's own path")
            case ENXIO:
                throw Failure(
                    message:
                        "\(logPath): is a FIFO that nobody reads, which the mock would wait on forever; give a regular file"
                )
            default:
                throw Failure(message: "\(logPath): cannot open the log: \(FileSystem.errnoText(code))")
            }
        }
        defer { close(log) }
        // The mock writes its log as to any file: blocking again once opened.
        _ = fcntl(log, F_SETFL, fcntl(log, F_GETFL) & ~O_NONBLOCK)
        // Nothing else this process holds may live on in the mock: a supervisor that sees its child's end through
        // a descriptor (a pipe, a socket) would otherwise wait for the mock instead of this command.
        markInheritedDescriptorsCloseOnExec()
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Failure(message: "cannot make a pipe: \(FileSystem.errnoText())") }
        // Only the child's copy of the write end (descriptor 3, made by dup2) stays open across exec.
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)

        let started = SpawnedProcess.start(
            executable, arguments: arguments, environment: nil,
            descriptors: [
                (0, .file("/dev/null", flags: O_RDONLY, mode: 0)), (1, .descriptor(log)), (2, .descriptor(log)),
                (readyDescriptor, .descriptor(ends[1])),
            ])
        close(ends[1])
        let child: SpawnedProcess
        switch started {
        case .success(let spawned): child = spawned
        case .failure(let error):
            close(ends[0])
            throw Failure(message: "cannot start \(executable): \(error.text)")
        }
        return DetachedProcess(child: child, readyFD: ends[0])
    }

    /// Every descriptor above standard error made close-on-exec (the parent is about to exit; it execs nothing).
    private static func markInheritedDescriptorsCloseOnExec() {
        var open: [Int32] = []
        if let dir = opendir("/proc/self/fd") {
            let own = dirfd(dir)
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if let fd = Int32(name), fd > 2, fd != own { open.append(fd) }
            }
            closedir(dir)
        } else {
            open = Array(3..<1024)
        }
        for fd in open {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// Blocks until the child says it is ready (its message) or ends first (nil, with its exit status and what it
    /// said it failed for through `sayFailed`, if anything).
    public func waitUntilReady() -> (message: [UInt8]?, failure: [UInt8]?, exitStatus: Int32?) {
        let bytes = FileSystem.readAll(fd: readyFD, limit: 1 << 16)
        if bytes.first == Self.failureMark { return (nil, Array(bytes.dropFirst()), child.waitForExit()) }
        if !bytes.isEmpty { return (bytes, nil, nil) }
        return (nil, nil, child.waitForExit())
    }

    /// The first byte of a failure said over the ready pipe (no ready message starts with a control byte).
    private static let failureMark: UInt8 = 0x15

    /// In the child: leaves the parent's session, so the terminal's hang-up and Ctrl-C no longer reach it.
    public static func leaveSession() { _ = setsid() }

    /// In the child: why it cannot start, for the parent to print, where its log is not its own to write (another
    /// mock holds the state dir and writes that log); the pipe is then closed.
    public static func sayFailed(_ message: [UInt8]) {
        _ = posixWriteAll(readyDescriptor, [failureMark] + message)
        close(readyDescriptor)
    }

    /// In the child: the message for the parent, once ready; the pipe is then closed.
    public static func sayReady(_ message: [UInt8]) {
        _ = posixWriteAll(readyDescriptor, message)
        close(readyDescriptor)
    }

    /// This program's file, to start another copy of it.
    public static var executablePath: String? {
        #if canImport(Darwin)
            var size: UInt32 = 4096
            var buffer = [CChar](repeating: 0, count: Int(size))
            guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
            return String(cString: buffer)
        #else
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard n > 0 else { return nil }
            return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }
}
