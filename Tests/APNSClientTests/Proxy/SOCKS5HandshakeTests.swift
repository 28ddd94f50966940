import Testing

@testable import APNSClient

/// The SOCKS5 exchange (RFC 1928/1929) as bytes in and bytes out, without sockets.
@Suite struct SOCKS5HandshakeTests {
    private func handshake(
        _ url: String, _ destination: SOCKS5Handshake.Destination = .name("api.push.apple.com"),
        port: Int = 443
    ) throws -> SOCKS5Handshake {
        SOCKS5Handshake(proxy: try ProxyServer(url: url), destination: destination, port: port)
    }

    private let nameRequest: [UInt8] = [5, 1, 0, 3, 18] + Array("api.push.apple.com".utf8) + [0x01, 0xBB]
    private let ipv4Reply: [UInt8] = [5, 0, 0, 1, 127, 0, 0, 1, 0x1F, 0x90]

    @Test func withoutAuthenticationByName() throws {
        var h = try handshake("socks5h://proxy:1080")
        #expect(h.start() == [5, 1, 0])
        #expect(h.receive([5, 0]) == .send(nameRequest))
        #expect(h.receive(Array(ipv4Reply.prefix(4))) == .needMore)
        #expect(h.receive(Array(ipv4Reply.dropFirst(4))) == .established(detail: "SOCKS5 CONNECT succeeded"))
    }

    @Test func withUserAndPassword() throws {
        var h = try handshake("socks5h://bob:hun%3Ater2@proxy:1080")
        #expect(h.start() == [5, 2, 0, 2])
        #expect(h.receive([5, 2]) == .send([1, 3] + Array("bob".utf8) + [8] + Array("hun:ter2".utf8)))
        #expect(h.receive([1, 0]) == .send(nameRequest))
        // A reply with a domain-name address (type 3) and an IPv6 one (type 4) are both read whole.
        #expect(
            h.receive([5, 0, 0, 3, 4] + Array("host".utf8) + [0, 80])
                == .established(detail: "SOCKS5 CONNECT succeeded"))
        var v6 = try handshake("socks5h://proxy:1080")
        _ = v6.start()
        _ = v6.receive([5, 0])
        #expect(v6.receive([5, 0, 0, 4] + [UInt8](repeating: 0, count: 15)) == .needMore)
        #expect(v6.receive([1, 0, 80]) == .established(detail: "SOCKS5 CONNECT succeeded"))
    }

    @Test func addressDestinationForSocks5() throws {
        var h = try handshake("socks5://proxy:1080", .address([17, 188, 1, 2]), port: 2197)
        _ = h.start()
        #expect(h.receive([5, 0]) == .send([5, 1, 0, 1, 17, 188, 1, 2, 0x08, 0x95]))
        var v6 = try handshake("socks5://proxy:1080", .address([UInt8](repeating: 1, count: 16)))
        _ = v6.start()
        #expect(v6.receive([5, 0]) == .send([5, 1, 0, 4] + [UInt8](repeating: 1, count: 16) + [0x01, 0xBB]))
    }

    @Test func refusals() throws {
        var wrong = try handshake("socks5h://bob:bad@proxy:1080")
        _ = wrong.start()
        _ = wrong.receive([5, 2])
        #expect(
            wrong.receive([1, 1])
                == .failed(.socksRefused(proxy: "socks5h://bob:***@proxy:1080", reason: "wrong user name or password")))

        var needsAuth = try handshake("socks5h://proxy:1080")
        _ = needsAuth.start()
        guard case .failed(.socksRefused(_, let why)) = needsAuth.receive([5, 0xFF]) else {
            Issue.record("accepted")
            return
        }
        #expect(why.contains("requires a user name and password; give socks5h://user:password@host:port"))
        // The advice keeps the scheme given: socks5:// resolves the APNs host here, socks5h:// at the proxy.
        var needsAuthHere = try handshake("socks5://proxy:1080", .address([17, 188, 1, 2]))
        _ = needsAuthHere.start()
        guard case .failed(.socksRefused(_, let whyHere)) = needsAuthHere.receive([5, 0xFF]) else {
            Issue.record("accepted")
            return
        }
        #expect(whyHere.contains("give socks5://user:password@host:port"))

        for code in UInt8(1)...8 {
            var h = try handshake("socks5h://proxy:1080")
            _ = h.start()
            _ = h.receive([5, 0])
            guard case .failed(.socksRefused(_, let reason)) = h.receive([5, code, 0, 1, 0, 0, 0, 0, 0, 0]) else {
                Issue.record("reply \(code) accepted")
                continue
            }
            #expect(reason.contains("reply \(code)"))
        }
    }

    @Test func notSOCKSIsMalformed() throws {
        var h = try handshake("socks5h://proxy:1080")
        _ = h.start()
        guard case .failed(.malformed) = h.receive(Array("HTTP/1.1 400 Bad Request\r\n".utf8)) else {
            Issue.record("accepted HTTP")
            return
        }
        var trailing = try handshake("socks5h://proxy:1080")
        _ = trailing.start()
        _ = trailing.receive([5, 0])
        guard case .failed(.malformed) = trailing.receive(ipv4Reply + [0x16]) else {
            Issue.record("accepted trailing bytes")
            return
        }
    }
}
