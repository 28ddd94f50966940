import APNSCore
import APNSCrypto
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `apnsctl doctor` where the network is the problem: nothing listening, a server CA it does not trust, a
/// silent server, and the way through a real proxy (tinyproxy), with the right one.
/// One at a time (`oneAtATime`): each starts servers and a proxy and waits on timeouts of its own.
@Suite struct DoctorNetworkTests {
    static let oneAtATime = OneAtATime()

    private func doctor(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) throws
        -> CommandResult
    {
        let cache = try TemporaryDirectory(prefix: "cache")
        var env = environment
        env["XDG_CACHE_HOME"] = cache.path
        return try InProcess.apnsctl(["doctor"] + arguments, environment: env, timeout: timeout)
    }

    @Test func aClosedPortFailsConnect() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let closed = try RefusingPort()
            defer { withExtendedLifetime(closed) {} }  // refusing until the test ends
            let port = closed.port
            let r = try doctor([
                "--cert", mock.certificate, "--ca-file", mock.caFile, "--env", "sandbox",
                "--endpoint", "https://127.0.0.1:\(port)",
            ])
            #expect(r.status == 69, "\(r.stdout)\(r.stderr)")
            let firstFail = r.lines.first { $0.hasPrefix("fail") } ?? ""
            #expect(firstFail.hasPrefix("fail  connect"), "\(r.stdout)")
            #expect(firstFail.contains("Connection refused"), "\(firstFail)")
            #expect(
                r.errorLines.count == 1 && r.errorLines[0].hasPrefix("error: doctor: connect sandbox failed"),
                "\(r.stderr)"
            )
            #expect(!r.stdout.contains("auth"))
        }
    }

    /// doctor looks the host up as send does, through the world: a name the resolver answers passes every check,
    /// and a resolver that never answers fails the dns check within --timeout.
    @Test func theLookupIsTheWorldsAndEndsWithinTheTimeout() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let port = SendProxyTests.port(of: mock.endpoint)
            let answering = try SendNameLookupTests.Answering(["::1", "127.0.0.1"], port: port)
            let flags = ["--cert", mock.certificate, "--ca-file", mock.caFile, "--env", "sandbox"]

            let found = try InProcess.apnsctl(
                ["doctor", "--endpoint", "https://localhost:\(port)"] + flags, timeout: 60,
                nameLookup: answering.lookup)

            #expect(found.status == 0, "\(found.stdout)\(found.stderr)")
            #expect(answering.asked.current.first == "localhost:\(port)", "\(answering.asked.current)")
            let silent = SendNameLookupTests.Silent()
            let unanswered = try InProcess.apnsctl(
                ["doctor", "--endpoint", "https://apns.example.test:443", "--timeout", "1"] + flags, timeout: 30,
                nameLookup: silent.lookup)
            #expect(unanswered.status == 69, "\(unanswered.stdout)\(unanswered.stderr)")
            #expect(!unanswered.timedOut && unanswered.seconds < 8, "\(unanswered.seconds) s")
            #expect(
                unanswered.lines.contains {
                    $0.hasPrefix("fail  dns") && $0.contains("no answer from the resolver within 1 s")
                        // The time is said once, in the detail (the hint said "raise --timeout 1" after it).
                        && $0.hasSuffix("or raise --timeout")
                }, "\(unanswered.stdout)")
            // Through socks5://, the APNs host is looked up here: a name that does not resolve fails dns, not the
            // proxy, which was reached.
            let proxy = try Socket.listen(host: "127.0.0.1", port: 0)
            let viaSOCKS5 = try InProcess.apnsctl(
                [
                    "doctor", "--endpoint", "https://apns.example.test:443", "--proxy",
                    "socks5://127.0.0.1:\(proxy.localPort)", "--timeout", "5",
                ] + flags, timeout: 30, nameLookup: answering.lookup)
            #expect(viaSOCKS5.status == 69, "\(viaSOCKS5.stdout)\(viaSOCKS5.stderr)")
            #expect(
                viaSOCKS5.lines.contains {
                    $0.hasPrefix("fail  dns") && $0.contains("cannot resolve apns.example.test")
                        && $0.contains("(socks5:// looks the APNs host up here)")
                }, "\(viaSOCKS5.stdout)")
            #expect(!viaSOCKS5.stdout.contains("fail  proxy"), "\(viaSOCKS5.stdout)")
            #expect(viaSOCKS5.stdout.contains("or give the proxy as socks5h://"), "\(viaSOCKS5.stdout)")
            withExtendedLifetime((answering, silent, proxy)) {}
        }
    }

    @Test func anotherCANamesThePresentedIssuer() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let other = try TestCredentials()
            let r = try doctor([
                "--cert", mock.certificate, "--ca-file", other.caFile, "--env", "production", "--endpoint",
                mock.endpoint,
            ])
            #expect(r.status == 69, "\(r.stdout)\(r.stderr)")
            let tls = r.lines.first { $0.hasPrefix("fail  tls") } ?? ""
            #expect(
                tls.contains("verification failed")
                    && tls.contains(
                        "the CA file \(other.caFile) does not hold the CA that issued it (apnsctl mock CA)")
                    && !tls.contains("issued by"), "\(r.stdout)")
            let json = try doctor([
                "--cert", mock.certificate, "--ca-file", other.caFile, "--env", "production", "--endpoint",
                mock.endpoint,
                "-o", "json",
            ])
            #expect(json.status == 69)
            #expect(
                json.lines.last?.contains(#""check":"tls","environment":"production","status":"fail""#) == true,
                "\(json.stdout)")
            // The last line, all a CI log may keep, has the advice to trust the presented issuer too.
            #expect(
                r.errorLines.last?.hasPrefix("error: doctor: tls production failed: ") == true
                    && r.errorLines.last?.contains("does not hold the CA that issued it (apnsctl mock CA)") == true
                    && r.errorLines.last?.contains("give --ca-file the CA that issued it") == true, "\(r.stderr)")
        }
    }

    /// A server that sends GOAWAY before taking the probe: said as the GOAWAY (its stream is closed REFUSED_STREAM
    /// because of it), not as "the server reset the stream", which sent the reader after stream problems.
    @Test func aGoAwayBeforeTheProbeIsSaidAsOne() throws {
        let mock = try InProcessMock(["--fault-goaway-after", "0"])
        let r = try doctor([
            "--cert", mock.certificate, "--ca-file", mock.caFile, "--endpoint", mock.endpoint, "--env", "sandbox",
        ])
        #expect(r.status == 69, "\(r.stdout)\(r.stderr)")
        #expect(
            r.lines.last == "fail  auth sandbox  no answer to the probe: GOAWAY NO_ERROR: Shutdown", "\(r.stdout)")
    }

    /// A `--ca-file` that holds no certificate is the user's input, 66 with send's message, after the credentials
    /// line and before any network check: it was a failed `tls` line with no environment, exit 69 ("network").
    @Test func anUnusableCAFileIsInputNotNetwork() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "doctor-ca")
        let junk = try scratch.write("junk.pem", "garbage\n")
        let r = try doctor(["--cert", mock.certificate, "--ca-file", junk, "--endpoint", mock.endpoint])
        #expect(r.status == 66, "\(r.stdout)\(r.stderr)")
        #expect(r.lines.count == 1 && r.lines[0].hasPrefix("ok    credentials"), "\(r.stdout)")
        #expect(
            r.errorLines.first?.hasPrefix("error: --ca-file \(junk): cannot load CA certificates") == true,
            "\(r.stderr)")
    }

    @Test func aSilentServerFailsNamingTheTimeout() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let silent = try Socket.listen(host: "127.0.0.1", port: 0)
            let r = try doctor(
                [
                    "--cert", mock.certificate, "--ca-file", mock.caFile, "--env", "sandbox", "--timeout", "1",
                    "--endpoint", "https://127.0.0.1:\(silent.localPort)",
                ], timeout: 30)
            #expect(r.status == 69, "\(r.stdout)\(r.stderr)")
            #expect(r.seconds < 15)
            let tls = r.lines.first { $0.hasPrefix("fail  tls") } ?? ""
            #expect(tls.contains("within 1 s") && tls.contains("--timeout"), "\(r.stdout)")
        }
    }

    @Test func throughTinyproxyTheProbeArrives() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock(keepingLog: true)
            let proxy = try ProxyProcess(
                .tinyproxy(connectPorts: [SendProxyTests.port(of: mock.endpoint)], credentials: nil))
            let r = try doctor(
                [
                    "--cert", mock.certificate, "--ca-file", mock.caFile, "--env", "sandbox",
                    "--endpoint", mock.endpoint.replacingOccurrences(of: "127.0.0.1", with: "localhost"),
                ],
                environment: ["https_proxy": proxy.url(scheme: "http")])
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            let line = r.lines.first { $0.hasPrefix("ok    proxy") } ?? ""
            #expect(line.contains("from https_proxy") && line.contains("200"), "\(r.stdout)")
            #expect(r.lines.contains { $0.hasPrefix("ok    dns") && $0.contains("proxy") }, "\(r.stdout)")
            #expect(mock.answersPerDevice(expectingAtLeast: 1)[String(repeating: "0", count: 64)] == 1)
            #expect(proxy.connectRequests == 1)
        }
    }

    @Test func aWrongProxyPasswordFailsProxyWithoutPrintingIt() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let secret = "s3cret-pw"
            let proxy = try ProxyProcess(
                .tinyproxy(connectPorts: [SendProxyTests.port(of: mock.endpoint)], credentials: ("alice", secret)))
            let wrong = "wr0ng-pw"
            let r = try doctor([
                "--cert", mock.certificate, "--ca-file", mock.caFile, "--env", "sandbox", "--endpoint", mock.endpoint,
                "--proxy", proxy.url(scheme: "http", user: "alice", password: wrong),
            ])
            #expect(r.status == 69, "\(r.stdout)\(r.stderr)")
            let line = r.lines.first { $0.hasPrefix("fail  proxy") } ?? ""
            // RFC 9110 says 407; tinyproxy's BasicAuth answers 401. Either is the proxy refusing the credentials.
            #expect(
                line.contains("refused the tunnel") && (line.contains("407") || line.contains("401")), "\(r.stdout)")
            #expect(!(r.stdout + r.stderr).contains(wrong) && !(r.stdout + r.stderr).contains(secret))
        }
    }
}
