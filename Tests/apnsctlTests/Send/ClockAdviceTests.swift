import APNSCore
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSClient
@testable import APNSCrypto
@testable import APNSCtlCommands

/// A wrong clock is named as the cause, where the plain message would blame the CA or a revoked key: a server
/// certificate "not yet valid", a token APNs refuses moments after it was signed, a server whose `Date` is
/// hours away from this machine's.
@Suite struct ClockAdviceTests {
    static let device = String(repeating: "3f2a", count: 16)
    static let payload = #"{"aps":{"alert":"hi"}}"#

    @Test func aServerCertificateNotYetValidIsBlamedOnTheClock() throws {
        let credentials = try TestCredentials()
        let now = SystemClock.now()
        let early = try CredentialGenerator.makeServerCertificate(
            ca: credentials.ca, validity: Validity(notBefore: now + 86_400, notAfter: now + 30 * 86_400))
        let server = try MockServer(
            configuration: MockConfiguration(
                identity: MockServerIdentity(
                    certificate: early.certificate, key: early.privateKey, clientCA: credentials.ca.certificate)))
        let port = try server.start()
        defer { server.stop() }
        let r = try InProcess.apnsctl([
            "send", Self.payload, "-d", Self.device, "--topic", credentials.bundleID, "--cert", credentials.pushFile,
            "--endpoint", "https://127.0.0.1:\(port)", "--ca-file", credentials.caFile, "--timeout", "20",
        ])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stdout.contains("certificate is not yet valid"), "\(r.stdout)")
        // Which certificate, and its dates: a clock that is wrong is told from a server whose certificate lapsed.
        #expect(
            r.stdout.contains(
                "(the certificate of localhost is valid from \(ISO8601.format(epochSeconds: now + 86_400)) to "),
            "\(r.stdout)")
        #expect(
            r.stdout.contains(
                "this machine's clock may be wrong (certificates are checked against it): compare date -u"),
            "\(r.stdout)")
        #expect(!r.stdout.contains("pass --ca-file"), "\(r.stdout)")
    }

    /// This machine's clock two hours behind: the token it signs is two hours old to the mock, which answers
    /// ExpiredProviderToken to a token signed a moment ago.
    @Test func aTokenRefusedAsExpiredRightAfterSigningIsBlamedOnTheClock() throws {
        let mock = try InProcessMock()
        let test = TestWorld(now: SystemClock.now() - 2 * 3600)
        let status = test.run([
            "send", Self.payload, "-d", Self.device, "--auth-key", mock.authKey, "--key-id", mock.keyID,
            "--team-id", mock.teamID, "--topic", mock.bundleID, "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
            "--no-token-cache", "--timeout", "20",
        ])
        let stderr = test.stderr.text
        #expect(status == 1, "\(stderr)")
        #expect(test.stdout.text.contains("ExpiredProviderToken"), "\(test.stdout.text)")
        #expect(
            stderr.contains(
                "warning: APNs answered ExpiredProviderToken to a provider token this machine signed 0 s ago"),
            "\(stderr)")
        #expect(
            stderr.contains("this machine's clock is probably wrong: compare date -u with a time server's"), "\(stderr)"
        )
    }

    @Test func aTokenRefusedAsInvalidRightAfterSigningMentionsTheClock() throws {
        let mock = try InProcessMock(["--reject", "\(Self.device)=InvalidProviderToken"])
        let r = try InProcess.apnsctl([
            "send", Self.payload, "-d", Self.device, "--auth-key", mock.authKey, "--key-id", mock.keyID,
            "--team-id", mock.teamID, "--topic", mock.bundleID, "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
            "--no-token-cache", "--timeout", "20",
        ])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("warning: APNs answered InvalidProviderToken to a provider token"), "\(r.stderr)")
        #expect(r.stderr.contains("this machine's clock may be ahead of APNs'"), "\(r.stderr)")
        // The ids first: a wrong team id is the likelier cause, and no reason to change the clock.
        #expect(
            r.stderr.contains(
                "ago: check the ids first (--team-id is your team's, --key-id the key's, as in AuthKey_KEYID.p8); if they are right"
            ), "\(r.stderr)")
        // A certificate push refused so says nothing about the clock: no token was dated.
        let cert = try InProcessMock(["--reject", "\(Self.device)=ExpiredProviderToken"])
        let c = try InProcess.apnsctl([
            "send", Self.payload, "-d", Self.device, "--endpoint", cert.endpoint, "--ca-file", cert.caFile, "--cert",
            cert.certificate, "--topic", cert.bundleID, "--timeout", "20",
        ])
        #expect(c.status == 1, "\(c.stderr)")
        #expect(!c.stderr.contains("this machine's clock"), "\(c.stderr)")
    }

    /// nginx sends a `Date` header with the real time; this machine's clock three hours ahead of it is said once.
    @Test func aServerDateFarFromThisClockIsSaid() throws {
        let credentials = try TestCredentials()
        _ = try credentials.directory.write("server.pem", try credentials.server.pem(), mode: 0o600)
        let nginx = try NginxProcess(certificateDirectory: credentials.directory.path)
        // Three hours and half a minute ahead of the real clock as it runs: the advice counts whole minutes, and
        // the Date header whole seconds that can trail this clock, so exactly three hours read "2 h 59 min" on
        // a second's lag.
        let test = TestWorld(
            clock: CommandClock(
                now: { SystemClock.now() + 3 * 3600 + 30 },
                monotonicNanoseconds: { SystemClock.monotonicNanoseconds() }))
        let status = test.run([
            "send", Self.payload, "-d", Self.device, "-d", String(repeating: "ab", count: 32), "--topic",
            credentials.bundleID, "--cert", credentials.pushFile, "--endpoint", nginx.endpoint, "--ca-file",
            credentials.caFile, "--timeout", "20",
        ])
        let stderr = test.stderr.text
        #expect(status == 0, "\(stderr)")
        let warnings = stderr.split(separator: "\n").filter { $0.contains("this machine's clock is") }
        #expect(warnings.count == 1, "\(stderr)")
        #expect(
            warnings.first?.hasPrefix("warning: this machine's clock is 3 h ahead of the server's (its Date header: ")
                == true, "\(stderr)")
        // The same send with the right clock says nothing about it.
        let right = try InProcess.apnsctl([
            "send", Self.payload, "-d", Self.device, "--topic", credentials.bundleID, "--cert", credentials.pushFile,
            "--endpoint", nginx.endpoint, "--ca-file", credentials.caFile, "--timeout", "20",
        ])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(!right.stderr.contains("clock"), "\(right.stderr)")
    }

    @Test func clockAdviceRules() {
        #expect(HTTPDate.epochSeconds("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.epochSeconds("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.epochSeconds("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
        #expect(ClockAdvice.serverDate("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_777 + 299) == nil)
        #expect(
            ClockAdvice.serverDate("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_777 - 7_500)?
                .hasPrefix("this machine's clock is 2 h 5 min behind the server's") == true)
        #expect(ClockAdvice.tokenRefused(.expiredProviderToken, age: 3_500) == nil)
        #expect(ClockAdvice.tokenRefused(.invalidProviderToken, age: 600) == nil)
        #expect(ClockAdvice.tokenRefused(.badTopic, age: 0) == nil)
        #expect(ClockAdvice.duration(45) == "45 s")
        #expect(ClockAdvice.duration(3 * 86_400) == "3 days")
    }

    /// A run renews its token at 50 minutes; APNs refusing the new one as expired 100 s later points at the clock,
    /// though the first token is then 51 minutes old (too old to blame the clock for). Before a renewal, the first
    /// token dates a refusal.
    @Test func aRefusalAfterARenewalIsDatedByTheNewToken() throws {
        let start: Int64 = 1_800_000_000
        let now = LockedValue<Int64>(start)
        let key = try CredentialGenerator.makeSigningKey()
        let sign = { @Sendable (time: Int64) -> String? in
            try? ProviderToken.make(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: time)
        }
        let first = try #require(sign(start))
        let renewal = ProviderTokenRenewal(issuedAt: start, maximumAge: 3_000, now: { now.current }, sign: sign)
        let request = APNSRequest(
            method: "POST", path: "/3/device/\(Self.device)",
            headers: [HeaderField(APNSHeader.authorization.name, "bearer " + first)], body: [])
        let expired = PushResult(
            target: .device(try DeviceToken(parsing: Self.device)),
            response: HTTPResponse(status: 403, body: Array(#"{"reason":"ExpiredProviderToken"}"#.utf8)),
            durationMs: 1)
        let before = ClockWatch(bearerToken: first, renewal: renewal, now: { now.current })
        now.withLock { $0 = start + 3_050 }
        before.note(expired)
        #expect(before.warnings.isEmpty, "the first token, 50 min old")
        _ = renewal.renewing(request)
        #expect(renewal.issuedAt == start + 3_050)
        now.withLock { $0 = start + 3_150 }
        let after = ClockWatch(bearerToken: first, renewal: renewal, now: { now.current })
        after.note(expired)
        #expect(
            after.warnings.first?.hasPrefix(
                "APNs answered ExpiredProviderToken to a provider token this machine signed 100 s ago") == true,
            "\(after.warnings)")
    }
}
