import APNSCore
import APNSCrypto
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSClient

/// `--env auto`'s sender against two mocks playing sandbox and production (one set of credentials): one
/// final result per device, from the environment that answered, and the first answer kept when the second
/// environment cannot give one.
@Suite struct EnvironmentFallbackSenderTests {
    let sandboxCredentials: ObservedMock
    init() throws { sandboxCredentials = try ObservedMock() }

    private func token(_ i: Int) -> DeviceToken {
        let hex = String(i, radix: 16)
        return try! DeviceToken(parsing: String(repeating: "0", count: 64 - hex.count) + hex)
    }

    private func configuration(_ port: Int, _ environment: APNSEnvironment) throws -> SenderConfiguration {
        let identity = try CredentialLoader.loadIdentity(
            certificate: .file(sandboxCredentials.certificateFile), key: nil, passphrase: .none)
        var c = SenderConfiguration(
            endpoint: PushEndpoint(host: "127.0.0.1", port: port), trust: .caFile(sandboxCredentials.caFile),
            identity: identity, timeout: 10)
        c.environment = environment
        return c
    }

    private func run(_ devices: [DeviceToken], sandboxPort: Int, productionPort: Int) throws -> (
        [PushResult], SendSummary
    ) {
        let request = PushRequest(
            topic: "com.example.demo", pushType: .alert, priority: .immediate,
            payload: Array("{\"aps\":{\"alert\":\"hi\"}}".utf8))
        let sender = try EnvironmentFallbackSender(
            first: try configuration(sandboxPort, .sandbox),
            second: try configuration(productionPort, .production),
            request: request, devices: DeviceArraySource(devices))
        var results: [PushResult] = []
        let summary = sender.run { results.append($0) }
        return (results, summary)
    }

    @Test func eachDeviceOnceFromTheEnvironmentThatAnswered() throws {
        let devices = (1...300).map(token)
        let production = Set(devices.enumerated().filter { $0.offset % 3 == 0 }.map(\.element.hex))
        let nowhere = Set(devices.enumerated().filter { $0.offset % 10 == 1 && $0.offset % 3 != 0 }.map(\.element.hex))
        var sandboxRejections: [String: APNSReason] = [:]
        for hex in production.union(nowhere) { sandboxRejections[hex] = .badDeviceToken }
        var productionRejections: [String: APNSReason] = [:]
        for d in devices where !production.contains(d.hex) { productionRejections[d.hex] = .badDeviceToken }
        let sandbox = try ObservedMock(sharingCredentialsWith: sandboxCredentials, rejections: sandboxRejections)
        let prod = try ObservedMock(
            environment: .production, sharingCredentialsWith: sandboxCredentials,
            rejections: productionRejections)

        let (results, summary) = try run(devices, sandboxPort: sandbox.port, productionPort: prod.port)
        #expect(results.count == 300)
        #expect(Set(results.compactMap(\.device?.hex)).count == 300)
        for r in results {
            let hex = r.device?.hex ?? ""
            if production.contains(hex) {
                #expect(r.status == 200 && r.environment == .production && r.badDeviceTokenIn == .sandbox)
                #expect(r.endpoint?.port == prod.port)
            } else if nowhere.contains(hex) {
                #expect(
                    r.reason == .known(.badDeviceToken) && r.environment == .production
                        && r.badDeviceTokenIn == .sandbox)
            } else {
                #expect(r.status == 200 && r.environment == .sandbox && r.badDeviceTokenIn == nil)
            }
        }
        #expect(summary.accepted == 300 - nowhere.count)
        #expect(summary.rejected == nowhere.count)
        #expect(summary.connections == 2)
        #expect(sandbox.answeredDevices.count == 300 && sandbox.answeredDevices.values.allSatisfy { $0 == 1 })
        #expect(prod.answeredDevices.count == production.union(nowhere).count)
        #expect(prod.answeredDevices.values.allSatisfy { $0 == 1 })
    }

    @Test func aDuplicatedTokenGetsAResultForEachLine() throws {
        let devices = [token(7), token(7), token(8)]
        let sandbox = try ObservedMock(
            sharingCredentialsWith: sandboxCredentials, rejections: [token(7).hex: .badDeviceToken])
        let prod = try ObservedMock(environment: .production, sharingCredentialsWith: sandboxCredentials)
        let (results, _) = try run(devices, sandboxPort: sandbox.port, productionPort: prod.port)
        #expect(results.count == 3)
        #expect(
            results.filter { $0.device == token(7) && $0.environment == .production && $0.status == 200 }.count == 2)
    }

    @Test func whenTheSecondEnvironmentFailsTheDeviceFailsNamingTheFirstAnswer() throws {
        let sandbox = try ObservedMock(
            sharingCredentialsWith: sandboxCredentials, rejections: [token(1).hex: .badDeviceToken])
        let closed = try RefusingPort()
        defer { withExtendedLifetime(closed) {} }  // refusing until the test ends
        let (results, summary) = try run([token(1), token(2)], sandboxPort: sandbox.port, productionPort: closed.port)
        #expect(results.count == 2)
        let failed = results.first { $0.device == token(1) }
        #expect(
            failed?.outcome == .failed && failed?.environment == .production && failed?.badDeviceTokenIn == .sandbox)
        #expect(summary.failed == 1 && summary.accepted == 1)
        #expect(summary.failure?.description.contains("cannot connect") == true)
    }
}
