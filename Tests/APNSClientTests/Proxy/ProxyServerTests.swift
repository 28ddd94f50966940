import Testing

@testable import APNSClient

/// Proxy URLs as curl reads them: schemes, default port, percent-decoded credentials, and messages
/// that never contain the password.
@Suite struct ProxyServerTests {
    @Test(
        arguments: [
            ("http://proxy.corp:3128", ProxyServer.Kind.http, "proxy.corp", 3128, nil, nil),
            ("proxy.corp:8080", .http, "proxy.corp", 8080, nil, nil),
            ("HTTP://proxy.corp", .http, "proxy.corp", 1080, nil, nil),
            ("http://alice:s3cr%40t%3A@proxy:3128/", .http, "proxy", 3128, "alice", "s3cr@t:"),
            ("socks5h://bob:hunter2@[::1]:1080", .socks5h, "::1", 1080, "bob", "hunter2"),
            ("socks5://10.0.0.1:9050", .socks5, "10.0.0.1", 9050, nil, nil),
            ("http://user%20name@p:1", .http, "p", 1, "user name", nil),
            ("  http://p:2  ", .http, "p", 2, nil, nil),
        ] as [(String, ProxyServer.Kind, String, Int, String?, String?)])
    func parsed(
        _ url: String, _ kind: ProxyServer.Kind, _ host: String, _ port: Int, _ user: String?, _ password: String?
    ) throws {
        let p = try ProxyServer(url: url)
        #expect(p.kind == kind)
        #expect(p.host == host)
        #expect(p.port == port)
        #expect(p.user == user)
        #expect(p.password == password)
    }

    @Test(arguments: [
        "https://p:443", "socks4://p:1080", "ftp://p", "http://p:0", "http://p:70000", "http://p:x",
        "http://", "http://p/path", "http://[::1", "http://u:%zz@p:1", "http://u:%4@p:1",
    ])
    func refused(_ url: String) {
        #expect(throws: ProxyServer.Problem.self) { try ProxyServer(url: url) }
    }

