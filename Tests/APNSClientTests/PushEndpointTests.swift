import Testing
@testable import APNSClient

/// `--endpoint` parsing: only https://host[:port], nothing else.
@Suite struct PushEndpointTests {
    @Test(arguments: [
        ("https://127.0.0.1:2197", "127.0.0.1", 2197, "https://127.0.0.1:2197"),
        ("https://localhost", "localhost", 443, "https://localhost:443"),
        ("HTTPS://api.push.apple.com:443/", "api.push.apple.com", 443, "https://api.push.apple.com:443"),
        ("https://[::1]:8443", "::1", 8443, "https://[::1]:8443"),
    ] as [(String, String, Int, String)])
    func accepted(_ url: String, _ host: String, _ port: Int, _ shown: String) throws {
        let e = try PushEndpoint(url: url)
        #expect(e.host == host)
        #expect(e.port == port)
        #expect(e.url == shown)
    }

    @Test(arguments: ["http://127.0.0.1:2197", "127.0.0.1:2197", "https://h:2197/3/device", "https://h:0", "https://h:99999",
                      "https://h:abc", "https://", "https://user@h:1", "https://h?x=1", "ftp://h", "https://[::1"])
    func refused(_ url: String) {
        #expect(throws: PushEndpoint.Problem.self) { try PushEndpoint(url: url) }
    }

    @Test func messagesSayWhatShapeIsExpected() {
        do {
            _ = try PushEndpoint(url: "http://x")
            Issue.record("accepted http")
        } catch {
            // The library names the value; the CLI adds the flag (SendUsageTests pins "--endpoint http://x").
            #expect(error.message.hasPrefix("http://x: scheme http is not supported"))
            #expect(error.message.contains("https://host:port"))
        }
    }

    @Test func appleEndpoints() {
        #expect(PushEndpoint(environment: .sandbox).url == "https://api.sandbox.push.apple.com:443")
        #expect(PushEndpoint(environment: .production).authority == "api.push.apple.com:443")
    }
}
