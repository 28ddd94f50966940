import APNSCore
import APNSCrypto
import APNSTestSupport
import Foundation
import Testing
@testable import APNSClient

/// The sending engine against in-test servers that behave and misbehave: every device ends with
/// exactly one result, and nothing the server answered is sent again.
@Suite struct PushSenderTests {
    let credentials: TestCredentials
    init() throws { credentials = try TestCredentials() }

    private func tokens(_ n: Int, salt: Int = 0) -> [DeviceToken] {
        (0..<n).compactMap { i in
            let hex = String(i + salt * 1_000_000, radix: 16)
            return try? DeviceToken(parsing: String(repeating: "0", count: 64 - hex.count) + hex)
        }
    }

    private func send(_ devices: [DeviceToken], to server: TestPushServer, timeout: Double = 10, concurrency: Int? = nil,
                      verify: Bool = true) throws -> (results: [PushResult], summary: SendSummary) {
        let config = SenderConfiguration(endpoint: PushEndpoint(host: "127.0.0.1", port: server.port),
                                         trust: verify ? .caFile(credentials.caFile) : .insecure, identity: credentials.push,
                                         timeout: timeout, concurrency: concurrency)
        let request = PushRequest(topic: "com.example.demo", pushType: .alert, priority: .immediate,
                                  payload: Array("{\"aps\":{\"alert\":\"hi\"}}".utf8))
        var results: [PushResult] = []
        let summary = try PushSender(configuration: config, request: request, devices: DeviceArraySource(devices)).run { results.append($0) }
        return (results, summary)
    }

    /// Each device exactly once among the results, and at most one answer per device at the server.
    private func expectExactlyOnce(_ results: [PushResult], _ devices: [DeviceToken], _ server: TestPushServer) {
        #expect(results.count == devices.count)
        #expect(Set(results.compactMap(\.device?.hex)) == Set(devices.map(\.hex)))
        let twice = server.answeredDevices.filter { $0.value > 1 }
        #expect(twice.isEmpty, "answered more than once: \(twice.keys.prefix(3))")
    }

    @Test func batchOverOneConnection() throws {
        let server = try TestPushServer(credentials: credentials)
        let devices = tokens(2000)
        let (results, summary) = try send(devices, to: server)
        expectExactlyOnce(results, devices, server)
        #expect(summary.accepted == 2000)
        #expect(summary.connections == 1)
        #expect(server.connections == 1)
        #expect(results.allSatisfy { $0.apnsID != nil && $0.apnsUniqueID != nil })
    }

    @Test func rejectionsAreResultsWithReasons() throws {
        var config = TestPushServer.Configuration()
        let devices = tokens(3)
        config.rejections = [devices[1].hex: .badDeviceToken, devices[2].hex: .unregistered]
        let server = try TestPushServer(credentials: credentials, configuration: config)
        let (results, summary) = try send(devices, to: server)
        #expect(summary.accepted == 1 && summary.rejected == 2 && summary.failed == 0)
        let byDevice = Dictionary(uniqueKeysWithValues: results.map { ($0.target.text, $0) })
        #expect(byDevice[devices[1].hex]?.knownReason == .badDeviceToken)
        #expect(byDevice[devices[2].hex]?.status == 410)
        #expect(byDevice[devices[2].hex]?.timestamp == 1_762_166_400_000)
    }

    @Test(arguments: [1, 7, 100])
    func goAwayAfterNStreamsStillAnswersEveryDeviceOnce(_ n: Int) throws {
        var config = TestPushServer.Configuration()
        config.fault = .goAwayAfter(n)
        config.faultyConnections = 5
        let server = try TestPushServer(credentials: credentials, configuration: config)
        let devices = tokens(400)
        let (results, summary) = try send(devices, to: server)
        expectExactlyOnce(results, devices, server)
        #expect(summary.accepted == 400)
        #expect(summary.connections > 1)
    }

