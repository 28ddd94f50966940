import APNSCore
import APNSCrypto
import APNSHTTP2
import APNSPlatform

/// Facts about an open connection, for `--verbose`.
public struct ConnectionInfo: Sendable {
    public let endpoint: PushEndpoint
    public let tlsVersion: String
    public let cipher: String
    public let alpn: String
    public let connectMs: Double
    public let handshakeMs: Double
    /// The handshake resumed the session of an earlier connection of the run.
    public var resumed = false
    /// The proxy the connection went through (no password); nil when direct. `connectMs` is then the
    /// TCP connect to the proxy.
    public var proxy: ProxyServer? = nil
    /// How long the proxy took to open the tunnel (CONNECT or SOCKS5 exchange).
    public var tunnelMs: Double? = nil
    /// What the proxy answered (`HTTP/1.1 200 Connection established`).
    public var proxyAnswer: String? = nil
}

/// One TLS connection carrying one HTTP/2 client session: the sender's unit of reconnecting. It moves
/// bytes between the socket and the session and says what happened; what that means for each request
/// is the state machine's business.
///
/// The rule that keeps answers from being lost: a failed write only stops the writing. Reading goes on
/// until the server's data ends, so answers that arrived before a reset or a close are still taken.
public final class PushConnection {
    /// What one `pump` saw.
    enum Outcome: Equatable {
        /// Bytes moved; the session may have events.
        case progressed
        /// Writing failed (the peer closed or reset); reading goes on.
        case writeFailed
        /// Nothing happened before the deadline.
        case timedOut
        /// A signal arrived (the interrupt descriptor is readable).
        case interrupted
        /// The connection is over, and everything that arrived on it was fed to the session.
        case ended(ConnectionEnd)
    }

    private let tls: TLSConnection
    private let session: HTTP2ClientSession
    let info: ConnectionInfo
    private var writing = true
    private var writeBlocked = false
    private var mayHaveMore = false
    private var readBuffer = [UInt8](repeating: 0, count: 32 * 1024)
    private var reportedLimit: UInt32? = nil
    /// Through a proxy: acknowledge at once. Proxies such as tinyproxy leave Nagle's algorithm on, so
    /// each small segment they relay waits for the ACK of the one before; with our ACKs delayed that
    /// cost 40 ms per exchange (a first answer in 44 ms instead of 1 ms, measured with tinyproxy).
    private let quickAck: Bool

    init(tls: TLSConnection, session: HTTP2ClientSession, info: ConnectionInfo) {
        self.tls = tls
        self.session = session
        self.info = info
        quickAck = info.proxy != nil
    }

    /// Connects (racing the host's addresses; with `proxy`, to the proxy, then through its tunnel),
    /// handshakes (ALPN `h2` required, SNI and verification for the APNs host even inside a tunnel) and
    /// queues the HTTP/2 preface: the phases of `PushConnection+Phases` in one go. The lookup and the
    /// connect share one `timeout`; the tunnel (a `socks5://` proxy's lookup of the APNs host included) and the
    /// handshake get their own; every step is abandoned
    /// when `interruptFD` becomes readable. `resolver` looks host names up.
    static func open(
        endpoint: PushEndpoint, proxy: ProxyServer? = nil, context: TLSContext, resuming session: TLSSession? = nil,
        timeout: Double, interruptFD: Int32?, using resolver: NameLookup
    ) throws(TransportFailure) -> sending PushConnection {
        let deadline = SystemClock.monotonicNanoseconds() + UInt64(max(0, timeout) * 1e9)
        let resolved: ResolvedHost
        let connected: ConnectedSocket
        do {
            resolved = try resolve(
                host: proxy?.host ?? endpoint.host, port: proxy?.port ?? endpoint.port, timeout: timeout,
                deadline: deadline, interruptFD: interruptFD, using: resolver)
            connected = try connect(resolved, timeout: timeout, deadline: deadline, interruptFD: interruptFD)
        } catch {
            if case .interrupted = error { throw .interrupted }
            if let proxy { throw .proxy(.unreachable(proxy: proxy.display, error)) }
            throw .connect(error)
        }
        let tunnel = try proxy.map { (p) throws(TransportFailure) in
            try Self.tunnel(
                through: p, on: connected, to: endpoint, timeout: timeout, interruptFD: interruptFD, using: resolver)
        }
        let tls = try startTLS(on: connected.socket, for: endpoint, context: context, resuming: session)
        let done: Handshake
        do {
            done = try handshake(tls, timeout: timeout, interruptFD: interruptFD, quickAck: proxy != nil)
        } catch .handshakeTimeout(let seconds, _) where proxy != nil {
            throw .handshakeTimeout(seconds: seconds, proxy: proxy?.display)
        }
        return try establish(
            on: tls, handshake: done, endpoint: endpoint,
            connectMs: resolved.milliseconds + connected.milliseconds, tunnel: tunnel)
    }

    /// The session the next connection to the same endpoint may resume, when the server gave one.
    var resumableSession: TLSSession? { tls.resumableSession }

    /// Queues `request` as a new stream; returns its id.
    func submit(_ request: APNSRequest) throws(TransportFailure) -> Int32 {
        do {
            return try session.submitRequest(
                method: request.method, authority: info.endpoint.authority, path: request.path,
                headers: request.headers, body: request.body)
        } catch {
            throw .protocolError(HTTP2Violation(error))
        }
    }

