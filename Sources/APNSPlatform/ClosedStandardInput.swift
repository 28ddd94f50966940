/// Whether this process's standard input was closed when it started (`<&-`). `OutputSink.reserveStandardDescriptors`
/// puts a read-only /dev/null on descriptor 0 then, which reads as an empty file: `-` would be judged an empty
/// payload (65) or an empty credential, where the input is what is missing (66).
enum ClosedStandardInput {
    private static let closed = LockedValue(false)

    /// Called by `reserveStandardDescriptors` when descriptor 0 was closed.
    static func remember() { closed.withLock { $0 = true } }

    /// Refuses a read of `fd` named `path` when it is the standard input that was closed at start.
    static func check(_ fd: Int32, path: String) throws(FileSystem.Failure) {
        guard fd == 0, closed.current else { return }
        throw .unreadable(path: path, reason: "standard input was closed when apnsctl started (<&-)")
    }
}
