import Foundation

/// A second local user for tests of what one user can do to another's files: commands run as uid
/// and gid 65534 (`nobody`) through `setpriv`, which needs root. Tests that need it are skipped otherwise.
public enum OtherUser {
    public static let uid: uid_t = 65534

    /// Whether the tests can switch users (they run as root).
    public static var isAvailable: Bool { getuid() == 0 }

    /// `setpriv` arguments that run a program as `uid` (gid the same), without supplementary groups.
    public static func prefix(uid: uid_t = OtherUser.uid) -> [String] {
        ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
    }

    /// Runs `arguments` (a program and its arguments) as `uid`; throws when it fails.
    @discardableResult
    public static func run(_ arguments: [String], uid: uid_t = OtherUser.uid, directory: String? = nil) throws
        -> CommandResult
    {
        let result = try CommandRunner.run("setpriv", prefix(uid: uid) + arguments, directory: directory, timeout: 20)
        guard result.status == 0 else {
            throw TestSupportError("as uid \(uid): \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
        return result
    }

    /// A folder the other user owns (mode 0755) inside `base`, which is opened for them to traverse.
    public static func area(in base: TemporaryDirectory, named name: String = "other") throws -> String {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: base.path)
        let path = base.file(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        guard chown(path, uid, uid) == 0 else { throw TestSupportError("chown \(path) failed") }
        return path
    }

    /// Owner and permission bits of `path` itself (a link is not followed).
    public static func ownerAndMode(_ path: String) -> (uid: uid_t, mode: Int)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (st.st_uid, Int(st.st_mode & 0o7777))
    }
}
