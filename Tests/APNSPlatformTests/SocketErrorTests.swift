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
