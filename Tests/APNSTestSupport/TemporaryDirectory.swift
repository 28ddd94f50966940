import APNSPlatform
import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// A private scratch directory, removed when the value goes away, so each test is independent; one a static holds
/// for the whole run (shared credentials, a long-lived reader's folder) is removed when the run ends, as a static is
/// never deinitialised (they left a folder of test keys in /tmp on every run).
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    /// The directories not yet removed, for the removal at exit.
    private static let live: LockedValue<Set<String>> = {
        atexit { for path in TemporaryDirectory.live.current { try? FileManager.default.removeItem(atPath: path) } }
        return LockedValue([])
    }()

    public init(prefix: String = "apnsctl-test") throws {
        let base = NSTemporaryDirectory()
        // mkdtemp writes the name into the buffer it is lent; Platform reads it inside that loan.
        guard let made = FileSystem.makeUniqueDirectory(template: "\(base)/\(prefix).XXXXXX") else {
            throw TestSupportError("mkdtemp failed: \(FileSystem.errnoText())")
        }
        path = made
        Self.live.withLock { _ = $0.insert(made) }
    }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String, mode: Int = 0o644) throws -> String {
        try write(name, Array(text.utf8), mode: mode)
    }

    /// Writes bytes to `name` and returns its path: straight from the array (a `Data` would copy it first, and
    /// tests write inputs of 60 MiB).
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8], mode: Int = 0o644) throws -> String {
        let p = file(name)
        let fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw TestSupportError("creating \(p): \(FileSystem.errnoText())") }
        defer { close(fd) }
        var written = 0
        try bytes.withUnsafeBytes { all in
            guard let base = all.baseAddress else { return }
            while written < all.count {
                let n = systemWrite(fd, base + written, all.count - written)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw TestSupportError("writing \(p): \(FileSystem.errnoText())") }
                written += n
            }
        }
        // The mode as given, whatever the umask took from it at creation (and for a file that existed).
        guard fchmod(fd, mode_t(mode)) == 0 else {
            throw TestSupportError("setting the mode of \(p): \(FileSystem.errnoText())")
        }
        return p
    }

    /// Reads `name` as text.
    public func read(_ name: String) throws -> String {
        try String(contentsOfFile: file(name), encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
        Self.live.withLock { _ = $0.remove(path) }
    }
}
