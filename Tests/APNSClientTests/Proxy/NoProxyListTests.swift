import Testing

@testable import APNSClient

/// NO_PROXY matching, case by case as curl's lib/noproxy.c decides it.
@Suite struct NoProxyListTests {
    @Test(
        arguments: [
            ("apple.com", "api.push.apple.com", true),
            ("apple.com", "apple.com", true),
            (".apple.com", "api.push.apple.com", true),
            (".apple.com", "apple.com", true),
            ("apple.com", "notapple.com", false),
            ("push.apple.com", "api.sandbox.push.apple.com", true),
            ("API.PUSH.APPLE.COM", "api.push.apple.com", true),
            ("api.push.apple.com.", "api.push.apple.com", true),
            ("apple.com", "api.push.apple.com.", true),
            ("example.com, localhost ,127.0.0.1", "localhost", true),
            ("example.com localhost", "localhost", true),
            ("*", "anything.example", true),
            ("example.com,*", "anything.example", true),
            ("*.apple.com", "api.push.apple.com", false),
            ("", "api.push.apple.com", false),
            ("127.0.0.1", "127.0.0.1", true),
            ("127.0.0.1", "127.0.0.10", false),
            ("10.0.0.0/8", "10.20.30.40", true),
            ("10.0.0.0/8", "11.0.0.1", false),
            ("192.168.1.0/24", "192.168.1.77", true),
            ("0.0.0.0/0", "8.8.8.8", true),
            ("::1", "::1", true),
            ("[::1]", "[::1]", true),
            ("::1", "::2", false),
            ("localhost", "127.0.0.1", false),
        ] as [(String, String, Bool)])
    func matching(_ list: String, _ host: String, _ expected: Bool) {
        #expect(NoProxyList(list).matches(host: host) == expected, "\(list) vs \(host)")
    }
}
