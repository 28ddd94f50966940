import Testing

@testable import APNSClient

/// `--endpoint` parsing: only https://host[:port], nothing else.
@Suite struct PushEndpointTests {
    @Test(
        arguments: [
            ("https://127.0.0.1:2197", "127.0.0.1", 2197, "https://127.0.0.1:2197"),
            ("https://localhost", "localhost", 443, "https://localhost:443"),
            ("HTTPS://api.push.apple.com:443/", "api.push.apple.com", 443, "https://api.push.apple.com:443"),
            ("https://[::1]:8443", "::1", 8443, "https://[::1]:8443"),
            // Blanks around the URL (a quoted value's, a secret store's line break) are no part of it.
            (" https://127.0.0.1:8443\n", "127.0.0.1", 8443, "https://127.0.0.1:8443"),
            // A Windows file's CRLF too ("\r\n" is one Character: trimming by Characters kept it).
            ("https://127.0.0.1:8443\r\n", "127.0.0.1", 8443, "https://127.0.0.1:8443"),
        ] as [(String, String, Int, String)])
    func accepted(_ url: String, _ host: String, _ port: Int, _ shown: String) throws {
        let e = try PushEndpoint(url: url)
        #expect(e.host == host)
        #expect(e.port == port)
        #expect(e.url == shown)
    }

    @Test(arguments: [
        "http://127.0.0.1:2197", "127.0.0.1:2197", "https://h:2197/3/device", "https://h:0", "https://h:99999",
        "https://h:abc", "https://", "https://user@h:1", "https://h?x=1", "ftp://h", "https://[::1",
    ])
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

    /// Each refusal is its own case, worded with the value and the shape expected.
    @Test(arguments: [
        (
            "ftp://h", PushEndpoint.Problem.unsupportedScheme(shown: "ftp://h", scheme: "ftp"),
            "ftp://h: scheme ftp is not supported (APNs needs TLS)"
        ),
        ("127.0.0.1:2197", .notAURL(shown: "127.0.0.1:2197"), "127.0.0.1:2197: not a URL"),
        (
            "https://h:1/3/device", .hasPath(shown: "https://h:1/3/device"),
            "https://h:1/3/device: must not have a path, query or fragment (requests always go to /3/device/<token>)"
        ),
        ("https://user@h:1", .hasUserInfo(shown: "https://user@h:1"), "https://user@h:1: user names are not supported"),
        (
            "https://[::1", .badAddress(shown: "https://[::1", .unclosedBracket),
            "https://[::1: unclosed [ in the IPv6 address"
        ),
        ("https://h:0", .badPort(shown: "https://h:0"), "https://h:0: the port must be a number from 1 to 65535"),
    ])
    func refusalsAreTyped(_ url: String, _ expected: PushEndpoint.Problem, _ message: String) {
        do {
            _ = try PushEndpoint(url: url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error == expected)
            #expect(error.message == message + "; give https://host:port, e.g. https://127.0.0.1:2197")
        }
    }

    /// Two URLs joined by a comma are said to be two, not a host with a path.
    @Test(arguments: ["https://a:1,https://b:2", "https://a:1, https://b:2", "https://a:1,production=https://b:2"])
    func twoURLsJoinedByACommaAreSaidToBeTwo(_ url: String) {
        do {
            _ = try PushEndpoint(url: url)
            Issue.record("accepted")
        } catch {
            #expect(error == .commaJoined(shown: url))
            #expect(
                error.message
                    == "\(url): two URLs joined by a comma; give each as its own value, sandbox=URL and production=URL")
        }
    }

    @Test func appleEndpoints() {
        #expect(PushEndpoint(environment: .sandbox).url == "https://api.sandbox.push.apple.com:443")
        #expect(PushEndpoint(environment: .production).authority == "api.push.apple.com:443")
    }
}
