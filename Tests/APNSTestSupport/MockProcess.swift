import Foundation

/// `apnsctl mock` running as a child process for end-to-end tests: started on port 0 with its own
/// state dir, ready once `mock.json` appears, stopped with SIGTERM when the value goes away.
public final class MockProcess: @unchecked Sendable {
    public let stateDirectory: TemporaryDirectory
    public let endpoint: String
    public let caFile: String
    public let certificate: String
    public let authKey: String
    public let keyID: String
    public let teamID: String
    public let bundleID: String
    private let process: Process

    /// Starts the mock with `arguments` added (e.g. `--reject TOKEN=REASON`) and waits up to 20 s for it.
    public init(_ arguments: [String] = []) throws {
        stateDirectory = try TemporaryDirectory(prefix: "mock-state")
        process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.apnsctlPath)
        process.arguments = ["mock", "--port", "0", "--state-dir", stateDirectory.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let file = stateDirectory.file("mock.json")
        let deadline = Date().addingTimeInterval(20)
        var info: [String: Any]? = nil
        while Date() < deadline {
            if let data = FileManager.default.contents(atPath: file),
               let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                info = object
                break
            }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        guard let info, let endpoint = info["endpoint"] as? String else {
            process.terminate()
            throw TestSupportError("apnsctl mock did not write mock.json within 20 s")
        }
        self.endpoint = endpoint
        caFile = info["ca_file"] as? String ?? ""
        certificate = info["cert"] as? String ?? ""
        authKey = info["auth_key"] as? String ?? ""
        keyID = info["key_id"] as? String ?? ""
        teamID = info["team_id"] as? String ?? ""
        bundleID = info["bundle_id"] as? String ?? ""
    }

    /// Stops the mock with SIGKILL: children of the Swift Testing runner inherit a mask that blocks
    /// SIGTERM, and a graceful stop is not what these tests are about.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
