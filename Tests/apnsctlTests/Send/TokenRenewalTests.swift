import APNSCrypto
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// A send that outlasts its provider token: APNs refuses a token issued over an hour ago, and a long list (one
/// streamed from a pipe can run for hours) outlasts it. The run signs a new token once its token is 50 minutes
/// old, so every device is accepted; before, every device after the hour was answered `ExpiredProviderToken`.
/// The mock and the send share a wall clock that each answer moves on (25 or 20 minutes), and one request at a
/// time goes out.
@Suite struct TokenRenewalTests {
    /// Five devices sent one at a time with token auth against an in-process mock whose clock is `ahead` seconds
    /// ahead of this machine's, each answer moving both clocks on by `step` seconds: the exit status, the
    /// output, the standard error, the clock at the start and at the end, and the token cache's file.
    static func send(ahead: Int64 = 0, step: Int64) throws -> (
        status: Int32, output: String, stderr: String, start: Int64, end: Int64, cacheFile: String
    ) {
        let start = SystemClock.now()
        let wall = LockedValue<Int64>(start)
        let mock = try InProcessMock(adjusting: {
            $0.clock = { wall.current + ahead }
            $0.onAnswer = { _ in wall.withLock { $0 += step } }
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
        let cache = home.file("cache/apnsctl/token-\(mock.teamID)-\(mock.keyID).jwt")
        let cached = (try? String(contentsOfFile: cache, encoding: .utf8)) ?? ""
        return (status, test.stdout.text, test.stderr.text, start, wall.current, cached)
    }

    /// How many times `text` is in `output`.
    static func count(_ text: String, in output: String) -> Int { output.components(separatedBy: text).count - 1 }

    @Test func aRunPastTheHourIsSentWithANewTokenEvery50Minutes() throws {
        let run = try Self.send(step: 25 * 60)
        #expect(run.status == 0, "\(run.stderr)\n\(run.output)")
        #expect(!run.output.contains("ExpiredProviderToken"), "\(run.output)")
        #expect(Self.count("\"status\":200", in: run.output) == 5, "\(run.output)")
        #expect(run.end == run.start + 5 * 25 * 60)
        // The cache still holds the first token: a new one is signed for the run, never taken from the cache.
        let token = try #require(run.cacheFile.split(whereSeparator: { $0 == "\n" || $0 == " " }).first)
        #expect(ProviderToken.Parts(String(token))?.issuedAt == run.start)
    }

    /// This machine's clock 45 minutes behind APNs' on a long run: every token is 45 minutes old to APNs when
    /// signed, so each is refused 15 minutes before the run would renew it. The first refusal comes 40 minutes
    /// into the run and is blamed on the clock, dated by the token the request carried when it was refused;
    /// before, it was dated at the end of the run (100 minutes after the first token) and nothing was said.
    @Test func aTokenRefusedAsExpiredMidRunIsDatedWhenRefused() throws {
        let run = try Self.send(ahead: 45 * 60, step: 20 * 60)
        #expect(run.status == 1, "\(run.stderr)\n\(run.output)")
        // Sent at 0, 20, 40, 60 (a new token) and 80 minutes: APNs takes each token for its first 15 minutes.
        #expect(Self.count("\"status\":200", in: run.output) == 2, "\(run.output)")
        #expect(Self.count("ExpiredProviderToken", in: run.output) == 3, "\(run.output)")
        #expect(
            run.stderr.contains(
                "warning: APNs answered ExpiredProviderToken to a provider token this machine signed 40 min ago"),
            "\(run.stderr)")
    }
}
