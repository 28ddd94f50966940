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
        /// `name` is not an executable file in any folder of `PATH`.
        case notFound(name: String)
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
        #if canImport(Darwin)
            // Darwin's file actions are an opaque pointer that init fills in.
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for p in argv + envp { free(p) }
        }
        var pid = pid_t()
        let args = argv + [nil]
        let env = envp + [nil]
        let spawned = posix_spawn(&pid, executable, &actions, nil, args, env)
        guard spawned == 0 else { throw .cannotRun(path: executable, reason: FileSystem.errnoText(spawned)) }
        let deadline = SystemClock.monotonicNanoseconds() + UInt64(timeout * 1e9)
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw .cannotRun(path: executable, reason: FileSystem.errnoText()) }
            if SystemClock.monotonicNanoseconds() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw .timedOut(path: executable, seconds: timeout)
            }
            usleep(2_000)
        }
        // The wait status's layout is the same on Linux and Darwin: the signal in the low 7 bits, else the code.
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        let out = (try? FileSystem.read(outPath, limit: 1 << 20)) ?? []
        let err = (try? FileSystem.read(errPath, limit: 1 << 20)) ?? []
        return Outcome(status: code, standardOutput: out, standardError: err)
    }

    /// Removes a file of the scratch folder (the payload given to the child).
    public static func removeScratchFile(_ path: String) { unlink(path) }
}
