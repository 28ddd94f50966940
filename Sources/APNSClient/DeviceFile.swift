import APNSCore
import APNSPlatform

/// A `--devices FILE`: one token per line, blank lines and `#` comments skipped.
///
/// Opening it reads it once to check every token (so a bad line stops the run before anything is
/// sent) and to count them; `makeSource()` then reads it again, a line at a time, while sending.
/// Standard input (`-`) cannot be read twice, so it is first copied to a private temporary file.
public final class DeviceFile {
    /// Why the list cannot be used: the file (exit 66) or a token in it (exit 64).
    public enum Problem: Error, Equatable, Sendable {
        case file(FileSystem.Failure)
        case token(file: String, line: Int, text: String, problem: DeviceToken.Problem)

        /// One line naming the file and line, what is wrong and what to do (the caller names its flag).
        public var message: String {
            switch self {
            case .file(let f): return f.message
            case .token(let file, let line, let text, let problem):
                let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
                return "\(file):\(line): \"\(shown)\": \(problem.message)"
            }
        }
    }

    /// The name the user gave (`-` for standard input).
    public let displayName: String
    private let readPath: String
    private let spoolDirectory: String?
    /// Number of tokens in the file.
    public private(set) var count = 0
    /// Line numbers of tokens shorter than 32 bytes (the first few), and how many there are in all.
    public private(set) var shortTokenLines: [Int] = []
    public private(set) var shortTokenCount = 0

    /// Opens and checks `path` (`-` = standard input).
    public init(path: String) throws(Problem) {
        displayName = path
        if path == "-" {
            let dir: String
            do { dir = try FileSystem.makeTemporaryDirectory(prefix: "apnsctl-devices") } catch { throw .file(error) }
            let spool = dir + "/devices"
            spoolDirectory = dir
            readPath = spool
            do { try Self.spoolStandardInput(to: spool) } catch { Self.remove(dir); throw .file(error) }
        } else {
            spoolDirectory = nil
            readPath = path
        }
        let reader = try openReader()
        while let line = reader.next() {
            guard let text = Self.tokenText(line) else { continue }
            do {
                let token = try DeviceToken(parsing: text)
                count += 1
                if token.looksTruncated {
                    shortTokenCount += 1
                    if shortTokenLines.count < 5 { shortTokenLines.append(reader.lineNumber) }
                }
            } catch {
                throw .token(file: path, line: reader.lineNumber, text: text, problem: error)
            }
        }
    }

    deinit { if let spoolDirectory { Self.remove(spoolDirectory) } }

    /// A fresh pass over the tokens, read lazily.
    public func makeSource() throws(Problem) -> DeviceSource {
        DeviceFileSource(reader: try openReader())
    }

    /// The token on a line, or nil for blank lines and comments.
    static func tokenText(_ line: String) -> String? {
        var s = Substring(line)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        if s.isEmpty || s.hasPrefix("#") { return nil }
        return String(s)
    }

    private func openReader() throws(Problem) -> LineReader {
        let fd = open(readPath, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let e = errno
            if e == ENOENT || e == ENOTDIR { throw .file(.missing(path: displayName)) }
            throw .file(.unreadable(path: displayName, reason: FileSystem.errnoText(e)))
        }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw .file(.isDirectory(path: displayName))
        }
        return LineReader(fd: fd, ownsDescriptor: true)
    }

    private static func spoolStandardInput(to path: String) throws(FileSystem.Failure) {
        let out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw .cannotCreate(path: path, reason: FileSystem.errnoText()) }
        defer { close(out) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { posixRead(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            var written = 0
            while written < n {
                let w = chunk.withUnsafeBytes { p -> Int in
                    guard let base = p.baseAddress else { return -1 }
                    return posixWrite(out, base + written, n - written)
                }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw .cannotCreate(path: path, reason: FileSystem.errnoText()) }
                written += w
            }
        }
    }

    private static func remove(_ directory: String) {
        unlink(directory + "/devices")
        rmdir(directory)
    }
}

/// Reads tokens from a checked device file as the sender asks for them.
final class DeviceFileSource: DeviceSource {
    private let reader: LineReader

    /// Reads tokens through `reader`.
    init(reader: LineReader) { self.reader = reader }

    /// The next token line, skipping blanks and comments.
    func next() -> DeviceToken? {
        while let line = reader.next() {
            guard let text = DeviceFile.tokenText(line) else { continue }
            // Checked when the file was opened; a line changed since then is skipped, never fatal.
            if let token = try? DeviceToken(parsing: text) { return token }
        }
        return nil
    }
}
