import APNSCore
import APNSPlatform
import Foundation

/// What a finished child process left behind.
public struct CommandResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    public let stdoutBytes: [UInt8]
    /// Wall-clock seconds from start to exit.
    public let seconds: Double
    /// True when the runner had to kill the child at its time limit.
    public let timedOut: Bool

    public init(status: Int32, stdout: String, stderr: String, stdoutBytes: [UInt8], seconds: Double, timedOut: Bool) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.stdoutBytes = stdoutBytes
        self.seconds = seconds
        self.timedOut = timedOut
    }

    /// stdout split into lines, without the trailing empty one.
    public var lines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }
    /// stderr split into lines.
    public var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs programs for end-to-end tests: the built `apnsctl`, and `openssl`/`curl` as independent peers.
public enum CommandRunner {
    /// The `apnsctl` binary built next to the test bundle (`$APNSCTL_BIN` overrides it).
    public static var apnsctlPath: String {
        if let p = ProcessInfo.processInfo.environment["APNSCTL_BIN"], !p.isEmpty { return p }
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // macOS runs tests from inside an .xctest bundle: climb out of it.
        while dir.path.contains(".xctest") { dir.deleteLastPathComponent() }
        return dir.appendingPathComponent("apnsctl").path
    }

    /// The binary a peak-memory bound is measured on: `$APNSCTL_MEASURED_BIN` when set (`make test` names the
    /// release build, the binary users run, where a 60 MiB `validate` takes a second instead of twenty), else
    /// the one built next to the tests.
    public static var measuredPath: String {
        if let p = ProcessInfo.processInfo.environment["APNSCTL_MEASURED_BIN"], !p.isEmpty { return p }
        return apnsctlPath
    }

    /// Whether `measuredPath` is the release build (`make test`), not the -enable-testing build beside the tests.
    public static var measuresReleaseBuild: Bool { measuredPath != apnsctlPath }

    /// Runs the built apnsctl with `arguments`.
    @discardableResult
    public static func apnsctl(
        _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:],
        directory: String? = nil, timeout: Double = 60
    ) throws -> CommandResult {
        try run(apnsctlPath, arguments, stdin: stdin, environment: environment, directory: directory, timeout: timeout)
    }

    /// Runs `executable` (a path, or a name looked up in PATH) and waits at most `timeout` seconds.
    /// The environment is the test's own plus `environment`, with NO_COLOR set so output is plain.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], stdin: [UInt8]? = nil,
        environment: [String: String] = [:], directory: String? = nil,
        timeout: Double = 60
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.contains("/") ? executable : try which(executable))
        process.arguments = arguments
        process.environment = commandEnvironment(environment)
        if BinaryStarts.starts(process.executableURL?.path ?? executable, arguments, environment: environment) {
            BinaryStarts.record()
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }

        let scratch = try TemporaryDirectory(prefix: "run")
        let outURL = URL(fileURLWithPath: scratch.path + "/stdout")
        let errURL = URL(fileURLWithPath: scratch.path + "/stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        let inPipe = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : inPipe

        // A child may exit without reading its input; writing to that pipe must fail with EPIPE, not kill the runner.
        ProcessSignals.ignoreBrokenPipe()
        // Told of the exit, rather than asking whether it ran still (many runs at once would each poll).
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let start = Date()
        try process.runAsAShellWould()
        if let stdin {
            let writer = inPipe.fileHandleForWriting
            DispatchQueue.global().async {
                try? writer.write(contentsOf: Data(stdin))
                try? writer.close()
            }
        }
        let timedOut = exited.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            process.terminate()
            if exited.wait(timeout: .now() + 0.2) == .timedOut { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? outHandle.close()
        try? errHandle.close()
        let outData = (try? Data(contentsOf: outURL)) ?? Data()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return CommandResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            stdoutBytes: [UInt8](outData),
            seconds: Date().timeIntervalSince(start), timedOut: timedOut)
    }

    /// The environment a command under test gets: the test's own plus `extra`, with NO_COLOR set so output is
    /// plain.
    public static func commandEnvironment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        // A proxy set for the machine running the tests must not reroute the tests' loopback connections;
        // proxy tests pass the variables they mean.
        for name in ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] { env[name] = nil }
        // The send history is kept under the state folder: a test that names neither it nor a home of its own
        // would record into the account running the tests.
        if extra["XDG_STATE_HOME"] == nil && extra["HOME"] == nil { env["APNSCTL_NO_HISTORY"] = "1" }
        // The provider token cache likewise, under the cache folder: such a test caches into a folder of this run's
        // (it left three tokens in the account's ~/.cache/apnsctl on every run of the suite).
        if extra["XDG_CACHE_HOME"] == nil && extra["HOME"] == nil { env["XDG_CACHE_HOME"] = runCacheHome }
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// A cache folder for this run of the tests (0700), removed when the run ends.
    static let runCacheHome: String = {
        let path = NSTemporaryDirectory() + "apnsctl-tests-cache-\(getpid())"
        mkdir(path, 0o700)
        atexit { _ = try? FileManager.default.removeItem(atPath: CommandRunner.runCacheHome) }
        return path
    }()

    /// The PATH a test's shell runs `script` with: the built apnsctl's directory first when the script calls
    /// `apnsctl` by name (so one that does not is not counted as starting it, `BinaryStarts`), after `first`.
    public static func searchPath(for script: String, first: [String] = []) -> String {
        let bin = URL(fileURLWithPath: apnsctlPath).deletingLastPathComponent().path
        let system = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (first + (script.contains("apnsctl") ? [bin] : []) + [system]).joined(separator: ":")
    }

    /// The full path of a program in PATH.
    public static func which(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TestSupportError("\(name) is not installed (make deps installs what the tests use)")
    }
}

/// A failure in the test scaffolding itself, not in the code under test.
public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
