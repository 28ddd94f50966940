import APNSCore
import APNSHTTP2
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSMock

/// The engine over real TLS sockets, with curl and nghttp as independent HTTP/2 clients.
@Suite struct MockServerTests {
    @Test func certificatePushIsAcceptedWithIDsAndNoBody() throws {
        let mock = try MockHarness()
        let (status, body, headers) = try mock.curl()
        #expect(status == 200)
        #expect(body.isEmpty)
        #expect(headers.hasPrefix("http/2 200"))
        let id = try #require(headers.components(separatedBy: "\r\n").first { $0.hasPrefix("apns-id: ") }?.dropFirst(9))
        #expect(UUIDString.isCanonical(String(id)))
        #expect(headers.contains("apns-unique-id: "))
        #expect(!headers.contains("content-type"))
    }

    /// HEAD is 405 with END_STREAM on the HEADERS frame and no DATA (a body made curl -I fail with PROTOCOL_ERROR).
    @Test func headIsMethodNotAllowedWithoutABody() throws {
        let mock = try MockHarness()
        let r = try mock.nghttp(paths: MockHarness.devicePaths(1), extra: ["-H", ":method: HEAD"])
        #expect(r.statuses.count == 1)
        #expect(r.stdout.contains(":status: 405"))
        let lines = r.stdout.components(separatedBy: "\n")
        let headers = try #require(lines.first { $0.contains("recv HEADERS frame") })
        #expect(headers.contains("flags=0x05"), "\(headers)")  // END_STREAM | END_HEADERS
        #expect(!lines.contains { $0.contains("recv DATA frame") })
        // GET still carries the reason.
        #expect(try mock.curl(method: "GET", body: nil).body == #"{"reason":"MethodNotAllowed"}"#)
    }

    /// What the tests' log readers wait for: quiet while nobody is connected, not quiet while a client is, and
    /// once a client that sent requests has gone and the server is quiet, every request is in the log already.
    @Test func theServerIsQuietOnlyWithNoConnectionAndEveryLineWritten() throws {
        let mock = try MockHarness(log: true)
        #expect(mock.server.isQuiet)
        do {
            let tls = try mock.tlsClient()
            #expect(Wait.until { !mock.server.isQuiet }, "a connected client keeps it busy")
            withExtendedLifetime(tls) {}
        }
        #expect(Wait.until { mock.server.isQuiet })
        let paths = MockHarness.devicePaths(40)
        #expect(try mock.nghttp(paths: paths).status == 0)
        #expect(Wait.until { mock.server.isQuiet })
        #expect(try mock.logLines(event: "received").count == paths.count)
        #expect(try mock.logLines(event: "answered").count == paths.count)
    }

    @Test func anApnsIDIsEchoed() throws {
        let mock = try MockHarness()
        let id = "6E7C2F3A-1B2C-4D5E-8F90-A1B2C3D4E5F6"
        let (status, _, headers) = try mock.curl(headers: ["apns-topic: com.example.demo", "apns-id: \(id)"])
        #expect(status == 200)
        #expect(headers.contains("apns-id: \(id.lowercased())"))
    }

