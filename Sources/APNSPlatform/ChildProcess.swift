#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Runs another program with an argument vector (never through a shell, so no value is ever parsed as shell
/// syntax) and waits for it, its output collected in files of a private scratch folder: no pipe to fill up,
/// and nothing of the child's outlives the call.
public enum ChildProcess {
    /// How a child ended, and what it wrote.
    public struct Outcome: Sendable, Equatable {
        /// The exit status, or 128 + the signal that ended it.
        public let status: Int32
        public let standardOutput: [UInt8]
        public let standardError: [UInt8]
    }

    public enum Failure: Error, Equatable, Sendable {
        case cannotRun(path: String, reason: String)
        /// Still running after the time allowed; it was killed.
        case timedOut(path: String, seconds: Double)
    }

    /// `name`'s path: itself when it holds a `/`, else the first executable `PATH` entry holding it.
    public static func find(_ name: String, path: String?) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            var st = stat()
            if stat(candidate, &st) == 0, st.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Runs `executable` (a path) with `arguments` and exactly `environment`, standard input from
    /// `/dev/null`, and waits at most `timeout` seconds. `scratch` is a private folder for the output files.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], scratch: String,
        timeout: Double
    ) throws(Failure) -> Outcome {
        let outPath = scratch + "/stdout"
        let errPath = scratch + "/stderr"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let started = SpawnedProcess.start(
            executable, arguments: arguments, environment: environment,
            descriptors: [
                (0, .file("/dev/null", flags: O_RDONLY, mode: 0)),
                (1, .file(outPath, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)),
                (2, .file(errPath, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)),
            ])
        let child: SpawnedProcess
        switch started {
        case .success(let spawned): child = spawned
        case .failure(let error): throw .cannotRun(path: executable, reason: error.text)
        }
        let (code, killed) = child.waitForExit(killingAfter: timeout)
        if killed { throw .timedOut(path: executable, seconds: timeout) }
        let out = (try? FileSystem.read(outPath, limit: 1 << 20)) ?? []
        let err = (try? FileSystem.read(errPath, limit: 1 << 20)) ?? []
        return Outcome(status: code, standardOutput: out, standardError: err)
    }

    /// Removes a file of the scratch folder (the payload given to the child).
    public static func removeScratchFile(_ path: String) { unlink(path) }
}
