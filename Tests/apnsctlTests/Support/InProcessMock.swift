import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation

@testable import APNSCtlCommands
@testable import APNSMock

/// `apnsctl mock`'s server in the test process, for tests where the mock is a peer and not the subject: the
/// same flags (`--reject`, `--env`, the fault flags…) parsed by the mock command itself and the same server it
/// runs, on port 0 with its own state dir, ready (mock.json written) when `init` returns. What only the process
/// does (the state dir's lock, the ready lines, the stop on signals) stays with `MockProcess` and the mock's tests.
/// Same surface as `MockProcess`, so a test switches by its type name.
final class InProcessMock: @unchecked Sendable {
    let stateDirectory: TemporaryDirectory
    let endpoint: String
    let caFile: String
    let certificate: String
    let authKey: String
    let keyID: String
    let teamID: String
    let bundleID: String
    let server: MockServer
    /// The state dir's lock, held while the server runs, as the mock command holds it.
    private let stateLock: FileLock
    private let logDescriptor: Int32?

    /// Where the notification log goes, when kept (`keepingLog: true`).
    var logFile: String { stateDirectory.file("log.jsonl") }
    /// What the log says so far.
    var log: MockLogFile { MockLogFile(path: logFile) }

    /// A mock with `arguments` added (e.g. `--reject TOKEN=REASON`); the rest as `MockProcess.init`. `adjusting`
    /// changes what no flag sets (its clock, an observer of answers, its timeouts) before it starts.
    init(
        _ arguments: [String] = [], keepingLog: Bool = false, sharingCredentialsWith other: InProcessMock? = nil,
        seededWith seed: TestCredentials? = nil, adjusting: ((inout MockConfiguration) -> Void)? = nil
    ) throws {
        stateDirectory = try TemporaryDirectory(prefix: "mock-state")
        try MockProcess.prepare(stateDirectory, seededWith: seed, sharingCredentialsWith: other?.stateDirectory)
        let command = try APNSCtl.Mock.parse(["--port", "0", "--state-dir", stateDirectory.path] + arguments)
        let (state, lock) = try MockState.prepareExclusively(directory: stateDirectory.path)
        stateLock = lock
        logDescriptor =
            keepingLog ? open(stateDirectory.file("log.jsonl"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) : nil
        let (gone, rejections) = try command.answerRules()
        let environment = APNSEnvironment(userValue: command.environment) ?? .sandbox
        var configuration = try command.configuration(
            state: state, environment: environment,
            unregistered: gone, rejections: rejections, extraKeyID: try command.extraKeyID(),
            logDescriptor: logDescriptor)
        adjusting?(&configuration)
        server = try MockServer(configuration: configuration)
        let port = try server.start()
        ProcessSignals.ignoreBrokenPipe()
        endpoint = MockReadyFile.endpoint(host: command.host, port: port)
        // What `-p mock` reads, as the mock writes it once ready.
        try MockReadyFile.write(state: state, endpoint: endpoint, environment: environment)
        caFile = state.caFile
        certificate = state.clientFile
        authKey = state.authKeyFile
        keyID = state.keyID
        teamID = state.teamID
        bundleID = MockState.bundleID
    }

    /// What `RunningMock` offers, for tests that only need the mock's answers: mock.json's fields, the demo
    /// certificate, the log (kept with `keepingLog`), the state dir.
    var ready: [String: Any] {
        let data = FileManager.default.contents(atPath: stateDirectory.file("mock.json")) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
    var certFile: String { certificate }
    var stdout: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }
    var stateDir: String { stateDirectory.path }
    var directory: TemporaryDirectory { stateDirectory }

    /// A bearer token from `apnsctl jwt` with the state dir's key.
    func token() throws -> String {
        let r = try InProcess.apnsctl(["jwt", "--auth-key", authKey, "--team-id", teamID])
        guard r.status == 0 else { throw TestSupportError("apnsctl jwt failed: \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How many times the mock answered each device (`MockLogFile.answersPerDevice`; call once the client has
    /// finished): with no minimum, read once the server is quiet.
    func answersPerDevice(expectingAtLeast minimum: Int = 0) -> [String: Int] {
        log.answersPerDevice(expectingAtLeast: minimum, once: minimum == 0 ? { [server] in server.isQuiet } : nil)
    }

    /// How many times each device's request reached the mock whole (`MockLogFile.receiptsPerDevice`), read once
    /// the server is quiet (call once the client has finished).
    func receiptsPerDevice(expectingAtLeast minimum: Int = 0) -> [String: Int] {
        log.receiptsPerDevice(expectingAtLeast: minimum, once: { [server] in server.isQuiet })
    }

    /// Stops serving (open streams finish first); safe to call more than once.
    func stop() { server.stop() }

    deinit {
        stop()
        if let logDescriptor { close(logDescriptor) }
    }
}
