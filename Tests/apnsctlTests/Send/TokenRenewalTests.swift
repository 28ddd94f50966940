import APNSCrypto
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// A send that outlasts its provider token: APNs refuses a token issued over an hour ago, and a long list (one
/// streamed from a pipe can run for hours) outlasts it. The run signs a new token once its token is 50 minutes
/// old, so every device is accepted; before, every device after the hour was answered `ExpiredProviderToken`. The mock and the send share a wall clock that each answer moves 25
/// minutes on, and one request at a time goes out: the devices leave at 0, 25, 50, 75 and 100 minutes.
@Suite struct TokenRenewalTests {
    @Test func aRunPastTheHourIsSentWithANewTokenEvery50Minutes() throws {
        let start = SystemClock.now()
        let wall = LockedValue<Int64>(start)
        let mock = try InProcessMock(adjusting: {
            $0.clock = { wall.current }
            $0.onAnswer = { _ in wall.withLock { $0 += 25 * 60 } }
        })
        let home = try TemporaryDirectory(prefix: "token-renewal")
        let test = TestWorld(
            variables: ["XDG_CACHE_HOME": home.file("cache")], home: home.path,
            clock: CommandClock(now: { wall.current }, monotonicNanoseconds: { SystemClock.monotonicNanoseconds() }))
        let devices = (1...5).flatMap { ["-d", String(format: "%064x", $0)] }
        let status = test.run(
            [
                "send", "--alert", "hi", "--no-history", "--concurrency", "1", "--endpoint", mock.endpoint,
                "--ca-file", mock.caFile, "--auth-key", mock.authKey, "--key-id", mock.keyID, "--team-id",
                mock.teamID, "--topic", mock.bundleID, "-o", "json",
            ] + devices)
        let output = test.stdout.text
        #expect(status == 0, "\(test.stderr.text)\n\(output)")
        #expect(!output.contains("ExpiredProviderToken"), "\(output)")
        #expect(output.components(separatedBy: "\"status\":200").count - 1 == 5, "\(output)")
        #expect(wall.current == start + 5 * 25 * 60)
        // The cache still holds the first token: a new one is signed for the run, never taken from the cache.
        let cached = try String(
            contentsOfFile: home.file("cache/apnsctl/token-\(mock.teamID)-\(mock.keyID).jwt"), encoding: .utf8)
        let token = try #require(cached.split(whereSeparator: { $0 == "\n" || $0 == " " }).first)
        #expect(ProviderToken.Parts(String(token))?.issuedAt == start)
    }
}