    /// Typos that were taken for a host and handed to the resolver (exit 69, "cannot resolve"): refused as the URL's
    /// (64), saying what is wrong.
    @Test(arguments: [
        ("http:127.0.0.1:23010", "a scheme is followed by :// (http://)"),
        // With credentials it read as user `socks5h` at an HTTP proxy.
        ("socks5h:bob:pw@proxy:1080", "a scheme is followed by :// (socks5h://)"),
        ("HTTP:bob@proxy:3128", "a scheme is followed by :// (http://)"),
        ("http://127.0.0.1;23010", "a host name holds no \";\""),
        ("http://pro xy:1", "holds a space"),
        ("http://[fe80::zz]:1", "not a host name or an IPv6 address"),
    ])
    func aTypoInTheHostIsTheURLs(_ url: String, _ reason: String) {
        do {
            _ = try ProxyServer(url: url, source: "--proxy")
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.message.contains(reason) && !error.message.contains("pw"), "\(error.message)")
        }
    }

    /// A host named like a scheme, with its port (`http:3128`), is still a host.
    @Test func aHostNamedLikeASchemeIsAHost() throws {
        let p = try ProxyServer(url: "http:3128")
        #expect(p.urlWithoutCredentials == "http://http:3128")
    }

    @Test func displayAndMessagesNeverShowThePassword() throws {
        let p = try ProxyServer(url: "http://alice:topsecret@proxy:3128")
        #expect(p.display == "http://alice:***@proxy:3128")
        #expect("\(p)" == p.display)
        #expect(p.urlWithoutCredentials == "http://proxy:3128")
        do {
            _ = try ProxyServer(url: "https://alice:topsecret@proxy:3128", source: "https_proxy")
            Issue.record("accepted https://")
        } catch {
            #expect(error.message.hasPrefix("https_proxy https://alice:***@proxy:3128:"))
            #expect(!error.message.contains("topsecret"))
        }
    }

    @Test func failuresNameTheProxyNotThePassword() throws {
        let p = try ProxyServer(url: "http://alice:topsecret@proxy:3128")
        let failures: [ProxyFailure] = [
            .refused(proxy: p.display, status: 407, statusLine: "HTTP/1.1 407 Proxy Authentication Required"),
            .socksRefused(proxy: p.display, reason: "wrong user name or password"),
            .closed(proxy: p.display, during: "before answering CONNECT"),
            .timeout(proxy: p.display, seconds: 2),
        ]
        for f in failures {
            #expect(f.description.contains("proxy:3128"))
            #expect(!f.description.contains("topsecret"))
        }
        #expect(TransportFailure.proxy(failures[0]).description.contains("407"))
        // A 407 to a URL with a user refused these credentials; without one, the proxy wants some.
        #expect(
            failures[0].description.hasSuffix(
                "; the proxy refused these credentials: check the user and password (percent-encode special characters)"
            ))
        let anonymous = ProxyFailure.refused(
            proxy: "http://proxy:3128", status: 407, statusLine: "HTTP/1.1 407 Proxy Authentication Required")
        #expect(anonymous.description.contains("; the proxy wants credentials: give http://user:password@host:port"))
    }

    /// `http://user:password` without `@host:port` reads as host `user` and port `password`: the "port" is not
    /// quoted, as a password is never shown.
    @Test func aPasswordWhereThePortGoesIsNotShown() {
        #expect {
            try ProxyServer(url: "http://ci:s3cret", source: "--proxy")
        } throws: { error in
            let message = (error as? ProxyServer.Problem)?.message ?? ""
            return message.hasPrefix(
                "--proxy http://ci:***: the port must be a number from 1 to 65535 (if a password follows the colon, write user:password@host:port)"
            )
                && !message.contains("s3cret")
        }
    }

    /// A password of digits only, or of signs, is not shown either; a port out of range is.
    @Test func aPasswordOfDigitsWhereThePortGoesIsNotShown() {
        for url in ["http://admin:12345678", "http://admin:--++=="] {
            #expect {
                try ProxyServer(url: url, source: "--proxy")
            } throws: { error in
                let message = (error as? ProxyServer.Problem)?.message ?? ""
                return message.hasPrefix("--proxy http://admin:***: ") && !message.contains("12345678")
                    && !message.contains("--++")
            }
        }
        #expect {
            try ProxyServer(url: "http://p:70000", source: "--proxy")
        } throws: { error in
            (error as? ProxyServer.Problem)?.message.hasPrefix("--proxy http://p:70000: ") == true
        }
    }

    /// RFC 1929 gives a SOCKS5 user name and password a length byte each: longer ones are refused (curl: 97),
    /// not cut and then refused by the proxy as wrong.
    @Test func aSOCKS5CredentialOver255BytesIsRefused() throws {
        let long = String(repeating: "a", count: 256)
        #expect {
            try ProxyServer(url: "socks5h://ci:\(long)@p:1080")
        } throws: { error in
            (error as? ProxyServer.Problem)?.message.contains("at most 255 bytes each (RFC 1929)") == true
        }
        // A user name of fewer characters than the quoting limit but more bytes than RFC 1929's (90 "€", 270 bytes).
        let euros = String(repeating: "€", count: 90)
        #expect {
            try ProxyServer(url: "socks5://\(euros):pw@p:1080")
        } throws: { error in
            (error as? ProxyServer.Problem)?.message.contains("at most 255 bytes each (RFC 1929)") == true
        }
        #expect(
            try ProxyServer(url: "socks5h://ci:\(String(repeating: "a", count: 255))@p:1080").password?.count == 255)
        #expect(try ProxyServer(url: "http://ci:\(long)@p:3128").password?.count == 256, "HTTP Basic has no such limit")
    }

    @Test func onlyTransientProxyFailuresAreRetriedAfterAWorkingConnection() {
        #expect(TransportFailure.proxy(.closed(proxy: "p", during: "x")).isRetriable)
        #expect(TransportFailure.proxy(.refused(proxy: "p", status: 503, statusLine: "503")).isRetriable)
        #expect(!TransportFailure.proxy(.refused(proxy: "p", status: 407, statusLine: "407")).isRetriable)
        #expect(!TransportFailure.proxy(.socksRefused(proxy: "p", reason: "auth")).isRetriable)
    }
}
