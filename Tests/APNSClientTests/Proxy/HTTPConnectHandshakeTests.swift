import Testing

@testable import APNSClient

/// The CONNECT request and the parsing of the proxy's answer, byte by byte, without sockets.
@Suite struct HTTPConnectHandshakeTests {
    private func handshake(
        _ url: String = "http://proxy:3128", host: String = "api.push.apple.com",
        port: Int = 443
    ) throws -> HTTPConnectHandshake {
        HTTPConnectHandshake(proxy: try ProxyServer(url: url), host: host, port: port)
    }

    @Test func requestWithoutCredentials() throws {
        var h = try handshake()
        let text = String(decoding: h.start(), as: UTF8.self)
        #expect(text.hasPrefix("CONNECT api.push.apple.com:443 HTTP/1.1\r\nHost: api.push.apple.com:443\r\n"))
        #expect(!text.contains("Proxy-Authorization"))
        #expect(text.hasSuffix("\r\n\r\n"))
    }

    @Test func requestWithBasicAuthAndIPv6Target() throws {
        var h = try handshake("http://Aladdin:open%20sesame@proxy:3128", host: "::1", port: 2197)
        let text = String(decoding: h.start(), as: UTF8.self)
        #expect(text.hasPrefix("CONNECT [::1]:2197 HTTP/1.1\r\n"))
        // RFC 7617's example: Aladdin:open sesame
        #expect(text.contains("\r\nProxy-Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\r\n"))
    }

    @Test(arguments: ["", "a", "ab", "abc", "abcd", "hello world"])
    func base64MatchesRFC4648(_ text: String) {
        let expected = [
            "": "", "a": "YQ==", "ab": "YWI=", "abc": "YWJj", "abcd": "YWJjZA==", "hello world": "aGVsbG8gd29ybGQ=",
        ]
        #expect(HTTPConnectHandshake.base64(Array(text.utf8)) == expected[text])
    }

    @Test func answerArrivingInPieces() throws {
        var h = try handshake()
        _ = h.start()
        let answer = Array("HTTP/1.1 200 Connection established\r\nProxy-Agent: x\r\n\r\n".utf8)
        for i in 0..<(answer.count - 1) {
            #expect(h.receive([answer[i]]) == .needMore, "byte \(i)")
        }
        #expect(h.receive([answer[answer.count - 1]]) == .established(detail: "HTTP/1.1 200 Connection established"))
    }

    @Test(arguments: [
        (407, "HTTP/1.1 407 Proxy Authentication Required"), (401, "HTTP/1.0 401 Unauthorized"),
        (403, "HTTP/1.1 403 Forbidden"), (502, "HTTP/1.1 502 Bad Gateway"), (503, "HTTP/1.1 503 Service Unavailable"),
    ])
    func refusals(_ status: Int, _ line: String) throws {
        var h = try handshake("http://alice:pw@proxy:3128")
        _ = h.start()
        let step = h.receive(Array((line + "\r\nContent-Length: 0\r\n\r\n").utf8))
        #expect(step == .failed(.refused(proxy: "http://alice:***@proxy:3128", status: status, statusLine: line)))
    }

    /// What each refusal's status says: a web server given as the proxy (501, as `python3 -m http.server` answers
    /// CONNECT) does not tunnel; it was said to be unable to reach the APNs host.
    @Test func eachRefusalSaysWhatItsStatusMeans() {
        let said = { (status: Int) in
            ProxyFailure.refused(proxy: "http://proxy:3128", status: status, statusLine: "HTTP/1.0 \(status) X")
                .description
        }
        #expect(
            said(501)
                == "proxy http://proxy:3128 refused the tunnel: HTTP/1.0 501 X; it does not tunnel (CONNECT): is this a web server rather than an HTTP proxy? check the proxy URL, or use a SOCKS proxy (socks5://…)"
        )
        #expect(
            said(405).hasSuffix(
                "; it does not tunnel (CONNECT): is this a web server rather than an HTTP proxy? check the proxy URL, or use a SOCKS proxy (socks5://…)"
            ))
        for status in [500, 502, 503, 504] {
            #expect(said(status).hasSuffix("; the proxy could not reach the server it was asked for"), "\(status)")
        }
    }

    @Test func notHTTPAndOversizedAndTrailingBytesAreRefused() throws {
        var h = try handshake()
        _ = h.start()
        guard case .failed(.malformed) = h.receive([5, 0, 0, 0, 0, 0]) else {
            Issue.record("SOCKS bytes accepted")
            return
        }
        var big = try handshake()
        _ = big.start()
        var step = big.receive(Array("HTTP/1.1 200 OK\r\n".utf8))
        let filler = Array("X-Filler: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n".utf8)
        for _ in 0..<300 where step == .needMore { step = big.receive(filler) }
        guard case .failed(.malformed) = step else {
            Issue.record("endless head accepted: \(step)")
            return
        }
        var extra = try handshake()
        _ = extra.start()
        guard case .failed(.malformed) = extra.receive(Array("HTTP/1.1 200 OK\r\n\r\n\u{16}\u{3}".utf8)) else {
            Issue.record("bytes after the head accepted")
            return
        }
        var garbage = try handshake()
        _ = garbage.start()
        guard case .failed(.malformed) = garbage.receive(Array("HTTP/1.1 abc\r\n\r\n".utf8)) else {
            Issue.record("bad status line accepted")
            return
        }
    }
}