    /// Writes what is queued, waits for the server until `deadline` (monotonic ns) or a signal on
    /// `interruptFD`, and reads one chunk into the session. One chunk at a time lets the sender take
    /// answers and refill streams in between, keeping both ends busy instead of taking turns.
    func pump(deadline: UInt64, interruptFD: Int32?) -> Outcome {
        if writing {
            switch flush() {
            case .done: writeBlocked = false
            case .blocked: writeBlocked = true
            case .failed:
                writing = false
                return .writeFailed
            }
        }
        if !mayHaveMore && tls.pendingBytes == 0 {
            guard SystemClock.monotonicNanoseconds() < deadline else { return .timedOut }
            var poller = PollSet()
            poller.add(tls.socket.fd, interest)
            switch poller.wait(until: deadline, interrupt: interruptFD) {
            case .interrupted: return .interrupted
            case .deadline: return .timedOut
            case .ready:
                // Writable only (or a poll that failed and reported nothing): flush on the next turn.
                if !poller.events(at: 0).readableOrClosed { return .progressed }
            }
        }
        return readOnce()
    }

    /// Pumps several connections at once (one draining after GOAWAY, its successor sending): writes what
    /// each has queued, waits on all of them until `deadline` or a signal, and reads one chunk from each
    /// that is readable. Returns one outcome per connection, or nil when a signal arrived.
    /// `wakeFDs` end the wait too (a connection opened in the background).
    static func pump(_ connections: [PushConnection], deadline: UInt64, interruptFD: Int32?, wakeFDs: [Int32] = [])
        -> [Outcome]?
    {
        var outcomes = [Outcome](repeating: .timedOut, count: connections.count)
        var readable = [Bool](repeating: false, count: connections.count)
        var mustPoll = true
        for (i, c) in connections.enumerated() {
            if c.writing {
                switch c.flush() {
                case .done: c.writeBlocked = false
                case .blocked: c.writeBlocked = true
                case .failed:
                    c.writing = false
                    outcomes[i] = .writeFailed
                }
            }
            if c.mayHaveMore || c.tls.pendingBytes > 0 {
                readable[i] = true
                mustPoll = false
            }
        }
        if outcomes.contains(.writeFailed) { return outcomes }
        if mustPoll {
            guard SystemClock.monotonicNanoseconds() < deadline else { return outcomes }
            var poller = PollSet()
            for c in connections { poller.add(c.tls.socket.fd, c.interest) }
            for fd in wakeFDs { poller.add(fd, .readable) }
            switch poller.wait(until: deadline, interrupt: interruptFD) {
            case .interrupted: return nil
            case .deadline: return outcomes
            case .ready:
                let anything = (0..<poller.count).contains { poller.events(at: $0).any }
                for i in connections.indices {
                    let events = poller.events(at: i)
                    if events.readableOrClosed {
                        readable[i] = true
                    }
                    // Writable only, or a poll that failed and reported nothing: flush on the next turn.
                    else if events.any || !anything {
                        outcomes[i] = .progressed
                    }
                }
            }
        }
        for i in connections.indices where readable[i] { outcomes[i] = connections[i].readOnce() }
        return outcomes
    }

    /// What the socket is polled for: answers always, room to write while writing is blocked.
    private var interest: PollInterest { writing && writeBlocked ? [.readable, .writable] : .readable }

    /// Events the session recorded since the last call.
    func takeEvents() -> [HTTP2ClientEvent] { session.takeEvents() }

    /// Streams whose request was completely written since the last call.
    func takeWrittenRequests() -> [Int32] { session.takeWrittenRequests() }

    /// The server's stream limit when it arrived or changed since the last call.
    func takeStreamLimitChange() -> UInt32? {
        guard session.receivedServerSettings else { return nil }
        let limit = session.serverMaxConcurrentStreams
        guard limit != reportedLimit else { return nil }
        reportedLimit = limit
        return limit
    }

    /// Sends GOAWAY and close_notify, best effort, without waiting.
    func close() {
        session.terminate()
        if writing { _ = flush() }
        tls.shutdown()
    }

    // MARK: - Bytes

    private enum FlushOutcome { case done, blocked, failed }

    /// Writes queued frames until done or the socket is full. An nghttp2 failure while producing them stops
    /// the writing as a failed write does: reading goes on, so answers already on their way are still taken.
    private func flush() -> FlushOutcome {
        switch HTTP2Pump.flush(session, to: tls) {
        case .done: return .done
        case .blocked: return .blocked
        case .failed, .outputFailed: return .failed
        }
    }

    private func readOnce() -> Outcome {
        let read = HTTP2Pump.read(from: tls, into: session, buffer: &readBuffer)
        // After every read, application data or not: TLS 1.3 session tickets arrive first and yield no bytes.
        if quickAck { tls.socket.requestQuickAck() }
        switch read {
        case .failed(let e):
            return .ended(.failed(e.description))
        case .rejected(let e):
            return .ended(.protocolError(HTTP2Violation(e)))
        case .received:
            mayHaveMore = true
            return sessionEnd() ?? .progressed
        case .wouldBlock:
            mayHaveMore = false
            return sessionEnd() ?? .progressed
        case .closed:
            switch tls.peerClose {
            case .closeNotify?: return .ended(.closedCleanly)
            case .reset?: return .ended(.reset)
            case .alert(let text)?: return .ended(.alert(text))
            case .eofWithoutCloseNotify?, nil: return .ended(.eofWithoutCloseNotify)
            }
        }
    }

    /// The HTTP/2 session is over by itself: it broke off after a protocol error, or finished after GOAWAY.
    private func sessionEnd() -> Outcome? {
        guard !session.wantsRead && !session.wantsWrite && !session.hasPendingOutput else { return nil }
        if let code = session.protocolErrorSent {
            return .ended(.protocolError(.goAwaySent(code: code)))
        }
        return .ended(.sessionFinished)
    }
}
