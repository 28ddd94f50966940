import Foundation

// A release build of the package (make release, make dist) builds this target without the test libraries.
#if canImport(Testing)
    import Testing
#endif

/// Which tests start the built `apnsctl` (directly, through a shell, or as `apnsctl mock`): with
/// `$APNSCTL_COUNT_BINARY_STARTS` naming a file, each start appends the running test's id to it, so
/// `sort -u FILE | wc -l` counts the tests that are about the process (or still spawn it without need).
public enum BinaryStarts {
    private static let file: String? = {
        let path = ProcessInfo.processInfo.environment["APNSCTL_COUNT_BINARY_STARTS"] ?? ""
        return path.isEmpty ? nil : path
    }()
    private static let lock = NSLock()

    /// Notes that the running test starts the binary (nothing without the variable).
    public static func record() {
        guard let file else { return }
        #if canImport(Testing)
            let id = Test.current.map { "\($0.id)" } ?? "(outside a test)"
        #else
            let id = "(a test)"
        #endif
        lock.lock()
        defer { lock.unlock() }
        guard
            let handle = FileHandle(forWritingAtPath: file)
                ?? {
                    _ = FileManager.default.createFile(atPath: file, contents: nil)
                    return FileHandle(forWritingAtPath: file)
                }()
        else { return }
        handle.seekToEndOfFile()
        handle.write(Data((id + "\n").utf8))
        handle.closeFile()
    }

    /// Whether running `executable` with `arguments` and `environment` starts the binary (the one built next to
    /// the tests, or the one peak memory is measured on): it is the binary, or a shell or another program is
    /// handed its path or a PATH holding its directory.
    public static func starts(_ executable: String, _ arguments: [String], environment: [String: String]) -> Bool {
        let binaries = Set([CommandRunner.apnsctlPath, CommandRunner.measuredPath])
        let directories = Set(binaries.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
        return binaries.contains(executable)
            || arguments.contains { argument in binaries.contains { argument.contains($0) } }
            || (environment["PATH"]?.split(separator: ":").contains { directories.contains(String($0)) } ?? false)
    }
}
