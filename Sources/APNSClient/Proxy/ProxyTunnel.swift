import APNSCore
import APNSPlatform

/// Opens a TCP connection to a proxy and asks it for a tunnel to the APNs host: the phase between
/// connect and the TLS handshake. It runs a `ProxyHandshake` over the socket with `poll`, bounded by
/// the timeout and abandoned when the interrupt descriptor becomes readable, like the other phases.
/// What comes back is a socket on which the next byte belongs to the APNs server.
enum ProxyTunnel {
    /// The open tunnel and how long each step took.
    struct Opened {
        let socket: Socket
        let connectMs: Double
        let tunnelMs: Double
        /// What the proxy said (`HTTP/1.1 200 Connection established`, `SOCKS5 CONNECT succeeded`).
        let detail: String
    }

    /// Connects to `proxy` (RFC 8305 racing, as for a direct connection) and opens a tunnel to
    /// `endpoint`; each step gets `timeout` seconds.
    static func open(_ proxy: ProxyServer, to endpoint: PushEndpoint, timeout: Double,
                     interruptFD: Int32?) throws(TransportFailure) -> Opened {
        let t0 = SystemClock.monotonicNanoseconds()
        let socket: Socket
        do { socket = try Socket.connect(host: proxy.host, port: proxy.port, timeout: timeout, interruptFD: interruptFD) }
        catch {
            if case .interrupted = error { throw .interrupted }
            throw .proxy(.unreachable(proxy: proxy.display, error))
        }
        let t1 = SystemClock.monotonicNanoseconds()
        var handshake: any ProxyHandshake
        switch proxy.kind {
        case .http:
            handshake = HTTPConnectHandshake(proxy: proxy, host: endpoint.host, port: endpoint.port)
        case .socks5h:
            handshake = SOCKS5Handshake(proxy: proxy, destination: .name(endpoint.host), port: endpoint.port)
        case .socks5:
            // curl's socks5://: the name is resolved here and the first address goes to the proxy.
            let addresses: [SocketAddress]
            do { addresses = try Socket.resolveAll(host: endpoint.host, port: endpoint.port) } catch { throw .connect(error) }
            guard let first = addresses.first else {
                throw .connect(.resolve(host: endpoint.host, reason: "no address"))
            }
            handshake = SOCKS5Handshake(proxy: proxy, destination: .address(first.ipBytes), port: endpoint.port)
        }
        let detail = try run(&handshake, on: socket, proxy: proxy,
                             deadline: t1 + UInt64(max(0, timeout) * 1e9), timeout: timeout, interruptFD: interruptFD)
        let t2 = SystemClock.monotonicNanoseconds()
        return Opened(socket: socket, connectMs: Double(t1 - t0) / 1e6, tunnelMs: Double(t2 - t1) / 1e6, detail: detail)
    }

    /// Moves the handshake's bytes until it says the tunnel is open or failed.
    static func run(_ handshake: inout any ProxyHandshake, on socket: Socket, proxy: ProxyServer, deadline: UInt64,
                    timeout: Double, interruptFD: Int32?) throws(TransportFailure) -> String {
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
            var fds = [pollfd(fd: socket.fd, events: pending.isEmpty ? Poll.readable : Poll.writable, revents: 0)]
            if let interruptFD { fds.append(pollfd(fd: interruptFD, events: Poll.readable, revents: 0)) }
            _ = Poll.wait(&fds, timeoutMs: Int32(min(UInt64(Int32.max), (deadline - now) / 1_000_000 + 1)))
            if fds.count > 1 && fds[1].revents != 0 { throw .interrupted }
        }
    }
}
