import APNSTestSupport
import Testing

/// Tokens of every length: longer than 64 hex digits (simulators since Xcode 14) go without a warning; the
/// mock, as APNs, answers a shorter one BadDeviceToken.
@Suite struct DeviceTokenLengthTests {
    @Test func longTokensAreAcceptedAndShortOnesRefusedByTheMock() throws {
        let mock = try InProcessMock()
        let long = String(repeating: "a1", count: 80)
        let short = String(repeating: "b2", count: 16)
        let base = [
            "send", "--alert", "hi", "--cert", mock.certificate, "--ca-file", mock.caFile, "--endpoint", mock.endpoint,
        ]
        let accepted = try InProcess.apnsctl(base + ["-d", long])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stderr.isEmpty, "\(accepted.stderr)")
        let refused = try InProcess.apnsctl(base + ["-d", short])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("BadDeviceToken"), "\(refused.stdout)")
        #expect(refused.stderr.contains("only 32 hex digits"), "\(refused.stderr)")
    }
}
