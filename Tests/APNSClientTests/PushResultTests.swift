import APNSCore
import Testing

@testable import APNSClient

/// Turning HTTP/2 answers into results, including answers no APNs server would give.
@Suite struct PushResultTests {
    let device = try! DeviceToken(parsing: String(repeating: "ab", count: 32))

    @Test func success() {
        let r = PushResult(
            target: .device(device),
            response: HTTPResponse(
                status: 200,
                headers: [
                    HeaderField("apns-id", "8A6C1F8E-0000-4000-8000-000000000001"),
                    HeaderField("apns-unique-id", "u-1"),
                ]), durationMs: 2)
        #expect(r.outcome == .accepted)
        #expect(r.apnsID == "8A6C1F8E-0000-4000-8000-000000000001")
        #expect(r.apnsUniqueID == "u-1")
        #expect(r.reason == nil)
    }

    @Test func unregisteredKeepsTheTimestamp() {
        let body = Array("{\"reason\":\"Unregistered\",\"timestamp\":1762166400000}".utf8)
        let r = PushResult(target: .device(device), response: HTTPResponse(status: 410, body: body), durationMs: 2)
        #expect(r.outcome == .rejected)
        #expect(r.reason == .known(.unregistered))
        #expect(r.timestamp == 1_762_166_400_000)
    }

    @Test func unknownReasonIsKeptAsReceived() {
        let r = PushResult(
            target: .device(device),
            response: HTTPResponse(status: 400, body: Array("{\"reason\":\"BrandNewReason\"}".utf8)), durationMs: 1)
        #expect(r.reason == .unknown("BrandNewReason"))
        #expect(r.reason?.text == "BrandNewReason", "printed as received")
    }

    @Test(arguments: ["<html><body>502 Bad Gateway</body></html>", "{\"reason\":5}", "{", "\u{1B}[31mred\nline", ""])
    func oddBodiesNeverCrash(_ body: String) {
        let r = PushResult(
            target: .device(device), response: HTTPResponse(status: 502, body: Array(body.utf8)), durationMs: 1)
        #expect(r.outcome == .rejected)
        #expect(r.reason == nil)
        // One line, its other characters as received: each printer escapes them its own way (text `\u{1B}`, JSON
        // `\u001b`), so the result holds no escape of either kind.
        if let text = r.bodyText { #expect(!text.contains("\n") && !text.contains("\\u{")) }
    }

    @Test func hugeBodyIsCut() {
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 100_000)
        let r = PushResult(target: .device(device), response: HTTPResponse(status: 500, body: body), durationMs: 1)
        #expect((r.bodyText?.count ?? 0) <= 201)
    }

    @Test func failureHasNoStatus() {
        let r = PushResult(target: .device(device), failure: .closed(.writeFailed), durationMs: 0)
        #expect(r.outcome == .failed)
        #expect(r.status == nil)
    }

    @Test func goAwayExplanation() {
        #expect(APNSErrorBody.explanation(of: Array("{\"reason\":\"Shutdown\"}".utf8)) == "Shutdown")
        #expect(
            APNSErrorBody.explanation(of: Array("Maximum active streams violated for this endpoint.".utf8))
                == "Maximum active streams violated for this endpoint.")
        #expect(APNSErrorBody.explanation(of: []) == nil)
    }

    @Test func bearerTokensAreShortenedForDisplay() {
        let token = "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQyJ9.eyJpc3MiOiJYIn0.c2ln"
        let shown = SecretRedaction.display(HeaderField("authorization", "bearer " + token))
        #expect(shown == "bearer eyJhbGciOi…")
        #expect(SecretRedaction.display(HeaderField("apns-topic", "com.x")) == "com.x")
    }

    @Test func requestHeadersInWireOrder() {
        let request = PushRequest(
            topic: "com.x", pushType: .background, priority: .powerAware, expiration: 0,
            collapseID: "c", apnsID: "8A6C1F8E-0000-4000-8000-000000000001", bearerToken: "jwt",
            payload: Array("{}".utf8))
        let h = request.request(for: device).fields(authority: "h:1")
        #expect(
            h.map(\.name) == [
                ":method", ":scheme", ":authority", ":path", "authorization", "apns-topic", "apns-push-type",
                "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id", "content-type", "content-length",
            ])
        #expect(h.value(of: ":path") == "/3/device/" + device.hex)
        #expect(h.value(of: "authorization") == "bearer jwt")
        #expect(h.value(of: "apns-priority") == "5")
        #expect(h.value(of: "content-length") == "2")
        #expect(h.first { $0.name == ":path" }?.neverIndex == true)
    }
}