    @Test func bearerTokensAreVerified() throws {
        let mock = try MockHarness()
        let good = try mock.token()
        #expect(
            try mock.curl(
                headers: ["apns-topic: com.example.demo", "authorization: bearer \(good)"], certificate: .none
            ).status == 200)
        let forged = String(good.dropLast(4)) + (good.hasSuffix("AAAA") ? "BBBB" : "AAAA")
        let (status, body, _) = try mock.curl(
            headers: ["apns-topic: com.example.demo", "authorization: bearer \(forged)"], certificate: .none)
        #expect(status == 403)
        #expect(body == #"{"reason":"InvalidProviderToken"}"#)
        let old = try mock.token(issuedAt: SystemClock.now() - 7200)
        #expect(
            try mock.curl(
                headers: ["apns-topic: com.example.demo", "authorization: bearer \(old)"], certificate: .none
            ).body
                == #"{"reason":"ExpiredProviderToken"}"#)
        let none = try mock.curl(certificate: .none)
        #expect(none.status == 403)
        #expect(none.body == #"{"reason":"MissingProviderToken"}"#)
        #expect(none.headers.contains("content-type: application/json"))
    }

    @Test func certificatesFromAnotherCAAreBadCertificates() throws {
        let mock = try MockHarness()
        let other = try OpenSSLFixtures()
        let (status, body, _) = try mock.curl(certificate: .other(cert: other.clientCert, key: other.clientKey))
        #expect(status == 403)
        #expect(body == #"{"reason":"BadCertificate"}"#)
    }

    @Test func productionHasNoUniqueID() throws {
        let mock = try MockHarness(environment: .production)
        let (status, _, headers) = try mock.curl()
        #expect(status == 200)
        #expect(!headers.contains("apns-unique-id"))
    }

    @Test func unregisteredAndRejectedTokens() throws {
        let gone = String(repeating: "0f", count: 32)
        let refused = String(repeating: "e1", count: 32)
        let mock = try MockHarness(unregistered: [gone], rejections: [refused: .badDeviceToken])
        let before = SystemClock.nowMilliseconds()
        let (status, body, _) = try mock.curl(path: "/3/device/" + gone)
        #expect(status == 410)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(json["reason"] as? String == "Unregistered")
        let timestamp = try #require(json["timestamp"] as? Int64)
        #expect(abs(timestamp - before) < 60_000)
        #expect(try mock.curl(path: "/3/device/" + refused.uppercased()).body == #"{"reason":"BadDeviceToken"}"#)
    }

    @Test func everyAnsweredNotificationIsLoggedWithoutSecrets() throws {
        let mock = try MockHarness(log: true)
        let token = try mock.token()
        _ = try mock.curl(headers: ["apns-topic: com.example.demo", "apns-push-type: alert", "apns-priority: 5"])
        _ = try mock.curl(
            path: "/3/device/zz", headers: ["apns-topic: com.example.demo", "authorization: bearer \(token)"],
            certificate: .none)
        mock.server.stop()
        let lines = try mock.logLines()
        #expect(lines.count == 2)
        let received = try mock.logLines(event: "received")
        #expect(
            received.map { $0["device"] as? String } == [MockHarness.device, "zz"],
            "each request is logged when it arrives")
        #expect(lines[0]["status"] as? Int == 200)
        #expect(lines[0]["device"] as? String == MockHarness.device)
        #expect(lines[0]["topic"] as? String == "com.example.demo")
        #expect(lines[0]["push_type"] as? String == "alert")
        #expect(lines[0]["priority"] as? Int == 5)
        #expect(lines[0]["auth"] as? String == "certificate")
        #expect(lines[0]["payload_size"] as? Int == MockHarness.payload.utf8.count)
        #expect((lines[0]["time"] as? String)?.hasSuffix("Z") == true)
        #expect(lines[1]["reason"] as? String == "BadDeviceToken")
        #expect(lines[1]["auth"] as? String == "token")
        #expect(lines[0]["connection"] as? Int != lines[1]["connection"] as? Int)
        let raw = try mock.directory.read("log.jsonl")
        #expect(!raw.contains(token))
        #expect(!raw.contains(String(token.split(separator: ".")[2])))
    }

    @Test func tokenConnectionsStartWithOneStream() throws {
        let mock = try MockHarness()
        let r = try mock.nghttp(
            paths: MockHarness.devicePaths(3),
            headers: ["apns-topic: com.example.demo", "authorization: bearer \(try mock.token())"], certificate: false)
        #expect(r.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"))
        #expect(r.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1000]"))
        // Streams the client sent before it read the limit of 1 are refused (safe to retry), never a GOAWAY;
        // the others are answered.
        let refused = r.stdout.components(separatedBy: "REFUSED_STREAM").count - 1
        #expect(r.statuses.count >= 1)
        #expect(r.statuses.count + refused == 3)
        #expect(r.statuses.allSatisfy { $0.hasSuffix(":status: 200") })
        #expect(r.goAwayDetails.isEmpty)
        let cert = try mock.nghttp(paths: MockHarness.devicePaths(1))
        #expect(cert.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1000]"))
    }

    @Test func aSilentClientDoesNotBlockOthersAndTimesOut() throws {
        let mock = try MockHarness(handshakeTimeoutMilliseconds: 300)
        let silent = try Socket.connect(host: "127.0.0.1", port: mock.port, timeout: 5)
        #expect(try mock.curl().status == 200)
        // The silent connection is closed once its handshake deadline passes.
        var byte: UInt8 = 0
        let start = Date()
        var closed = false
        while Date().timeIntervalSince(start) < 15 {  // ends at the close, about 300 ms in; generous for a busy machine
            _ = PollSet.wait(for: silent.fd, .readable, until: SystemClock.monotonicNanoseconds() + 100_000_000)
            let n = read(silent.fd, &byte, 1)
            if n == 0 || (n < 0 && errno != EAGAIN) {
                closed = true
                break
            }
        }
        #expect(closed)
    }

    @Test func aClientThatNeverAsksGetsIdleTimeoutAndIsClosed() throws {
        let mock = try MockHarness { $0.firstRequestTimeoutMilliseconds = 300 }
        let silent = try mock.tlsClient()
        let start = Date()
        let (bytes, closed) = MockHarness.readUntilClosed(silent, seconds: 15)
        #expect(closed)
        // Closed by the 300 ms idle timeout, not by the connection's own much longer one; generous for a busy machine.
        #expect(Date().timeIntervalSince(start) < 5)
        // The SETTINGS, then GOAWAY (type 7) with NO_ERROR and APNs' reason as debug data.
        #expect(String(decoding: bytes, as: UTF8.self).contains(#"{"reason":"IdleTimeout"}"#))
        // One that asks in time is served as usual.
        #expect(try mock.curl().status == 200)
    }

    /// CLI.md: a connection with no complete request for the idle time gets GOAWAY `IdleTimeout`, after answers
    /// too. The client here is the production one (HTTP2ClientSession through HTTP2Pump), answered and then quiet.
    @Test func aClientQuietAfterItsAnswersGetsIdleTimeoutToo() throws {
        let mock = try MockHarness { $0.firstRequestTimeoutMilliseconds = 500 }
        let tls = try mock.tlsClient()
        let session = try HTTP2ClientSession()
        let stream = try session.submitRequest(
            method: "POST", authority: "127.0.0.1", path: "/3/device/" + MockHarness.device,
            headers: [HeaderField("apns-topic", "com.example.demo")],
            body: Array(MockHarness.payload.utf8))
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var events: [HTTP2ClientEvent] = []
        var answeredAt: Date?
        var goAwayAt: Date?
        var closed = false
        let start = Date()
        while Date().timeIntervalSince(start) < 10 && !closed {
            _ = HTTP2Pump.flush(session, to: tls)
            _ = PollSet.wait(for: tls.socket.fd, .readable, until: SystemClock.monotonicNanoseconds() + 50_000_000)
            switch HTTP2Pump.read(from: tls, into: session, buffer: &buffer) {
            case .closed, .failed, .rejected: closed = true
            case .received, .wouldBlock: break
            }
            for event in session.takeEvents() {
                events.append(event)
                if case .response = event { answeredAt = Date() }
                if case .goAway = event { goAwayAt = Date() }
            }
        }
        #expect(closed, "the mock closed the quiet connection")
        // No client certificate and no token: answered 403, which counts as an answer like any other.
        #expect(
            events.contains { if case .response(stream, let r) = $0 { return r.status == 403 } else { return false } })
        #expect(
            events.contains(
                .goAway(
                    HTTP2GoAway(lastStreamID: stream, errorCode: 0, debugData: Array(#"{"reason":"IdleTimeout"}"#.utf8))
                )))
        if let answeredAt, let goAwayAt { #expect(goAwayAt.timeIntervalSince(answeredAt) >= 0.4) }
    }

    /// CLI.md: a connection whose credentials were refused gets one stream at a time (a certificate from another
    /// CA here), so it cannot make the mock hold many unfinished requests.
    @Test func refusedCertificatesGetOneStreamAtATime() throws {
        let mock = try MockHarness()
        let other = try OpenSSLFixtures()
        var args = [
            "-v", "-n", "-t", "5", "-d", mock.directory.file("payload.json"), "--cert", other.clientCert,
            "--key", other.clientKey, "-H", "apns-topic: com.example.demo",
        ]
        args += MockHarness.devicePaths(2).map { mock.endpoint + $0 }
        let r = try CommandRunner.run("nghttp", args, timeout: 15)
        #expect(r.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"), "\(r.stdout.suffix(800))")
        #expect(!r.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1000]"))
        #expect(r.statuses.allSatisfy { $0.hasSuffix(":status: 403") } && !r.statuses.isEmpty)
    }

    @Test func aShortLoadIsAnsweredWithoutFailures() throws {
        let mock = try MockHarness(log: true)
        let r = try mock.nghttp(paths: MockHarness.devicePaths(1), timeoutSeconds: 30, extra: ["-m", "2000"])
        #expect(r.status == 0)
        mock.server.stop()
        let lines = try mock.logLines()
        #expect(lines.count == 2000)
        #expect(lines.allSatisfy { $0["status"] as? Int == 200 })
    }

    /// The library states facts; the CLI names its flags (`--port`, `--state-dir`, `--max-connections`).
    @Test func libraryMessagesNameNoCLIFlag() {
        let messages = [
            MockServerError.listen(.listen(host: "127.0.0.1", port: 2197, reason: "Address already in use"))
                .description,
            MockStateError.inUse(directory: "/tmp/s", pid: 42).description,
            MockStateError.notADirectory("/tmp/s").description,
        ]
        for m in messages { #expect(!m.contains("--"), "\(m)") }
        #expect(
            MockServerError.listen(.listen(host: "127.0.0.1", port: 2197, reason: "Address already in use"))
                .isAddressInUse)
        #expect(!MockServerError.alreadyStarted.isAddressInUse)
        // An IPv6 address in brackets, as a URL and the connect messages write it.
        #expect(
            MockServerError.listen(.listen(host: "::1", port: 2197, reason: "Address already in use")).description
                == "cannot listen on [::1]:2197: the port is in use; stop the other server")
    }
}
