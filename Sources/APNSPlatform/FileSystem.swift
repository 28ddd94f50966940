import APNSCore
import CPlatform

#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// File access without Foundation (it costs start-up time; see the notes on measured costs).
public enum FileSystem {
    /// Why a file could not be read or written; the CLI maps these to exit 66 / 73.
    public enum Failure: Error, Equatable, Sendable {
        case missing(path: String)
        case unreadable(path: String, reason: String)
        /// More bytes than the read's `limit`: a file that exists, so no path to check but a file to choose. A
        /// payload this large is over every size limit (exit 65); any other input is unreadable (66).
        case tooLarge(path: String, limit: Int)
        case isDirectory(path: String)
        case exists(path: String)
        case cannotCreate(path: String, reason: String)
        /// Something other than a regular file is at an output path (`what`: "a symlink", "a FIFO", …);
        /// apnsctl never replaces it, even with `--force`.
        case notARegularFile(path: String, what: String)
        /// The output file was created but writing it failed (disk full, size limit): exit 74.
        case writeFailed(path: String, reason: String)
        /// An interrupt (Ctrl-C) came while the read waited for more input; the caller says which signal.
        case interrupted(path: String)

        /// A file that exists and was refused for its size: no path to check, a file to choose.
        public var isOverReadLimit: Bool {
            if case .tooLarge = self { return true }
            return false
        }

        /// Why a file over a read's `limit` was not read.
        public static func overLimitReason(_ limit: Int) -> String {
            "more than \(limit >> 20 > 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"), far more than any payload or credential"
        }

        /// The same failure, naming `label` instead of the bare path.
        public func relabelled(_ label: String) -> Failure {
            switch self {
            case .missing: return .missing(path: label)
            case .unreadable(_, let r): return .unreadable(path: label, reason: r)
            case .tooLarge(_, let limit): return .tooLarge(path: label, limit: limit)
            case .isDirectory: return .isDirectory(path: label)
            case .exists: return .exists(path: label)
            case .cannotCreate(_, let r): return .cannotCreate(path: label, reason: r)
            case .notARegularFile(_, let w): return .notARegularFile(path: label, what: w)
            case .writeFailed(_, let r): return .writeFailed(path: label, reason: r)
            case .interrupted: return .interrupted(path: label)
            }
        }

