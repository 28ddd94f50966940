import APNSCore
import APNSMock
import APNSTestSupport
import Foundation
import Testing

/// The engine over real TLS sockets, with curl as an independent HTTP/2 client.
@Suite struct MockServerTests {
    @Test func answersMissingProviderTokenWithoutCredentials() throws {
        let fixture = try MockFixture()
        let (server, port) = try fixture.start()
        defer { server.stop() }
        let (status, body, headers) = try fixture.curl(port: port, headers: ["apns-topic: com.example.demo"])
        #expect(status == 403)
        #expect(body == #"{"reason":"MissingProviderToken"}"#)
        #expect(headers.contains("apns-id: "))
        #expect(headers.contains("content-type: application/json"))
        #expect(headers.hasPrefix("HTTP/2 403"))
    }
}
