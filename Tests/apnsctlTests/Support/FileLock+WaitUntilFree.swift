import Foundation

@testable import APNSPlatform

extension FileLock {
    /// Blocks until no one holds the lock on `name` in `directory` (its holder exited or let go); false when the
    /// file cannot be opened. The kernel wakes the waiter, so nothing polls.
    static func waitUntilFree(_ name: String, in directory: PrivateDirectory) -> Bool {
        guard let fd = try? directory.openForLocking(name, mode: 0o644) else { return false }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { return false }
        }
        _ = flock(fd, LOCK_UN)
        return true
    }
}