        /// Where and what; the caller adds what to do (which of its flags overwrites, or writes elsewhere).
        public var message: String {
            switch self {
            case .missing(let p):
                return
                    "\(VariableEcho.shownPath(p)): no such file\(FileSystem.missingPathHint(p))"
            case .unreadable(let p, let r): return "\(VariableEcho.shownPath(p)): cannot read: \(r)"
            case .tooLarge(let p, let limit):
                return "\(VariableEcho.shownPath(p)): cannot read: \(Self.overLimitReason(limit))"
            case .isDirectory(let p): return "\(VariableEcho.shownPath(p)): is a directory, not a file"
            case .exists(let p): return "\(p): already exists"
            case .cannotCreate(let p, let r): return "\(p): cannot create: \(r)"
            case .notARegularFile(let p, let w): return "\(VariableEcho.shownPath(p)): is \(w), not a regular file"
            case .writeFailed(let p, let r): return "writing \(p): \(r); the file was not changed"
            case .interrupted(let p): return "\(p): interrupted while waiting for input"
            }
        }
    }

    /// The text of `errno`, for messages.
    public static func errnoText(_ code: Int32 = errno) -> String {
        guard let s = strerror(code) else { return "error \(code)" }
        return String(cString: s)
    }

    /// What "no such file" adds for a path that looks right but is not the name meant: a `~` no shell expanded,
    /// quotes kept around it, a blank around it. `text` is the path, or a label and the path as messages show
    /// them (`--cert a.pem`, `APNSCTL_CERT ~/a.pem`). Empty when none applies.
    public static func missingPathHint(_ text: String) -> String {
        let path = labelledPath(text)
        return unexpandedTilde(path) + quotesAround(path) + blankAround(path)
    }

    /// The path of `--cert a.pem` or `APNSCTL_CERT a.pem` (what follows the label, spaces and all), else `text`.
    private static func labelledPath(_ text: String) -> Substring {
        guard text.hasPrefix("-") || text.hasPrefix("APNSCTL_"), let space = text.firstIndex(of: " ") else {
            return Substring(text)
        }
        return text[text.index(after: space)...]
    }

    /// `; a ~ …` for a missing path that starts with `~/` or `~name/`: a quoted value, an env file or CI's YAML
    /// expands no `~`, so the file is looked for in a folder named `~`. Empty otherwise.
    static func unexpandedTilde(_ path: Substring) -> String {
        guard tildeUser(path) != nil else { return "" }
        return
            "; a ~ is expanded only by a shell, unquoted at a word's start, and this one was not: write the path in full"
    }

    /// `; the quotes …` for a path inside a pair of quotes (`--cert '"a.pem"'`, a `.env` line read by a tool that
    /// keeps them, a CI setting quoted twice): shown in "no such file", they look like the message's own.
    static func quotesAround(_ path: Substring) -> String {
        guard path.count >= 3, let quote = path.first, quote == "\"" || quote == "'", path.last == quote else {
            return ""
        }
        return "; the quotes around it are part of the name given (quoted twice, or kept by a .env file): remove them"
    }

    /// The user a shell would expand a leading `~` of `path` for: "" for `~/…`, `alice` for `~alice/…`; nil when
    /// `path` does not start so (`~`, `~backup.pem`, `~a b/…` are names).
    public static func tildeUser<S: StringProtocol>(_ path: S) -> S.SubSequence? {
        guard path.hasPrefix("~") else { return nil }
        let user = path.dropFirst().prefix { $0 != "/" }
        guard user.count < path.count - 1,
            user.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else { return nil }
        return user
    }

    /// `; "a.pem" is one: …` when `text` (a path, or a label and its path) has a blank or an invisible character
    /// around it and names a file without it.
    public static func blankAround(_ text: String) -> String { blankAround(labelledPath(text)) }

    /// A path with a blank or an invisible character around it (kept by quotes, a `.env` file's line, a paste)
    /// that names a file without it: invisible in "no such file", so it is named.
    static func blankAround(_ path: Substring) -> String {
        let invisible: (Unicode.Scalar) -> Bool = {
            $0.properties.isWhitespace || $0 == "\u{200B}" || $0 == "\u{2060}" || $0 == "\u{FEFF}"
        }
        let scalars = path.unicodeScalars
        guard let first = scalars.firstIndex(where: { !invisible($0) }),
            let last = scalars.lastIndex(where: { !invisible($0) })
        else { return "" }
        let trimmed = String(scalars[first...last])
        guard trimmed != String(path), exists(trimmed) else { return "" }
        return "; \(PrintableText.quoted(trimmed)) is one: the path has a blank or an invisible character around it "
            + "(kept by quotes, a .env file's line or a paste); remove it"
    }

    /// The most `read` takes from one file: far beyond any payload (5 KB), credential or passphrase,
    /// yet small enough that `validate /dev/zero` or an endless pipe ends with an error instead of
    /// reading until memory runs out.
    public static let maximumReadSize = SizeLimit.largest

    /// Whether `path` names standard input: `-`, or the system's names for descriptor 0, which read the same bytes.
    /// With a `standardInput` given, each is read from that descriptor, so a command run in-process reads its world's
    /// input by any of these names, never the process's own.
    public static func namesStandardInput(_ path: String) -> Bool {
        path == "-" || path == "/dev/stdin" || path == "/dev/fd/0" || path == "/proc/self/fd/0"
    }

    /// Reads a whole file, or for `-` (`namesStandardInput`) the descriptor `standardInput` when one is given (a command's world says
    /// which: a command run in-process must not read the process's own); more than `limit` bytes is `.unreadable`. `interrupt` is asked only for a read that may
    /// wait (standard input, a pipe, a terminal; never a regular file): the descriptor it gives is waited on too,
    /// and its becoming readable ends the read with `.interrupted`, so Ctrl-C while a command waits on its input
    /// is the command's to report.
    /// `unechoed`: standard input that is a terminal does not echo what is typed or pasted while it is read (a
    /// private key pasted there would stay in the scrollback).
    public static func read(
        _ path: String, limit: Int = maximumReadSize, standardInput: Int32? = nil, unechoed: Bool = false,
        interrupt: () -> Int32? = { nil }
    ) throws(Failure) -> [UInt8] {
        if namesStandardInput(path), let standardInput {
            // No standard input at all (a world without one) reads as a closed one does: nothing.
            guard standardInput >= 0 else { return [] }
            try ClosedStandardInput.check(standardInput, path: path)
            let echo = unechoed ? EchoOff(standardInput) : nil
            defer { echo?.restore() }
            return try readAll(fd: standardInput, limit: limit, path: path, interrupt: interrupt())
        }
        let fd = openForReading(path)
        if fd < 0 {
            let e = errno
            if e == ENOENT || e == ENOTDIR { throw .missing(path: path) }
            throw .unreadable(path: path, reason: errnoText(e))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return try readAll(fd: fd, limit: limit, path: path, interrupt: interrupt()) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path: path) }
        // A regular file's size is known: one buffer of that size, rather than a doubling series whose freed
        // halves stay in the heap (a 60 MiB payload would otherwise cost about twice that). It never waits.
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            let stop = interrupt()
            // A FIFO opened before its writer: without an interrupt to watch, wait here as open(2) would have.
            if stop == nil, (st.st_mode & S_IFMT) == S_IFIFO { waitForWriter(fd) }
            return try readAll(fd: fd, limit: limit, path: path, interrupt: stop)
        }
        return try readAll(fd: fd, limit: limit, path: path, expected: min(Int(st.st_size), limit))
    }

    /// Opens `path` read-only without waiting for a FIFO's writer: open(2) would block until one came, where no
    /// signal can end the wait (handlers resume it, or are not installed yet, and Ctrl-C killed the process without
    /// a word). The descriptor is blocking once open. On Linux a poll for reading waits for the writer's first
    /// bytes or its going, so a read that polls first (with the interrupts) waits as open did; elsewhere a FIFO is
    /// opened as before. -1 with errno on failure.
    public static func openForReading(_ path: String) -> Int32 {
        #if os(Linux)
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { return fd }
            // Left non-blocking, a reader would take "nothing yet" for the end of the input.
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
                let e = errno
                close(fd)
                errno = e
                return -1
            }
            return fd
        #else
            return open(path, O_RDONLY | O_CLOEXEC)
        #endif
    }

    /// Whether `openForReading` opens a FIFO without waiting for its writer (Linux, where poll waits for it).
    public static var opensFIFOsWithoutWaiting: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// Waits, without an interrupt, until the FIFO `fd` (from `openForReading`) has a writer's bytes or has seen
    /// its writer go: what open(2) waited for, for a reader that does not poll first.
    public static func waitForWriter(_ fd: Int32) {
        #if os(Linux)
            _ = PollSet.wait(for: fd, .readable, until: nil)
        #endif
    }

    /// The first `count` bytes of the regular file `path` (fewer when it is shorter); nil when it cannot be read.
    /// For telling what a file is without reading all of it.
    public static func readStart(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let (bytes, readError) = readToEnd(fd: fd, limit: count)
        return readError == nil ? Array(bytes.prefix(count)) : nil
    }

    /// `readAll(fd:)` that stops after `limit` bytes and names `path` in the failure. A read that fails (standard
    /// input that is a directory, an I/O error) is that failure, not the end of the file: it would otherwise
    /// read as an empty payload.
    private static func readAll(
        fd: Int32, limit: Int, path: String, expected: Int = 0, interrupt: Int32? = nil, toLineEnd: Bool = false
    ) throws(Failure) -> [UInt8] {
        let (bytes, readError) = readToEnd(
            fd: fd, limit: limit == .max ? limit : limit + 1, expected: expected, interrupt: interrupt,
            toLineEnd: toLineEnd)
        if readError == interruptedRead { throw .interrupted(path: path) }
        if let readError { throw .unreadable(path: path, reason: errnoText(readError)) }
        guard bytes.count <= limit else { throw .tooLarge(path: path, limit: limit) }
        return bytes
    }

    /// Reads an open descriptor to its end, or until `limit` bytes are read.
    public static func readAll(fd: Int32, limit: Int = .max) -> [UInt8] { readToEnd(fd: fd, limit: limit).bytes }

    /// `readToEnd`'s error when `interrupt` became readable first (no errno is negative).
    private static let interruptedRead: Int32 = -1

    /// What `readAll` reads, and the errno of a read that failed before the end (nil at the end or the limit,
    /// `interruptedRead` when `interrupt` became readable while it waited); `expected` bytes are room made up front.
    /// `toLineEnd`: no read after the one that brought a line end.
    private static func readToEnd(
        fd: Int32, limit: Int, expected: Int = 0, interrupt: Int32? = nil, toLineEnd: Bool = false
    ) -> (bytes: [UInt8], error: Int32?) {
        var out: [UInt8] = []
        if expected > 0 { out.reserveCapacity(expected) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        var waits = PollSet()
        while out.count < limit {
            if let interrupt {
                waits.removeAll()
                waits.add(fd, .readable)
                if waits.wait(until: nil, interrupt: interrupt) == .interrupted { return (out, interruptedRead) }
            }
            let want = min(chunk.count, limit - out.count)
            let n = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, want) }
            if n > 0 {
                out.append(contentsOf: chunk[0..<n])
                if toLineEnd, chunk[0..<n].contains(0x0A) { break }
            } else if n == 0 {
                // A signal whose handler ran after the wait woke for the end (the writer closed at once after
                // signalling) still ends the read as a signal: the input may have been cut short by it.
                if let interrupt, PollSet.wait(for: interrupt, .readable, until: 0).any {
                    return (out, interruptedRead)
                }
                break
            } else if errno == EINTR {
                continue
            }
            // Standard input a parent process left non-blocking (O_NONBLOCK belongs to the open pipe, shared
            // with that process) has nothing yet: wait for it, as a blocking read would.
            else if errno == EAGAIN || errno == EWOULDBLOCK {
                _ = PollSet.wait(for: fd, .readable, until: nil)
            } else {
                return (out, errno)
            }
        }
        return (out, nil)
    }

    /// The first line of `path` with whatever else it holds (`read`), except that standard input (`-`) is read
    /// no further than its first line end: a passphrase on a pipe its writer keeps open (`ssh`, `docker run -i`, a
    /// co-process) is taken once its line has arrived, and `yes |` is one line, not 64 MiB.
    public static func readFirstLine(_ path: String, standardInput: Int32? = nil) throws(Failure) -> [UInt8] {
        guard namesStandardInput(path), let standardInput, standardInput >= 0 else {
            return try read(path, standardInput: standardInput)
        }
        try ClosedStandardInput.check(standardInput, path: path)
        return try readAll(fd: standardInput, limit: maximumReadSize, path: path, toLineEnd: true)
    }

    /// Whether something exists at `path` (file, directory or link).
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// Whether `path` is a symbolic link whose target does not exist (`/dev/fd/N` of a pipe is no such link).
    public static func isDanglingLink(_ path: String) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return false }
        return stat(path, &st) != 0 && errno == ENOENT
    }

    /// Whether `path` is a character device (`/dev/null`), following links.
    public static func isCharacterDevice(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR
    }

    /// Whether `path` is a FIFO (following links).
    public static func isFIFO(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO
    }

    /// The first bytes (at most `count`) waiting to be read on descriptor `fd`, left where they are: from a pipe
    /// with data in it (copied by `tee(2)`, which does not consume), or from a regular file not read to its end.
    /// Empty for a terminal, /dev/null, a closed descriptor, a pipe whose writer has written nothing yet, and where
    /// a pipe cannot be looked into without reading it (macOS), so asking never waits and never takes a byte.
    public static func waitingInput(_ fd: Int32, count: Int) -> [UInt8] {
        var st = stat()
        guard count > 0, fstat(fd, &st) == 0 else { return [] }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            let offset = lseek(fd, 0, SEEK_CUR)
            guard offset >= 0, st.st_size > offset else { return [] }
            var bytes = [UInt8](repeating: 0, count: count)
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, offset) }
            return n > 0 ? Array(bytes[..<n]) : []
        case S_IFIFO:
            #if os(Linux)
                var waiting: Int32 = 0
                guard ioctl(fd, UInt(FIONREAD), &waiting) == 0, waiting > 0 else { return [] }
                // A scratch pipe to copy into (WakePipe: the one maker of pipes, both ends non-blocking).
                guard let copy = WakePipe() else { return [] }
                let copied = Int(CPlatform_copyWaitingPipeBytes(fd, copy.writeFD, UInt(count)))
                guard copied > 0 else { return [] }
                var bytes = [UInt8](repeating: 0, count: copied)
                let n = bytes.withUnsafeMutableBytes { posixRead(copy.readFD, $0.baseAddress, copied) }
                return n > 0 ? Array(bytes[..<n]) : []
            #else
                return []
            #endif
        default:
            return []
        }
    }

    /// Whether `a` and `b` name one file (the same device and inode, following links), however each is spelled.
    public static func isSameFile(_ a: String, _ b: String) -> Bool {
        var x = stat()
        var y = stat()
        return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Whether the open descriptor `fd` is the file at `path` (standard input redirected from it).
    public static func isSameFile(descriptor fd: Int32, _ path: String) -> Bool {
        var x = stat()
        var y = stat()
        return fstat(fd, &x) == 0 && stat(path, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Whether `path` is a regular file (following links).
    public static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    /// The size of the regular file at `path` (not following a link), without opening it; nil for anything else.
    public static func regularFileSize(_ path: String) -> Int? {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    /// Where a symbolic link at `path` leads, absolute and with every link on the way resolved; nil when `path`
    /// is no link, or leads nowhere.
    public static func linkDestination(_ path: String) -> String? {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) else {
            return nil
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether descriptor `fd` is open for writing on the null device (`> /dev/null`): output written there goes
    /// nowhere, so a writer may skip making it. Open read-only (`1< /dev/null`), a write fails, and the writer
    /// should find that out as it would anywhere else.
    public static func isNullDevice(_ fd: Int32) -> Bool {
        var open = stat()
        var null = stat()
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && flags & O_ACCMODE != O_RDONLY && fstat(fd, &open) == 0
            && (open.st_mode & S_IFMT) == S_IFCHR && stat("/dev/null", &null) == 0 && open.st_rdev == null.st_rdev
    }

    /// The permission bits of the file at `path` (following links); nil when there is none.
    public static func permissions(of path: String) -> FileMode? {
        var st = stat()
        return stat(path, &st) == 0 ? FileMode(st.st_mode & 0o7777) : nil
    }

    /// Whether `path` is a directory (following links).
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Writes `bytes` to the file `path` with `mode` (standard output, `-` to the user, is the caller's
    /// `OutputSink`, which keeps a failure for the exit code). Only a regular file is ever replaced (`checkOutputTarget`). Without
    /// `overwrite`, an existing file is left untouched and `.exists` thrown. The bytes go to a temporary file
    /// beside `path` (created 0600, then given `mode`) that is renamed over it only once every write and the
    /// close succeeded, so a failed write (`.writeFailed`) leaves the old file, or none, and no temporary file.
    public static func write(_ bytes: [UInt8], to path: String, mode: FileMode = 0o644, overwrite: Bool) throws(Failure)
    {
        let existing = try checkOutputTarget(path)
        if existing && !overwrite { throw .exists(path: path) }
        // Created relative to the directory, never through a link at `path` (PrivateDirectory.write).
        let name = baseName(path)
        do {
            try PrivateDirectory.openChosen(PrivateDirectory.parentPath(of: path)).write(
                bytes, to: name, mode: mode,
                overwrite: overwrite)
        } catch {
            switch error {
            case .file(let failure):
                // `-o '~/x.pem'`: the folder `~` is missing because no shell expanded it, which is what to say.
                let tilde = unexpandedTilde(Substring(path))
                if case .cannotCreate = failure, !tilde.isEmpty, !exists(PrivateDirectory.parentPath(of: path)) {
                    throw .cannotCreate(path: path, reason: "its directory does not exist" + tilde)
                }
                throw failure.relabelled(path)
            case .untrusted(_, let reason, _): throw .cannotCreate(path: path, reason: reason)
            }
        }
    }

    /// What is at an output path, without following a symlink (`lstat`): nothing (false), a regular file
    /// (true), or anything else, which apnsctl never writes over (`.notARegularFile` naming it). The one place
    /// that decides what `--force` may replace.
    public static func checkOutputTarget(_ path: String) throws(Failure) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0 else { return false }
        let what: String
        switch st.st_mode & S_IFMT {
        case S_IFREG: return true
        case S_IFLNK: what = "a symbolic link"
        case S_IFDIR: what = "a directory"
        case S_IFIFO: what = "a FIFO (named pipe)"
        case S_IFSOCK: what = "a socket"
        case S_IFCHR: what = "a character device"
        case S_IFBLK: what = "a block device"
        default: what = "a special file"
        }
        throw .notARegularFile(path: path, what: what)
    }

    /// Turns a failed `open` into advice: an existing file, a missing folder, or no permission.
    static func creationFailure(path: String, _ code: Int32) -> Failure {
        switch code {
        case EEXIST: return .exists(path: path)
        case ENOENT:
            return .cannotCreate(
                path: path, reason: "its directory does not exist; create it first or choose another path")
        case ENOTDIR:
            return .cannotCreate(
                path: path, reason: "a part of its path is a file, not a directory; choose another path")
        case EACCES, EPERM, EROFS:
            return .cannotCreate(path: path, reason: "\(errnoText(code)); choose a directory you can write to")
        default: return .cannotCreate(path: path, reason: errnoText(code))
        }
    }

    /// Why a file could not be made in a directory that exists: its file system makes none (`/proc`, `/sys`).
    static let noNewFilesReason =
        "its file system takes no new files (the kernel's /proc and /sys); choose another path"

    /// Turns a failed replacement of an existing file (`--force`, renamed over) into advice. EPERM with a directory
    /// we could create the new file in is the file itself refusing: immutable or append-only, or another user's
    /// in a sticky folder such as /tmp; "choose a directory you can write to" would send the user the wrong way.
    static func replacementFailure(path: String, _ code: Int32) -> Failure {
        guard code == EPERM else { return creationFailure(path: path, code) }
        return .cannotCreate(
            path: path,
            reason:
                "the existing file refuses to be replaced: it is immutable or append-only (lsattr \(ShellWord.of(path)) shows it), or another user's in a shared folder such as /tmp; choose another path"
        )
    }

    /// Creates `path` and its parents with `mode` (like `mkdir -p`); an existing directory is fine.
    public static func makeDirectories(_ path: String, mode: FileMode = 0o700) throws(Failure) {
        var current = path.hasPrefix("/") ? "/" : ""
        var above = current.isEmpty ? "." : current
        for part in path.split(separator: "/") {
            current += current.isEmpty || current.hasSuffix("/") ? String(part) : "/" + part
            try refuseRootCreating(current, inside: above)
            if mkdir(current, mode_t(mode)) != 0 && errno != EEXIST {
                throw .cannotCreate(path: current, reason: errnoText())
            }
            above = current
        }
    }

    /// Refuses root making `folder` (missing) inside `parent` (by default the folder above it) when `parent`
    /// belongs to another user: their folder would hold root's 0700 one (their `~/.local` made unusable by
    /// `sudo -E apnsctl`). For every folder apnsctl makes: `makeDirectories`, and a folder made by renaming.
    public static func refuseRootCreating(_ folder: String, inside parent: String? = nil) throws(Failure) {
        guard geteuid() == 0 else { return }
        let parent = parent ?? PrivateDirectory.parentPath(of: folder)
        var st = stat()
        guard lstat(folder, &st) != 0, errno == ENOENT, stat(parent, &st) == 0, st.st_uid != 0 else { return }
        throw .cannotCreate(
            path: folder,
            reason: "it would be root's, inside \(parent), a folder of \(FileOwnership.ownerName(st.st_uid)), who "
                + "could then not use it (sudo -E and containers keep another user's HOME)")
    }

    /// The last path component (`AuthKey_ABC.p8` from `/x/AuthKey_ABC.p8`).
    public static func baseName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }
}

extension FileSystem {
    /// Whether `directory` holds at least one certificate under OpenSSL's hashed name (`3513523f.0`, as
    /// `openssl rehash` and `update-ca-certificates` write them): a directory OpenSSL can search by subject
    /// hash. Stops at the first such name.
    public static func holdsHashedCertificateNames(_ directory: String) -> Bool {
        guard let dir = opendir(directory) else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if isHashedName(name) { return true }
        }
        return false
    }

    /// `^[0-9a-f]{8}\.[0-9]+$`.
    static func isHashedName(_ name: [UInt8]) -> Bool {
        guard name.count >= 10, name[8] == UInt8(ascii: ".") else { return false }
        let hex = name[0..<8].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        let digits = name[9...].allSatisfy { (0x30...0x39).contains($0) }
        return hex && digits
    }
}

/// A terminal's echo turned off until `restore`, guarded as a passphrase prompt is
/// (`PromptSignals`: Ctrl-C or Ctrl-Z never leaves the terminal without echo); nothing for a descriptor that is
/// no terminal.
private struct EchoOff {
    private let fd: Int32
    private let saved: termios
    private let guarded: PromptSignals

    init?(_ fd: Int32) {
        var saved = termios()
        guard isatty(fd) == 1, tcgetattr(fd, &saved) == 0 else { return nil }
        var quiet = saved
        // tcflag_t is 32 bits on Glibc and 64 on Darwin; converting the flag to it is right on both.
        // Not even line ends: a pasted PEM's thirty would show as blank lines.
        quiet.c_lflag &= ~(tcflag_t(ECHO) | tcflag_t(ECHONL))
        (self.fd, self.saved) = (fd, saved)
        guarded = PromptSignals(fd: fd, saved: saved, quiet: quiet, prompt: [])
        _ = tcsetattr(fd, TCSANOW, &quiet)
    }

    func restore() {
        var back = saved
        _ = tcsetattr(fd, TCSANOW, &back)
        guarded.remove()
    }
}
