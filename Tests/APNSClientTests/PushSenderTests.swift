import APNSCore
import APNSCrypto
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSClient

/// The sending engine in process against `MockServer` behaving and misbehaving (the mock's faults, with
/// its answer observer counting per device): every device ends with exactly one result, and nothing the
/// server answered is sent again.
@Suite struct PushSenderTests {
    private func tokens(_ n: Int, salt: Int = 0) -> [DeviceToken] {
        (0..<n).compactMap { i in
            let hex = String(i + salt * 1_000_000, radix: 16)
            // A leading "a": the all-zero token is BadDeviceToken, as at APNs.
            return try? DeviceToken(parsing: "a" + String(repeating: "0", count: 63 - hex.count) + hex)
        }
    }

    private func identity(_ mock: ObservedMock) throws -> PushIdentity {
        try CredentialLoader.loadIdentity(certificate: .file(mock.certificateFile), key: nil, passphrase: .none)
    }

    private func send(
        _ devices: [DeviceToken], to mock: ObservedMock, timeout: Double = 10, concurrency: Int? = nil,
        observer: ((SendEvent) -> Void)? = nil
    ) throws -> (results: [PushResult], summary: SendSummary) {
        let config = SenderConfiguration(
            endpoint: PushEndpoint(host: "127.0.0.1", port: mock.port), trust: .caFile(mock.caFile),
            identity: try identity(mock), timeout: timeout, concurrency: concurrency)
        let request = PushRequest(
            topic: "com.example.demo", pushType: .alert, priority: .immediate,
            payload: Array("{\"aps\":{\"alert\":\"hi\"}}".utf8))
        var results: [PushResult] = []
        let summary = try PushSender(
            configuration: config, request: request, devices: DeviceArraySource(devices),
            observer: observer
        ).run { results.append($0) }
        return (results, summary)
    }

    /// Each device exactly once among the results, and at most one answer per device at the server.
    private func expectExactlyOnce(
        _ results: [PushResult], _ devices: [DeviceToken], _ mock: ObservedMock,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(results.count == devices.count, sourceLocation: sourceLocation)
        #expect(Set(results.compactMap(\.device?.hex)) == Set(devices.map(\.hex)), sourceLocation: sourceLocation)
        let twice = mock.answeredTwice
        #expect(twice.isEmpty, "answered more than once: \(twice.keys.prefix(3))", sourceLocation: sourceLocation)
    }

    @Test func batchOverOneConnection() throws {
        let mock = try ObservedMock()
        let devices = tokens(2000)
        let (results, summary) = try send(devices, to: mock)
        expectExactlyOnce(results, devices, mock)
        #expect(summary.accepted == 2000)
        #expect(summary.connections == 1)
        #expect(mock.answeredDevices.count == 2000)
        #expect(results.allSatisfy { $0.apnsID != nil && $0.apnsUniqueID != nil })
    }

    @Test func rejectionsAreResultsWithReasons() throws {
        let devices = tokens(3)
        let mock = try ObservedMock(rejections: [devices[1].hex: .badDeviceToken]) { configuration in
            configuration.rules.unregistered = [devices[2].hex]
        }
        let (results, summary) = try send(devices, to: mock)
        #expect(summary.accepted == 1 && summary.rejected == 2 && summary.failed == 0)
        let byDevice = Dictionary(uniqueKeysWithValues: results.map { ($0.target.text, $0) })
        #expect(byDevice[devices[1].hex]?.reason == .known(.badDeviceToken))
        #expect(byDevice[devices[2].hex]?.status == 410)
        #expect(byDevice[devices[2].hex]?.timestamp != nil)
    }

    @Test(arguments: [1, 7, 100])
    func goAwayAfterNStreamsStillAnswersEveryDeviceOnce(_ n: Int) throws {
        let mock = try ObservedMock(faults: MockFaults(goAwayAfterStreams: n, connections: 5))
        let devices = tokens(400)
        let (results, summary) = try send(devices, to: mock)
        expectExactlyOnce(results, devices, mock)
        #expect(summary.accepted == 400)
        // Five faulty connections answer n each; the sixth (if needed) answers the rest.
        #expect(summary.connections == min(6, (400 + n - 1) / n))
    }

    /// The mock's connection faults that end a connection after N answers, each shaped like a real one.
    static let endings: [(String, MockFaults)] = [
        ("close (RST from unread bytes)", MockFaults(closeAfterRequests: 50, connections: 3)),
        ("TCP reset after the answers", MockFaults(resetAfterAnswers: 50, connections: 3)),
        ("EOF without close_notify", MockFaults(eofAfterAnswers: 50, connections: 3)),
    ]

