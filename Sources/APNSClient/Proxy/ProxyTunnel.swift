import APNSCore
import APNSPlatform

/// Asks a connected proxy for a tunnel to the APNs host: the phase between connect and the TLS
/// handshake. It runs a `ProxyHandshake` over the socket with `poll`, bounded by the timeout and
/// abandoned when the interrupt descriptor becomes readable, like the other phases.
enum ProxyTunnel {
    /// Asks `proxy`, already connected on `socket` (the connection phases reach it like any host), for a
    /// tunnel to `endpoint` within `timeout` seconds. Returns what the proxy said (`HTTP/1.1 200 Connection
    /// established`, `SOCKS5 CONNECT succeeded`); afterwards the next byte on `socket` belongs to the APNs server.
    /// For `socks5://`, `resolver` looks the APNs host up first, within the same `timeout`.
    static func establish(
        _ proxy: ProxyServer, over socket: Socket, to endpoint: PushEndpoint, timeout: Double,
        interruptFD: Int32?, using resolver: NameLookup
    ) throws(TransportFailure) -> String {
        let start = SystemClock.monotonicNanoseconds()
        let deadline = start + UInt64(max(0, timeout) * 1e9)
        var handshake: any ProxyHandshake
        switch proxy.kind {
        case .http:
            handshake = HTTPConnectHandshake(proxy: proxy, host: endpoint.host, port: endpoint.port)
        case .socks5h:
            handshake = SOCKS5Handshake(proxy: proxy, destination: .name(endpoint.host), port: endpoint.port)
        case .socks5:
            // curl's socks5://: the name is resolved here and the first address goes to the proxy. Bounded and
            // given way to a signal like every other lookup: getaddrinfo alone has neither.
            let addresses: [SocketAddress]
            do {
                addresses = try Socket.lookUp(
                    host: endpoint.host, port: endpoint.port, deadline: deadline, timeout: timeout,
                    interruptFD: interruptFD, using: resolver)
            } catch .interrupted {
                throw .interrupted
            } catch {
                throw .connect(error)
            }
            guard let first = addresses.first else {
                throw .connect(.resolve(host: endpoint.host, failure: .noAddress))
            }
            handshake = SOCKS5Handshake(proxy: proxy, destination: .address(first.ipBytes), port: endpoint.port)
        }
        return try run(
            &handshake, on: socket, proxy: proxy, deadline: deadline, timeout: timeout, interruptFD: interruptFD)
    }

    /// Moves the handshake's bytes until it says the tunnel is open or failed.
    static func run(
        _ handshake: inout any ProxyHandshake, on socket: Socket, proxy: ProxyServer, deadline: UInt64,
        timeout: Double, interruptFD: Int32?
    ) throws(TransportFailure) -> String {
        var pending = ArraySlice(handshake.start())
        while true {
            if !pending.isEmpty {
                switch socket.send(pending) {
                case .bytes(let n):
                    pending = pending.dropFirst(n)
                    continue
                case .wouldBlock: break
                case .closed: throw .proxy(.closed(proxy: proxy.display, during: handshake.waitingFor))
                case .failed(let why): throw .proxy(.io(proxy: proxy.display, reason: why))
                }
            } else {
                let (step, bytes) = socket.receive(limit: 4096)
                socket.requestQuickAck()
                switch step {
                case .bytes:
                    switch handshake.receive(bytes) {
                    case .needMore: break
                    case .send(let more): pending = ArraySlice(more)
                    case .established(let detail): return detail
                    case .failed(let failure): throw .proxy(failure)
                    }
                    continue
                case .wouldBlock: break
                case .closed: throw .proxy(.closed(proxy: proxy.display, during: handshake.waitingFor))
                case .failed(let why): throw .proxy(.io(proxy: proxy.display, reason: why))
                }
            }
            let now = SystemClock.monotonicNanoseconds()
            guard now < deadline else { throw .proxy(.timeout(proxy: proxy.display, seconds: timeout)) }
            var poller = PollSet()
            poller.add(socket.fd, pending.isEmpty ? .readable : .writable)
            if poller.wait(until: deadline, interrupt: interruptFD) == .interrupted { throw .interrupted }
        }
    }
}
