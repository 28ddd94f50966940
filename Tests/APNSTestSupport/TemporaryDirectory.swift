import APNSPlatform
import Foundation

/// A private scratch directory, removed when the value goes away, so each test is independent.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init(prefix: String = "apnsctl-test") throws {
        let base = NSTemporaryDirectory()
        // mkdtemp writes the name into the buffer it is lent; Platform reads it inside that loan.
        guard let made = FileSystem.makeUniqueDirectory(template: "\(base)/\(prefix).XXXXXX") else {
            throw TestSupportError("mkdtemp failed: \(FileSystem.errnoText())")
        }
        path = made
    }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String, mode: Int = 0o644) throws -> String {
        try write(name, Array(text.utf8), mode: mode)
    }

    /// Writes bytes to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8], mode: Int = 0o644) throws -> String {
        let p = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: p)
        return p
    }

    /// Reads `name` as text.
    public func read(_ name: String) throws -> String {
        try String(contentsOfFile: file(name), encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