    @Test func connectionClosedAfterNRequestsIsResent() throws {
        var config = TestPushServer.Configuration()
        config.fault = .closeAfter(50)
        config.faultyConnections = 3
        let server = try TestPushServer(credentials: credentials, configuration: config)
        let devices = tokens(500)
        let (results, summary) = try send(devices, to: server, concurrency: 100)
        expectExactlyOnce(results, devices, server)
        #expect(summary.accepted == 500)
        #expect(summary.connections == 4)
    }

    @Test func serverThatAlwaysDropsWithoutAnsweringIsGivenUpAfterThreeResends() throws {
        var config = TestPushServer.Configuration()
        config.fault = .closeAfter(0)  // closes every connection without answering
        let server = try TestPushServer(credentials: credentials, configuration: config)
        let devices = tokens(5)
        let (results, summary) = try send(devices, to: server, timeout: 5)
        #expect(results.count == 5)
        #expect(summary.failed == 5)
        #expect(summary.connections == 4)
        #expect(summary.failure?.contains("4 connections") == true)
    }

    @Test func goAwayBeforeAnyAnswerCountsAsNoProgress() throws {
        var config = TestPushServer.Configuration()
        config.fault = .goAwayAfter(0)
        config.goAwayDebugData = "Maximum active streams violated for this endpoint."
        let server = try TestPushServer(credentials: credentials, configuration: config)
        let (results, summary) = try send(tokens(3), to: server, timeout: 5)
        #expect(results.count == 3 && summary.failed == 3)
        #expect(summary.connections == 4)
        #expect(summary.failure?.contains("Maximum active streams violated") == true)
    }

    @Test func silentServerTimesOut() throws {
        var config = TestPushServer.Configuration()
        config.fault = .silent
        let server = try TestPushServer(credentials: credentials, configuration: config)
        let start = Date()
        let devices = tokens(10)
        let (results, summary) = try send(devices, to: server, timeout: 1)
        #expect(Date().timeIntervalSince(start) < 2.5)
        #expect(results.count == 10)
        #expect(summary.failed == 10)
        #expect(summary.failure?.contains("within 1 s") == true)
    }

    @Test func refusedConnectionFailsEveryDevice() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let port = listener.localPort
        _ = consume listener
        let config = SenderConfiguration(endpoint: PushEndpoint(host: "127.0.0.1", port: port), trust: .insecure, timeout: 2)
        var results: [PushResult] = []
        let summary = try PushSender(configuration: config, request: PushRequest(topic: "t", pushType: .alert, priority: .immediate, payload: [0x7B, 0x7D]),
                                 devices: DeviceArraySource(tokens(3))).run { results.append($0) }
        #expect(results.count == 3)
        #expect(summary.failed == 3 && summary.connections == 1)
        #expect(results.allSatisfy { $0.error?.contains("Connection refused") == true })
    }

    @Test func http1OnlyServerGetsAClearMessage() throws {
        var config = TestPushServer.Configuration()
        config.fault = .http1Only
        let server = try TestPushServer(credentials: credentials, configuration: config)
        let (results, summary) = try send(tokens(1), to: server)
        #expect(summary.failed == 1)
        #expect(results.first?.error?.contains("HTTP/2") == true)
    }

    @Test func untrustedServerFailsVerification() throws {
        let server = try TestPushServer(credentials: credentials)
        let config = SenderConfiguration(endpoint: PushEndpoint(host: "127.0.0.1", port: server.port), timeout: 5)
        var results: [PushResult] = []
        let summary = try PushSender(configuration: config, request: PushRequest(topic: "t", pushType: .alert, priority: .immediate, payload: [0x7B, 0x7D]),
                                 devices: DeviceArraySource(tokens(2))).run { results.append($0) }
        #expect(summary.failed == 2 && summary.connections == 1)
        #expect(summary.failure?.contains("--ca-file") == true)
    }

    @Test func concurrencyFollowsTheServerLimit() throws {
        var config = TestPushServer.Configuration()
        config.maxConcurrentStreams = 3
        let server = try TestPushServer(credentials: credentials, configuration: config)
        let devices = tokens(60)
        let (results, summary) = try send(devices, to: server)
        expectExactlyOnce(results, devices, server)
        #expect(summary.accepted == 60)
    }
}
