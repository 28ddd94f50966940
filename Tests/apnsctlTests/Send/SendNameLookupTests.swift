import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md: connecting tries every address the host resolves to, IPv6 and IPv4 interleaved, and the lookup ends
/// within `--timeout` and gives way to Ctrl-C. In-process, with the resolver's answers given through the world
/// (SendNameResolutionTests keeps one run of the binary against the system resolver and a private /etc/hosts).
@Suite struct SendNameLookupTests {
    /// A resolver that answers `localhost` with `order` (on `port`) and records what it was asked.
    final class Answering: Sendable {
        let asked = LockedValue<[String]>([])
        let lookup: NameLookup

        init(_ order: [String], port: Int) throws {
            let addresses = try order.flatMap { try Socket.resolveAll(host: $0, port: port, numericOnly: true) }
            let asked = self.asked
            lookup = NameLookup { (host, port) throws(SocketError) in
                asked.withLock { $0.append("\(host):\(port)") }
                guard host == "localhost" else { throw .resolve(host: host, failure: .noAddress) }
                return addresses
            }
        }
    }

    /// A resolver that never answers until the test ends, as a silent DNS server's: `asked` is signalled once the
    /// lookup is under way. Its threads are let go when the value goes away.
    final class Silent: Sendable {
        let asked = DispatchSemaphore(value: 0)
        private let release = DispatchSemaphore(value: 0)
        let lookup: NameLookup

        init() {
            let asked = self.asked
            let release = self.release
            lookup = NameLookup { (host, _) throws(SocketError) in
                asked.signal()
                release.wait()
                release.signal()
                throw .resolve(host: host, failure: .noAddress)
            }
        }

        deinit { release.signal() }
    }

    static func send(_ mock: InProcessMock, endpoint: String, _ extra: [String] = []) -> [String] {
        [
            "send", "-d", SendDeliveryTests.token(7), "--endpoint", endpoint, "--ca-file", mock.caFile,
            "--cert", mock.certificate,
        ] + extra
    }

    /// `localhost` resolving to both families, in either order, with the mock listening on only one: the refused
    /// address is left at once for the other, never a timeout.
    @Test(arguments: [("::1", "127.0.0.1"), ("127.0.0.1", "::1")])
    func bothFamiliesAreTriedWhicheverComesFirst(_ first: String, _ listening: String) async throws {
        try await offThePool {
            let mock = try InProcessMock(["--host", listening])
            let port = SendProxyTests.port(of: mock.endpoint)
            let resolver = try Answering([first, listening], port: port)

            let r = try InProcess.apnsctl(
                Self.send(mock, endpoint: "https://localhost:\(port)", ["-v", "--timeout", "20"]), timeout: 60,
                nameLookup: resolver.lookup)

            #expect(r.status == 0, "\(r.stderr.suffix(500))")
            #expect(r.stdout.hasPrefix("accepted  200"), "\(r.stdout)")
            #expect(resolver.asked.current == ["localhost:\(port)"], "the world's resolver answered the lookup")
            #expect(r.seconds < 10, "a refused \(first) must not cost a timeout")
            withExtendedLifetime(resolver) {}
        }
    }

    /// How `send` reaches `apns.example.test`: directly, or through a `socks5://` proxy (curl's: the APNs host is
    /// resolved here and its address given to the proxy; that lookup used to wait for the system resolver however
    /// long). The proxy is a listener that never answers: the connection to it is made, then the lookup comes
    /// first. Returns the arguments and the listener, which the caller keeps while the command runs.
    static func sendByName(_ mock: InProcessMock, route: String, _ extra: [String] = []) throws -> ([String], Socket?) {
        let endpoint = "https://apns.example.test:443"
        guard route == "socks5://" else { return (send(mock, endpoint: endpoint, extra), nil) }
        let proxy = try Socket.listen(host: "127.0.0.1", port: 0)
        return (send(mock, endpoint: endpoint, ["--proxy", "socks5://127.0.0.1:\(proxy.localPort)"] + extra), proxy)
    }

    @Test(arguments: ["direct", "socks5://"])
    func aSilentResolverEndsWithinTheTimeout(_ route: String) async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let resolver = Silent()
            let (arguments, proxy) = try Self.sendByName(mock, route: route, ["--timeout", "1"])

            let r = try InProcess.apnsctl(arguments, timeout: 30, nameLookup: resolver.lookup)

            #expect(r.status == 69, "\(r.stderr)")
            // A loaded machine's margin; the resolver never answers at all.
            #expect(!r.timedOut && r.seconds < 8, "--timeout 1 bounds the lookup: \(r.seconds) s")
            #expect(
                r.stderr.contains("cannot resolve apns.example.test: no answer from the resolver within 1 s"),
                "\(r.stderr)")
            #expect(proxy.map { $0.accept() != nil } != false, "the lookup was the proxy route's: \(r.stderr)")
            withExtendedLifetime((proxy, resolver)) {}
        }
    }

    @Test(arguments: ["direct", "socks5://"])
    func ctrlCDuringTheLookupIsAnInterrupt(_ route: String) async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let resolver = Silent()
            let (arguments, proxy) = try Self.sendByName(mock, route: route)
            let run = try InProcess.Run(arguments, nameLookup: resolver.lookup)
            // Ctrl-C once the lookup is under way, however long starting took.
            #expect(resolver.asked.wait(timeout: .now() + 20) == .success, "no lookup began: \(run.stderr)")

            run.interrupts.deliver(SIGINT)
            let (status, waited) = run.finish(within: 15)

            #expect(status == 130, "\(run.stderr)")
            #expect(waited < 5, "the lookup gives way to Ctrl-C at once: \(waited) s")
            #expect(
                run.stdout == "sent 0; 1 never sent (interrupted)\n",
                "nothing was sent: no result line, only the summary")
            #expect(proxy.map { $0.accept() != nil } != false, "the lookup was the proxy route's: \(run.stderr)")
            withExtendedLifetime((proxy, resolver)) {}
        }
    }
}
