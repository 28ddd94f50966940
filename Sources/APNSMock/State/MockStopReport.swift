import APNSPlatform

/// `mock.stopped`: what a detached mock had to say when it stopped (its log could not be written, so neither
/// could its stderr, the same file), kept in its state dir for `apnsctl mock stop`, the one command that waits
/// for it, to pass on with the mock's exit status. Written while the mock still holds the state dir's lock, so a
/// stop that has waited for the lock reads the whole file; a leftover is removed by the next mock to hold it.
public struct MockStopReport: Sendable, Equatable {
    static let fileName = "mock.stopped"

    public var exitStatus: Int32
    public var message: String

    public init(exitStatus: Int32, message: String) {
        self.exitStatus = exitStatus
        self.message = message
    }

    /// Keeps the report for `mock stop`; nothing to do if it cannot (the state dir is the mock's own, and the
    /// mock is stopping either way).
    public func keep(in state: MockState) {
        let text = "\(exitStatus)\n\(message)\n"
        try? state.storage.write(Array(text.utf8), to: Self.fileName, mode: 0o600, overwrite: true)
    }

    /// The report a stopped mock left in `storage`, removed as it is read so it is said once.
    public static func take(from storage: PrivateDirectory) -> MockStopReport? {
        guard let bytes = try? storage.read(fileName, limit: 64 * 1024) else { return nil }
        storage.remove(fileName)
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let status = Int32(parts[0]) else { return nil }
        var message = String(parts[1])
        while message.hasSuffix("\n") { message.removeLast() }
        return MockStopReport(exitStatus: status, message: message)
    }

    /// Removes a report left by an earlier mock; call it only while holding the state dir's lock.
    public static func removeLeftover(state: MockState) {
        state.storage.remove(fileName)
    }
}
