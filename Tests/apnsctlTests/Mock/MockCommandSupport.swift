import APNSPlatform
import APNSTestSupport
import Foundation

/// `apnsctl mock` running in the background for end-to-end tests: started on port 0 with its own state dir,
/// ready once mock.json appears; stdout (the log) and stderr go to files.
final class RunningMock: @unchecked Sendable {
    let directory: TemporaryDirectory
    let stateDir: String
    let process = Process()
    private(set) var ready: [String: Any] = [:]

    /// `openFileLimit` runs the mock under `ulimit -n` (through sh, which execs it, so the pid stays the mock's).
    /// A relative `stateDir` is taken relative to `workingDirectory` (the test's temporary dir when `relative`).
    init(arguments: [String] = [], stateDir: String? = nil, openFileLimit: Int? = nil, relative: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "mock-e2e")
        if relative { process.currentDirectoryURL = URL(fileURLWithPath: directory.path) }
        self.stateDir = stateDir ?? directory.file("state")
        let mockArguments = ["mock", "--port", "0", "--state-dir", self.stateDir] + arguments
        if let openFileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" \"$@\"", CommandRunner.apnsctlPath] + mockArguments
        } else {
            process.executableURL = URL(fileURLWithPath: CommandRunner.apnsctlPath)
            BinaryStarts.record()
            process.arguments = mockArguments
        }
        _ = FileManager.default.createFile(atPath: directory.file("stdout"), contents: nil)
        _ = FileManager.default.createFile(atPath: directory.file("stderr"), contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("stdout")))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("stderr")))
        try process.run()
        let readyFile = (relative ? directory.path + "/" : "") + self.stateDir + "/mock.json"
        var found: [String: Any]? = nil
        Wait.until { [process] in
            if let data = FileManager.default.contents(atPath: readyFile),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            {
                found = json
            }
            return found != nil || !process.isRunning
        }
        if let found {
            ready = found
            return
        }
        throw TestSupportError("apnsctl mock did not become ready: \(stderr)")
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var endpoint: String { ready["endpoint"] as? String ?? "" }
    var caFile: String { ready["ca_file"] as? String ?? "" }
    var certFile: String { ready["cert"] as? String ?? "" }
    var stdout: String { (try? directory.read("stdout")) ?? "" }
    var stderr: String { (try? directory.read("stderr")) ?? "" }

    /// The most a stop may take in a test. CLI.md promises "within a second" (the loops drain for 700 ms);
    /// a machine busy with other builds can stretch that, so tests allow 5 s, which still fails a mock that
    /// waits for its clients or ignores the signal (`terminate` kills it after 10 s).
    static let stopBound = 5.0

    /// Sends SIGTERM and waits; returns the exit status and the seconds it took.
    func terminate(signal: Int32 = SIGTERM) -> (status: Int32, seconds: Double) {
        let start = Date()
        kill(process.processIdentifier, signal)
        Wait.until(seconds: 10, interval: 0.002) { !process.isRunning }
        let seconds = Date().timeIntervalSince(start)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationStatus, seconds)
    }

    /// A bearer token from `apnsctl jwt` with the state dir's key.
    func token() throws -> String {
        let r = try CommandRunner.apnsctl([
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
