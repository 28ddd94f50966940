import Testing

@testable import APNSPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The settings file's edits run in turn under a lock on its folder: a second holder waits, then is told the
/// folder is held; a folder not made yet, or one others can write (where anyone could hold it), is not locked.
@Suite struct DirectoryLockTests {
    /// A new folder of ours (0700) under the temporary directory; removed by the caller.
    static func folder() throws -> String {
        let made = FileSystem.makeUniqueDirectory(template: "/tmp/dir-lock.XXXXXX")
        return try #require(made)
    }

    @Test func aSecondHolderIsToldTheFolderIsHeldUntilTheFirstLetsGo() throws {
        let path = try Self.folder()
        defer { rmdir(path) }
        var first: DirectoryLock? = nil
        if case .acquired(let held) = DirectoryLock.acquire(path, seconds: 0) { first = held }
        #expect(first != nil)
        guard case .held(let directory) = DirectoryLock.acquire(path, seconds: 0) else {
            Issue.record("a second lock was taken while the first was held")
            return
        }
        #expect(directory == path)
        first = nil
        guard case .acquired = DirectoryLock.acquire(path, seconds: 0) else {
            Issue.record("the lock was not let go with its holder")
            return
        }
    }

    @Test func aMissingOrSharedFolderIsNotLocked() throws {
        let path = try Self.folder()
        defer { rmdir(path) }
        guard case .unavailable = DirectoryLock.acquire(path + "/missing", seconds: 0) else {
            Issue.record("a missing folder was locked")
            return
        }
        let shared = path + "/shared"
        #expect(mkdir(shared, 0o700) == 0 && chmod(shared, 0o777) == 0)
        defer { rmdir(shared) }
        guard case .unavailable = DirectoryLock.acquire(shared, seconds: 0) else {
            Issue.record("a folder others can write was locked")
            return
        }
    }
}
