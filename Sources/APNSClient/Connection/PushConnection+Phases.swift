import APNSCore
import APNSCrypto
import APNSHTTP2
import APNSPlatform

/// Opening a connection, one phase at a time, each with a typed result and its timing: `send` runs them in
/// one go (`PushConnection.open`), `apnsctl doctor` one by one, reporting each. Nothing connects differently
/// in the two: the same lookup, the same RFC 8305 race, the same tunnel and the same handshake.
extension PushConnection {
    /// Phase 1: the addresses of the host to connect to (Apple's, the endpoint's, or the proxy's).
    public struct ResolvedHost: Sendable {
        public let host: String
        public let port: Int
        /// In the resolver's order; the race interleaves the families.
        public let addresses: [SocketAddress]
        public let milliseconds: Double
    }

    /// Phase 2: a TCP connection to one of those addresses.
    public struct ConnectedSocket: Sendable {
        public let socket: Socket
        /// The host connected to, as resolved.
        public let host: String
        public let port: Int
        public let milliseconds: Double

        /// The address that won the race (`17.188.143.34`); asked of the kernel only when wanted, so `send`
        /// pays nothing for it.
        public var address: String { socket.peerNumericHost ?? host }
    }

    /// Phase 3 (only with a proxy): the tunnel through it.
    public struct OpenedTunnel: Sendable {
        public let proxy: ProxyServer
        /// What the proxy answered (`HTTP/1.1 200 Connection established`).
        public let answer: String
        public let milliseconds: Double
    }

    /// Phase 4: the TLS handshake's outcome. The presented and verified chains are on the `TLSConnection`.
    public struct Handshake: Sendable {
        public let version: String
        public let cipher: String
        /// The protocol the server chose by ALPN; `h2` is required (checked when the connection is made).
        public let alpn: String?
        public let milliseconds: Double
        /// An earlier connection's session was resumed (no certificates exchanged).
        public var resumed = false
    }

    /// Looks `host` up with `resolver` within `deadline` (monotonic ns; `timeout` names it in messages).
    public static func resolve(
        host: String, port: Int, timeout: Double, deadline: UInt64,
        interruptFD: Int32?, using resolver: NameLookup
    ) throws(SocketError) -> ResolvedHost {
        let t0 = SystemClock.monotonicNanoseconds()
        let addresses = try Socket.lookUp(
            host: host, port: port, deadline: deadline, timeout: timeout, interruptFD: interruptFD, using: resolver)
        return ResolvedHost(host: host, port: port, addresses: addresses, milliseconds: milliseconds(since: t0))
    }

    /// Races the resolved addresses (RFC 8305: families interleaved, a new attempt every 250 ms) until one
    /// connects or `deadline` passes.
    public static func connect(
        _ resolved: ResolvedHost, timeout: Double, deadline: UInt64,
        interruptFD: Int32?
    ) throws(SocketError) -> ConnectedSocket {
        let t0 = SystemClock.monotonicNanoseconds()
        let socket = try Socket.connect(
            to: AddressRacer.interleaved(resolved.addresses, isIPv6: \.isIPv6), host: resolved.host,
            port: resolved.port, timeout: timeout, deadline: deadline, interruptFD: interruptFD)
        return ConnectedSocket(
            socket: socket, host: resolved.host, port: resolved.port, milliseconds: milliseconds(since: t0))
    }

    /// Asks the proxy connected on `connected` for a tunnel to `endpoint`, within `timeout` (`resolver` looks the
    /// endpoint up for a `socks5://` proxy, which takes an address).
    public static func tunnel(
        through proxy: ProxyServer, on connected: ConnectedSocket, to endpoint: PushEndpoint,
        timeout: Double, interruptFD: Int32?, using resolver: NameLookup
    ) throws(TransportFailure) -> OpenedTunnel {
        let t0 = SystemClock.monotonicNanoseconds()
        let answer = try ProxyTunnel.establish(
            proxy, over: connected.socket, to: endpoint, timeout: timeout, interruptFD: interruptFD, using: resolver)
        return OpenedTunnel(proxy: proxy, answer: answer, milliseconds: milliseconds(since: t0))
    }

    /// The TLS client for `endpoint` on `socket` (SNI and verification for the endpoint's host, even
    /// inside a tunnel); `handshake` runs it.
    public static func startTLS(
        on socket: Socket, for endpoint: PushEndpoint, context: TLSContext, resuming session: TLSSession? = nil
    ) throws(TransportFailure) -> TLSConnection {
        do {
            return try TLSConnection.client(socket: socket, context: context, host: endpoint.host, resuming: session)
        } catch {
            throw .tls(error)
        }
    }

    /// The TLS handshake (ALPN offered: `h2`), waiting on the socket and the interrupt descriptor, within
    /// `timeout`. `quickAck` through a proxy (see `PushConnection.quickAck`).
    public static func handshake(
        _ tls: TLSConnection, timeout: Double, interruptFD: Int32?,
        quickAck: Bool
    ) throws(TransportFailure) -> Handshake {
        let t0 = SystemClock.monotonicNanoseconds()
        let deadline = t0 + UInt64(max(0, timeout) * 1e9)
        while true {
            let step: TLSStep
            do { step = try tls.handshakeStep() } catch { throw .tls(error) }
            if quickAck { tls.socket.requestQuickAck() }
            let interest: PollInterest
            switch step {
            case .bytes:
                return Handshake(
                    version: tls.protocolVersion, cipher: tls.cipherName, alpn: tls.negotiatedProtocol,
                    milliseconds: milliseconds(since: t0), resumed: tls.resumed)
            case .wantRead: interest = .readable
            case .wantWrite: interest = .writable
            case .closed: throw .tls(.handshake("the server closed the connection"))
            }
            guard SystemClock.monotonicNanoseconds() < deadline else { throw .handshakeTimeout(seconds: timeout) }
            var poller = PollSet()
            poller.add(tls.socket.fd, interest)
            if poller.wait(until: deadline, interrupt: interruptFD) == .interrupted { throw .interrupted }
        }
    }

    /// Phase 5: the HTTP/2 client session on a finished handshake (ALPN `h2` required), its preface queued.
    /// `connectMs` is the lookup and connect together (to the proxy, with one), as `--verbose` shows it.
    public static func establish(
        on tls: sending TLSConnection, handshake: Handshake, endpoint: PushEndpoint, connectMs: Double,
        tunnel: OpenedTunnel?
    ) throws(TransportFailure) -> sending PushConnection {
        guard handshake.alpn == "h2" else { throw .tls(.noHTTP2(selected: handshake.alpn)) }
        let session: HTTP2ClientSession
        do { session = try HTTP2ClientSession(assumedPeerConcurrency: 1) } catch {
            throw .protocolError(HTTP2Violation(error))
        }
        var info = ConnectionInfo(
            endpoint: endpoint, tlsVersion: handshake.version, cipher: handshake.cipher, alpn: "h2",
            connectMs: connectMs, handshakeMs: handshake.milliseconds, resumed: handshake.resumed)
        if let tunnel {
            info.proxy = tunnel.proxy
            info.tunnelMs = tunnel.milliseconds
            info.proxyAnswer = tunnel.answer
        }
        return PushConnection(tls: tls, session: session, info: info)
    }

    private static func milliseconds(since start: UInt64) -> Double {
        Double(SystemClock.monotonicNanoseconds() - start) / 1e6
    }
}
