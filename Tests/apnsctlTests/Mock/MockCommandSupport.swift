import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation

/// `apnsctl mock` running in the background for end-to-end tests: started on port 0 with its own state dir,
/// ready once mock.json appears; stdout (the log) and stderr go to files (in-process, the command's messages to
/// memory and the running mock's warnings to the file).
/// By default the command runs in the test process, on a thread of its own, stopped by the interrupts its world
/// is delivered; `asProcess` starts the built binary instead, for what only the process shows (its descriptors
/// in /proc, its own signals, a `ulimit`).
final class RunningMock: @unchecked Sendable {
    let directory: TemporaryDirectory
    let stateDir: String
    private(set) var ready: [String: Any] = [:]
    private let runner: Runner
    private let logDescriptor: Int32?
    private let warningsDescriptor: Int32?

    private enum Runner {
        case process(Process)
        case inProcess(InProcess.Run)
    }

    /// `openFileLimit` runs the mock under `ulimit -n` (through sh, which execs it, so the pid stays the mock's;
    /// always a process). A relative `stateDir` is taken relative to `workingDirectory` (the test's temporary dir
    /// when `relative`).
    init(
        arguments: [String] = [], stateDir: String? = nil, openFileLimit: Int? = nil, relative: Bool = false,
        asProcess: Bool = false
    ) throws {
        directory = try TemporaryDirectory(prefix: "mock-e2e")
        self.stateDir = stateDir ?? directory.file("state")
        let mockArguments = ["mock", "--port", "0", "--state-dir", self.stateDir] + arguments
        _ = FileManager.default.createFile(atPath: directory.file("stdout"), contents: nil)
        _ = FileManager.default.createFile(atPath: directory.file("stderr"), contents: nil)
        if asProcess || openFileLimit != nil {
            let process = Process()
            if relative { process.currentDirectoryURL = URL(fileURLWithPath: directory.path) }
            BinaryStarts.record()
            if let openFileLimit {
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments =
                    ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" \"$@\"", CommandRunner.apnsctlPath]
                    + mockArguments
            } else {
                process.executableURL = URL(fileURLWithPath: CommandRunner.apnsctlPath)
                process.arguments = mockArguments
            }
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("stdout")))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("stderr")))
            try process.runAsAShellWould()
            runner = .process(process)
            logDescriptor = nil
            warningsDescriptor = nil
        } else {
            let log = open(directory.file("stdout"), O_WRONLY | O_APPEND | O_CLOEXEC)
            guard log >= 0 else { throw TestSupportError("opening the mock's log: \(FileSystem.errnoText())") }
            let warnings = open(directory.file("stderr"), O_WRONLY | O_APPEND | O_CLOEXEC)
            guard warnings >= 0 else {
                close(log)
                throw TestSupportError("opening the mock's warnings file: \(FileSystem.errnoText())")
            }
            logDescriptor = log
            warningsDescriptor = warnings
            runner = .inProcess(
                try InProcess.Run(
                    mockArguments, directory: relative ? directory.path : nil, mockLog: log, mockWarnings: warnings))
        }
        let readyFile = (relative ? directory.path + "/" : "") + self.stateDir + "/mock.json"
        var found: [String: Any]? = nil
        Wait.until {
            if let data = FileManager.default.contents(atPath: readyFile),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            {
                found = json
            }
            return found != nil || !isRunning
        }
        if let found {
            ready = found
            return
        }
        throw TestSupportError("apnsctl mock did not become ready: \(stderr)")
    }

    deinit {
        switch runner {
        case .process(let process):
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        case .inProcess(let run):
            // A thread cannot be killed: stopped as by SIGTERM, and waited for, so its descriptors are unused. One
            // that never ended keeps them: closing them could hand their numbers to another test while it writes.
            if run.finish(within: 0).status == nil {
                run.interrupts.deliver(SIGTERM)
                guard run.finish(within: Self.stopDeadline).status != nil else { return }
            }
        }
        if let logDescriptor { close(logDescriptor) }
        if let warningsDescriptor { close(warningsDescriptor) }
    }

    /// Whether the mock still runs.
    var isRunning: Bool {
        switch runner {
        case .process(let process): return process.isRunning
        case .inProcess(let run): return run.finish(within: 0).status == nil
        }
    }

    /// The mock's process: the child's id, or this one's when it runs in-process.
    var pid: Int32 {
        switch runner {
        case .process(let process): return process.processIdentifier
        case .inProcess: return getpid()
        }
    }

    var endpoint: String { ready["endpoint"] as? String ?? "" }
    var caFile: String { ready["ca_file"] as? String ?? "" }
    var certFile: String { ready["cert"] as? String ?? "" }
    var stdout: String { (try? directory.read("stdout")) ?? "" }
    var stderr: String {
        switch runner {
        case .process: return (try? directory.read("stderr")) ?? ""
        case .inProcess(let run): return run.stderr + ((try? directory.read("stderr")) ?? "")
        }
    }

    /// How long a test waits for a stopped mock to end. CLI.md promises a second (the loops drain for 700 ms,
    /// then the stop's own deadline ends the process); the test waits for the event, the exit, with a deadline
    /// a loaded machine never reaches, which still fails a mock that waits for its clients or ignores the signal.
    static let stopDeadline = 30.0

    /// Sends `signal` (to the process, or through the world of a mock run in-process) and waits for the exit:
    /// its status, or nil if the mock still ran after `stopDeadline` (a process is then killed).
    func terminate(signal: Int32 = SIGTERM) -> Int32? {
        switch runner {
        case .process(let process):
            kill(process.processIdentifier, signal)
            let ended = Wait.until(seconds: Self.stopDeadline, interval: 0.005) { !process.isRunning }
            if !ended { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return ended ? process.terminationStatus : nil
        case .inProcess(let run):
            run.interrupts.deliver(signal)
            let status = run.finish(within: Self.stopDeadline).status
            // The mock let go of its state dir's lock when it ended, but a child another test forked in this process
            // meanwhile holds a copy of the descriptor until it execs: the next mock on the dir waits for that event
            // (the kernel wakes the waiter), as `mock stop` does, instead of finding the dir in use.
            if status != nil, let storage = try? PrivateDirectory.open(stateDir) {
                _ = FileLock.waitUntilFree(MockState.lockName, in: storage)
            }
            return status
        }
    }

    /// A bearer token from `apnsctl jwt` with the state dir's key.
    func token() throws -> String {
        let r = try InProcess.apnsctl([
            "jwt", "--auth-key", ready["auth_key"] as? String ?? "",
            "--team-id", ready["team_id"] as? String ?? "",
        ])
        guard r.status == 0 else { throw TestSupportError("apnsctl jwt failed: \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A mock curl can reach: the process (`RunningMock`) or the one in the test process (`InProcessMock`).
protocol CurlableMock {
    var endpoint: String { get }
    var caFile: String { get }
    var certFile: String { get }
}

extension CurlableMock {
    /// `curl --http2` against the mock (`MockCurl`).
    func curl(
        path: String = MockCurl.path, method: String = "POST", headers: [String] = MockCurl.headers,
        body: String? = MockCurl.body, certificate: Bool = true
    ) throws -> (status: Int, body: String, headers: String) {
        try MockCurl.request(
            endpoint: endpoint, caFile: caFile, certFile: certFile, path: path, method: method, headers: headers,
            body: body, certificate: certificate)
    }
}

extension RunningMock: CurlableMock {}
extension InProcessMock: CurlableMock {}

/// `curl --http2` against a mock, the process or the one in the test process.
enum MockCurl {
    static let path = "/3/device/" + String(repeating: "3f", count: 32)
    static let headers = ["apns-topic: com.example.demo"]
    static let body: String? = #"{"aps":{"alert":"hi"}}"#

    /// Status, body and response headers; the demo certificate unless `certificate` is false.
    static func request(
        endpoint: String, caFile: String, certFile: String, path: String, method: String, headers: [String],
        body: String?, certificate: Bool
    ) throws -> (status: Int, body: String, headers: String) {
        let r = try CurlHTTP2.request(
            endpoint + path, method: method, headers: headers, body: body, caFile: caFile,
            certificate: certificate ? certFile : nil)
        return (r.status, r.body, r.headers)
    }
}
