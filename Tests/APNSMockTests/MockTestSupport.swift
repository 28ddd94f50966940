import APNSCore
import APNSCrypto
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation

/// A mock server on port 0 with fresh state-dir credentials, plus curl and nghttp (independent HTTP/2
/// clients) pointed at it. Each test makes its own and stops it.
final class MockHarness: @unchecked Sendable {
    let directory: TemporaryDirectory
    let state: MockState
    /// The state dir's lock, held while the mock runs.
    private let stateLock: FileLock
    let server: MockServer
    let port: Int
    private let logFD: Int32?

    static let device = String(repeating: "ab", count: 32)
    static let payload = #"{"aps":{"alert":"hi"}}"#
    /// The most `stop()` may take in a test: it drains for about 700 ms (CLI.md: "within a second"); a machine
    /// busy with other builds can stretch that, and 5 s still fails a stop that waits for its clients.
    static let stopBound = 5.0

    init(
        environment: APNSEnvironment = .sandbox, unregistered: Set<String> = [], rejections: [String: APNSReason] = [:],
        faults: MockFaults = .none, log: Bool = false, logDescriptor: Int32? = nil,
        handshakeTimeoutMilliseconds: Int = 10_000, configure: (inout MockConfiguration) -> Void = { _ in }
    ) throws {
        directory = try TemporaryDirectory(prefix: "mock")
        (state, stateLock) = try MockState.prepareExclusively(directory: directory.file("state"))
        logFD = log ? open(directory.file("log.jsonl"), O_WRONLY | O_CREAT | O_TRUNC, 0o600) : nil
        var configuration = try MockConfiguration(
            state: state, environment: environment, unregistered: unregistered,
            rejections: rejections, faults: faults, threads: 2,
            logDescriptor: logFD ?? logDescriptor)
        configuration.handshakeTimeoutMilliseconds = handshakeTimeoutMilliseconds
        configure(&configuration)
        server = try MockServer(configuration: configuration)
        port = try server.start()
        try directory.write("payload.json", Self.payload)
    }

    deinit {
        server.stop()
        if let logFD { close(logFD) }
    }

    var endpoint: String { "https://127.0.0.1:\(port)" }

    /// A bearer token signed by the state dir's key.
    func token(issuedAt: Int64 = SystemClock.now()) throws -> String {
        try ProviderToken.make(key: state.signingKey, keyID: state.keyID, teamID: state.teamID, issuedAt: issuedAt)
    }

    /// The log lines written so far, parsed (stop the server first to be sure all are flushed).
    /// The log's lines of one event: `answered` (one per answer), or `received` (one per request that arrived
    /// whole, written before it is judged).
    func logLines(event: String = "answered") throws -> [[String: Any]] {
        try directory.read("log.jsonl").split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        }.filter { $0["event"] as? String == event }
    }

    enum ClientCertificate {
        case none, state
        case other(cert: String, key: String)
    }

    /// `curl --http2` against the mock: status (0 when no answer), body, response headers (lowercased names).
    func curl(
        path: String = "/3/device/" + MockHarness.device, method: String = "POST",
        headers: [String] = ["apns-topic: com.example.demo"],
        body: String? = MockHarness.payload, certificate: ClientCertificate = .state
    ) throws -> (status: Int, body: String, headers: String) {
        var cert: String?
        var key: String?
        switch certificate {
        case .none: break
        case .state: cert = state.clientFile
        case .other(let c, let k):
            cert = c
            key = k
        }
        let r = try CurlHTTP2.request(
            endpoint + path, method: method, headers: headers, body: body, caFile: state.caFile,
            certificate: cert, key: key)
        return (r.status, r.body, r.headers)
    }

    /// A TLS connection to the mock (ALPN h2, no client certificate), handshake done.
    func tlsClient() throws -> TLSConnection {
        let context = try TLSContext.client(caFile: state.caFile, verify: true)
        let tls = try TLSConnection.client(
            socket: try Socket.connect(host: "127.0.0.1", port: port, timeout: 5),
            context: context, host: "127.0.0.1")
        try tls.handshake(timeoutMs: 5000)
        return tls
    }

    /// Everything `tls` receives until the mock closes it (true) or `seconds` pass (false).
    static func readUntilClosed(_ tls: TLSConnection, seconds: Double) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            _ = PollSet.wait(for: tls.socket.fd, .readable, until: SystemClock.monotonicNanoseconds() + 50_000_000)
            let step = buffer.withUnsafeMutableBytes { try? tls.read(into: $0) }
            switch step {
            case .bytes(let n)?: received += buffer[0..<n]
            case .closed?, nil: return (received, true)
            default: continue
            }
        }
        return (received, false)
    }

    /// `nghttp -v` posting the payload to each path on one connection; its verbose frame log is the result.
    func nghttp(
        paths: [String], headers: [String] = ["apns-topic: com.example.demo"], certificate: Bool = true,
        timeoutSeconds: Int = 5, extra: [String] = []
    ) throws -> CommandResult {
        var args = ["-v", "-n", "-t", String(timeoutSeconds), "-d", directory.file("payload.json")] + extra
        if certificate { args += ["--cert", state.clientFile, "--key", state.clientFile] }
        for h in headers { args += ["-H", h] }
        args += paths.map { endpoint + $0 }
        return try CommandRunner.run("nghttp", args, timeout: Double(timeoutSeconds) + 10)
    }

    /// `/3/device/<hex>` paths that differ (nghttp merges identical URIs).
    static func devicePaths(_ count: Int) -> [String] {
        (0..<count).map { "/3/device/" + String(repeating: "ab", count: 31) + String(format: "%02x", $0) }
    }
}

extension CommandResult {
    /// nghttp's `:status` lines.
    var statuses: [String] { stdout.components(separatedBy: "\n").filter { $0.contains(":status:") } }
    /// nghttp's GOAWAY detail line (`last_stream_id=…, error_code=…, opaque_data(…)=[…]`).
    var goAwayDetails: [String] { details(after: "recv GOAWAY") }

    private func details(after marker: String) -> [String] {
        let lines = stdout.components(separatedBy: "\n")
        return lines.indices.filter { lines[$0].contains(marker) && $0 + 1 < lines.count }.map { lines[$0 + 1] }
    }
}
