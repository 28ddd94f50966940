import APNSCrypto
import APNSPlatform
import Foundation

// A release build of the package builds this target without the test libraries.
#if canImport(Testing)
    import Testing
#endif

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

    /// Where the notification log goes, when kept (`keepingLog: true`).
    public var logFile: String { stateDirectory.file("log.jsonl") }
    /// What the log says so far.
    public var log: MockLogFile { MockLogFile(path: logFile) }
    private let logHandle: FileHandle?

    /// Starts the mock with `arguments` added (e.g. `--reject TOKEN=REASON`) and waits up to 20 s for it.
    /// `keepingLog` writes its JSON log (one line per answered request) to `logFile`. `sharingCredentialsWith`
    /// copies another mock's CA, certificates and `.p8` key first, so one `--ca-file`, `--cert` or key
    /// works with both (two mocks playing sandbox and production for `--env auto`).
    /// `seededWith` writes those test credentials as the state dir's instead (its CA signs the server
    /// certificate and trusts the client certificates `TestCredentials` writes, with any validity).
    /// `binary` is the apnsctl that serves (the release build where a test sends it a million requests).
    public init(
        _ arguments: [String] = [], keepingLog: Bool = false, sharingCredentialsWith other: MockProcess? = nil,
        seededWith seed: TestCredentials? = nil, binary: String = CommandRunner.apnsctlPath
    ) throws {
        stateDirectory = try TemporaryDirectory(prefix: "mock-state")
        try Self.prepare(stateDirectory, seededWith: seed, sharingCredentialsWith: other?.stateDirectory)
        process = Process()
        BinaryStarts.record()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["mock", "--port", "0", "--state-dir", stateDirectory.path] + arguments
        if keepingLog {
            _ = FileManager.default.createFile(atPath: stateDirectory.file("log.jsonl"), contents: nil)
            logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stateDirectory.file("log.jsonl")))
        } else {
            logHandle = nil
        }
        process.standardOutput = logHandle ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAsAShellWould()
        let file = stateDirectory.file("mock.json")
        var info: [String: Any]? = nil
        Wait.until(interval: 0.02) { [process] in
            if let data = FileManager.default.contents(atPath: file),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            {
                info = object
            }
            return info != nil || !process.isRunning
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

    /// Stops the mock with SIGKILL: a graceful stop is not what these tests are about, and the kill cannot wait
    /// on anything the mock does.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// Writes `seed`'s credentials into a fresh state dir, or copies those of the state dir `other` (its CA,
    /// certificates, `.p8` key and demo.json), so one `--ca-file`, `--cert` or key works with two mocks.
    public static func prepare(
        _ stateDirectory: TemporaryDirectory, seededWith seed: TestCredentials?,
        sharingCredentialsWith other: TemporaryDirectory?
    ) throws {
        if let seed {
            try stateDirectory.write("ca.pem", seed.ca.certificate.pem)
            try stateDirectory.write("server.pem", seed.server.certificate.pem)
            try stateDirectory.write(
                "server-key.pem", try seed.server.privateKey.pkcs8PEM(passphrase: nil), mode: 0o600)
            try stateDirectory.write("client.pem", try seed.push.pem(), mode: 0o600)
            try stateDirectory.write("AuthKey_\(seed.keyID).p8", seed.signingKey.p8PEM, mode: 0o600)
            try stateDirectory.write(
                "demo.json",
                #"{"key_id":"\#(seed.keyID)","team_id":"\#(seed.teamID)","bundle_id":"\#(seed.bundleID)"}"# + "\n")
        }
        if let other {
            let names = try FileManager.default.contentsOfDirectory(atPath: other.path)
            for name in names where name.hasSuffix(".pem") || name.hasSuffix(".p8") || name == "demo.json" {
                try FileManager.default.copyItem(atPath: other.file(name), toPath: stateDirectory.file(name))
            }
        }
    }
}

/// A mock's JSON log (one line per event), read while the mock runs.
public struct MockLogFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// How many times the mock answered each device, from its log. The mock writes each `answered` line before
    /// its answer goes out, so once `minimum` lines are there they all are. Past that, `quiet` (the mock has no
    /// connection open and nothing left to write, `InProcessMock`) is awaited: a log writer the machine starved
    /// lets answers go first, and "nothing was answered" needs the mock to have read everything sent.
    public func answersPerDevice(expectingAtLeast minimum: Int = 0, once quiet: (() -> Bool)? = nil) -> [String: Int] {
        perDevice(event: "answered", expectingAtLeast: minimum, once: quiet)
    }

    /// How many times each device's request reached the mock whole (its `received` lines), answered or not:
    /// a device counted twice was sent twice. Requests a fault dropped are logged whenever the mock gets to them,
    /// after the client gave up on them: `quiet` says when it has got to them all.
    public func receiptsPerDevice(expectingAtLeast minimum: Int = 0, once quiet: (() -> Bool)? = nil) -> [String: Int] {
        perDevice(event: "received", expectingAtLeast: minimum, once: quiet)
    }

    /// Waits (at most 20 s) until the log holds `minimum` lines of `event` and, if given, `quiet` held before the
    /// log was read. A mock that never goes quiet (a client still connected) is a test's mistake and fails it.
    private func perDevice(event: String, expectingAtLeast minimum: Int, once quiet: (() -> Bool)?) -> [String: Int] {
        var counts: [String: Int] = [:]
        let settled = Wait.until {
            let wasQuiet = quiet?() ?? true
            counts = Self.devices(in: FileManager.default.contents(atPath: path) ?? Data(), event: event)
            return wasQuiet && counts.values.reduce(0, +) >= minimum
        }
        #if canImport(Testing)
            if !settled, !(quiet?() ?? true) {
                Issue.record("the mock still had a connection open or log lines to write after 20 s")
            }
        #endif
        return counts
    }

    /// How many lines of `event` name each device, in the bytes of a log. Searched with the C library's `memchr`
    /// and `memcmp`: the tests are built without optimisation, and a log of thousands of lines is read again at
    /// each wait.
    static func devices(in log: Data, event: String) -> [String: Int] {
        let marker = Array("\"event\":\"\(event)\"".utf8)
        let deviceKey = Array("\"device\":\"".utf8)
        var counts: [String: Int] = [:]
        log.withUnsafeBytes { (all: UnsafeRawBufferPointer) in
            guard let base = all.baseAddress else { return }
            let end = base + all.count
            var line = base
            while line < end {
                let lineEnd = memchr(line, 0x0A, end - line).map { UnsafeRawPointer($0) } ?? end
                defer { line = lineEnd + 1 }
                guard find(marker, from: line, to: lineEnd) != nil,
                    let key = find(deviceKey, from: line, to: lineEnd)
                else { continue }
                let value = key + deviceKey.count
                guard let quote = memchr(value, 0x22, lineEnd - value) else { continue }
                let device = String(
                    decoding: UnsafeRawBufferPointer(start: value, count: UnsafeRawPointer(quote) - value),
                    as: UTF8.self)
                counts[device, default: 0] += 1
            }
        }
        return counts
    }

    /// Where `needle` first is between `start` and `end`.
    private static func find(_ needle: [UInt8], from start: UnsafeRawPointer, to end: UnsafeRawPointer)
        -> UnsafeRawPointer?
    {
        guard let first = needle.first else { return start }
        var at = start
        while end - at >= needle.count, let hit = memchr(at, Int32(first), end - at) {
            let candidate = UnsafeRawPointer(hit)
            guard end - candidate >= needle.count else { return nil }
            if memcmp(candidate, needle, needle.count) == 0 { return candidate }
            at = candidate + 1
        }
        return nil
    }
}
