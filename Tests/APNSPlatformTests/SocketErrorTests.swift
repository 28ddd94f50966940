import Testing

@testable import APNSPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which connection failures more time could mend: doctor advises raising `--timeout` only for those (a name
/// that does not exist fails as fast, and as surely, with any timeout).
@Suite struct SocketErrorTests {
    @Test func onlyASilentOrBusyResolverOrATimeoutMayPassWithMoreTime() {
        #expect(SocketError.resolve(host: "h", failure: .noAnswer(within: 5)).mayPassWithMoreTime)
        #expect(SocketError.resolve(host: "h", failure: .resolver(code: EAI_AGAIN)).mayPassWithMoreTime)
        #expect(SocketError.timeout(host: "h", port: 443, seconds: 5).mayPassWithMoreTime)
        #expect(!SocketError.resolve(host: "h", failure: .resolver(code: EAI_NONAME)).mayPassWithMoreTime)
        #expect(!SocketError.resolve(host: "h", failure: .noAddress).mayPassWithMoreTime)
        #expect(!SocketError.connect(host: "h", port: 443, reason: "Connection refused").mayPassWithMoreTime)
    }

    /// An IPv6 address is written in brackets, as the URL that named it (`cannot connect to ::1:2197` read as
    /// a host `::1:2197`); doctor already wrote `[::1]:2197`.
    @Test func anIPv6AddressIsBracketed() {
        #expect(
            SocketError.connect(host: "::1", port: 2197, reason: "Connection refused").description
                == "cannot connect to [::1]:2197: Connection refused")
        #expect(
            SocketError.timeout(host: "::1", port: 443, seconds: 5).description
                == "connecting to [::1]:443 timed out after 5 s")
        #expect(
            SocketError.connect(host: "127.0.0.1", port: 443, reason: "x").description
                == "cannot connect to 127.0.0.1:443: x")
    }

    @Test func theResolversWordsAreKept() {
        let unknown = gai_strerror(EAI_NONAME).map { String(cString: $0) } ?? ""
        #expect(
            SocketError.resolve(host: "h", failure: .resolver(code: EAI_NONAME)).description
                == "cannot resolve h: \(unknown)")
        #expect(
            SocketError.resolve(host: "h", failure: .noAnswer(within: 5)).description
                == "cannot resolve h: no answer from the resolver within 5 s")
    }
}