    @Test(arguments: endings)
    func connectionEndedAfterNAnswersLeavesTheSentUnknownAndSendsTheRest(_ name: String, _ faults: MockFaults) throws {
        let mock = try ObservedMock(faults: faults)
        let devices = tokens(500)
        let (results, summary) = try send(devices, to: mock, concurrency: 100)
        #expect(results.count == 500 && Set(results.compactMap(\.device?.hex)).count == 500, "\(name)")
        #expect(summary.unknown > 0 && summary.failed == summary.unknown, "\(name): \(summary)")
        #expect(summary.accepted + summary.unknown == 500, "\(name)")
        #expect(summary.connections == 4, "\(name)")
        #expect(results.filter { $0.failure != nil }.allSatisfy { $0.failure?.isUnknownOutcome == true })
        if faults.closeAfterRequests == nil {
            // These faults deliver every answer they count before ending, so the count proves no duplicate.
            expectExactlyOnce(results, devices, mock)
        }
    }

    @Test func serverThatDropsRequestsItReceivedLeavesThemUnknownAndSendsNothingTwice() throws {
        let mock = try ObservedMock(faults: MockFaults(closeAfterRequests: 0))
        let devices = tokens(5)
        let (results, summary) = try send(devices, to: mock, timeout: 5)
        #expect(results.count == 5)
        #expect(summary.failed == 5 && summary.unknown == 5)
        #expect(summary.connections == 1, "nothing is left to send on another connection")
        #expect(summary.failure?.isUnknownOutcome == true)
        #expect(mock.answeredDevices.isEmpty)
    }

    @Test func goAwayBeforeAnyAnswerCountsAsNoProgress() async throws {
        try await offThePool {
            let mock = try ObservedMock(faults: MockFaults(goAwayAfterStreams: 0))
            let (results, summary) = try send(tokens(3), to: mock, timeout: 5)
            #expect(results.count == 3 && summary.failed == 3)
            #expect(summary.connections == 4)
            #expect(
                summary.failure?.description.contains("GOAWAY NO_ERROR: Shutdown") == true,
                "\(summary.failure?.description ?? "")")
        }
    }

    @Test func silentServerTimesOut() async throws {
        try await offThePool {
            let mock = try ObservedMock(faults: MockFaults(neverAnswer: true))
            let start = Date()
            let devices = tokens(10)
            let (results, summary) = try send(devices, to: mock, timeout: 1)
            #expect(Date().timeIntervalSince(start) < 20, "one timeout, not one per device or per reconnect")
            #expect(results.count == 10)
            #expect(summary.failed == 10 && summary.connections == 1)
            #expect(summary.failure?.description.contains("within 1 s") == true)
        }
    }

    @Test func refusedConnectionFailsEveryDevice() throws {
        let closed = try RefusingPort()
        defer { withExtendedLifetime(closed) {} }  // refusing until the test ends
        let port = closed.port
        let config = SenderConfiguration(
            endpoint: PushEndpoint(host: "127.0.0.1", port: port), trust: .insecure, timeout: 2)
        var results: [PushResult] = []
        let summary = try PushSender(
            configuration: config,
            request: PushRequest(topic: "t", pushType: .alert, priority: .immediate, payload: [0x7B, 0x7D]),
            devices: DeviceArraySource(tokens(3))
        ).run { results.append($0) }
        #expect(results.count == 3)
        #expect(summary.failed == 3 && summary.connections == 1)
        #expect(results.allSatisfy { $0.error?.contains("Connection refused") == true })
    }

    @Test func http1OnlyServerGetsAClearMessage() throws {
        let mock = try ObservedMock(faults: MockFaults(http1Only: true))
        let (results, summary) = try send(tokens(1), to: mock)
        #expect(summary.failed == 1 && summary.connections == 1)
        #expect(results.first?.error?.contains("HTTP/2") == true)
    }

    @Test func untrustedServerFailsVerification() throws {
        let mock = try ObservedMock()
        let config = SenderConfiguration(endpoint: PushEndpoint(host: "127.0.0.1", port: mock.port), timeout: 5)
        var results: [PushResult] = []
        let summary = try PushSender(
            configuration: config,
            request: PushRequest(topic: "t", pushType: .alert, priority: .immediate, payload: [0x7B, 0x7D]),
            devices: DeviceArraySource(tokens(2))
        ).run { results.append($0) }
        #expect(summary.failed == 2 && summary.connections == 1)
        #expect(
            summary.failure?.description.contains("verification failed") == true,
            "\(summary.failure?.description ?? "")")
    }

    /// The sender's own stream count, from its events (requests minus answers), never passes the limit:
    /// nghttp2 would queue extra streams silently, so this is measured where the sender decides.
    @Test(arguments: [(UInt32(3), Int?.none, 3), (UInt32(1000), Int?.some(7), 7)])
    func concurrencyFollowsTheServerLimitAndTheFlag(_ serverLimit: UInt32, _ flag: Int?, _ expected: Int) throws {
        let mock = try ObservedMock(maxConcurrentStreams: serverLimit)
        let devices = tokens(200)
        let peak = LockedValue((open: 0, peak: 0))
        let (results, summary) = try send(devices, to: mock, concurrency: flag) { event in
            switch event {
            case .request:
                peak.withLock {
                    $0.open += 1
                    $0.peak = max($0.peak, $0.open)
                }
            case .response: peak.withLock { $0.open -= 1 }
            default: break
            }
        }
        expectExactlyOnce(results, devices, mock)
        #expect(summary.accepted == 200)
        #expect(peak.withLock { $0.peak } == expected)
    }
}
