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
        let again = gai_strerror(EAI_AGAIN).map { String(cString: $0) } ?? ""
        let unknown = gai_strerror(EAI_NONAME).map { String(cString: $0) } ?? ""
        #expect(SocketError.resolve(host: "h", reason: "\(SocketError.resolverSilence) within 5 s").mayPassWithMoreTime)
        #expect(SocketError.resolve(host: "h", reason: again).mayPassWithMoreTime)
        #expect(SocketError.timeout(host: "h", port: 443, seconds: 5).mayPassWithMoreTime)
        #expect(!SocketError.resolve(host: "h", reason: unknown).mayPassWithMoreTime)
        #expect(!SocketError.connect(host: "h", port: 443, reason: "Connection refused").mayPassWithMoreTime)
    }
}
