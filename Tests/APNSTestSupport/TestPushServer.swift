import APNSCore
import APNSCrypto
import APNSHTTP2
import Foundation

/// A small APNs-like HTTP/2 server inside the test process that can misbehave on purpose: GOAWAY
/// after N answers, close the connection after N answers, never answer, or speak HTTP/1.1 only.
/// It counts what it answered per device, so tests can prove nothing answered was sent twice.
public final class TestPushServer: @unchecked Sendable {
    /// How a connection misbehaves.
    public enum Fault: Sendable {
        case none
        /// Answer N requests, then (at the next request) GOAWAY with the Nth as last stream, and close;
        /// later streams stay unanswered.
        case goAwayAfter(Int)
        /// Answer N requests, then (at the next request) close the TCP connection without GOAWAY.
        case closeAfter(Int)
        /// Accept requests, never answer.
        case silent
        /// Select http/1.1 by ALPN and close.
        case http1Only
    }

    /// What the server does.
    public struct Configuration: Sendable {
        public var fault: Fault = .none
        /// Faults apply to the first N connections only (later ones behave).
        public var faultyConnections = Int.max
        public var maxConcurrentStreams: UInt32 = 1000
        /// Device hex → reason to answer with (status from the reason).
        public var rejections: [String: APNSReason] = [:]
        /// Debug data of the fault's GOAWAY.
        public var goAwayDebugData = "{\"reason\":\"Shutdown\"}"
        public init() {}
    }

    public let port: Int
    private let configuration: Configuration
    private let context: TLSContext
    private let listener: Socket
    private let lock = Lock()
    private var running = true
    private var answers: [String: Int] = [:]
    private var requests = 0
    private var connectionCount = 0
    private let finished = DispatchSemaphore(value: 0)

    /// Starts listening on 127.0.0.1 (port 0) and serving on a thread of its own.
    public init(credentials: TestCredentials, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        ProcessSignals.ignoreBrokenPipe()  // a client that goes away must not kill the test process
        let http1: Bool
        if case .http1Only = configuration.fault { http1 = true } else { http1 = false }
        context = try TLSContext.server(certificate: credentials.server.certificate, key: credentials.server.privateKey,
                                        chain: [], clientCA: credentials.ca.certificate, speakHTTP1Only: http1)
        listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = listener.localPort
        Thread.detachNewThread { [self] in
            serve()
            finished.signal()
        }
    }

    /// `https://127.0.0.1:PORT`.
    public var endpoint: String { "https://127.0.0.1:\(port)" }

    /// Stops serving and waits for the thread.
    public func stop() {
        lock.lock()
        let wasRunning = running
        running = false
        lock.unlock()
        if wasRunning { finished.wait() }
    }

    deinit { stop() }

    /// How many times `device` was answered.
    public func answerCount(_ device: String) -> Int { lock.lock(); defer { lock.unlock() }; return answers[device] ?? 0 }
    /// Every answered device with its count.
    public var answeredDevices: [String: Int] { lock.lock(); defer { lock.unlock() }; return answers }
    /// Requests received (answered or not).
    public var requestCount: Int { lock.lock(); defer { lock.unlock() }; return requests }
    /// Connections accepted.
    public var connections: Int { lock.lock(); defer { lock.unlock() }; return connectionCount }

    private var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }

    /// One accepted connection's state.
    private final class Connection {
        let tls: TLSConnection
        let faulty: Bool
        var session: HTTP2ServerSession?
        var out: [UInt8] = []
        var answered = 0
        var lastAnswered: Int32 = 0
        var stopAnswering = false
        var closeAt: UInt64? = nil
        var dead = false
        init(tls: TLSConnection, faulty: Bool) { self.tls = tls; self.faulty = faulty }
    }

    private func serve() {
        var conns: [Connection] = []
        var buffer = [UInt8](repeating: 0, count: 32 * 1024)
        while isRunning {
            var fds = [pollfd(fd: listener.fd, events: Poll.readable, revents: 0)]
            fds += conns.map { pollfd(fd: $0.tls.socket.fd, events: Poll.readable | ($0.out.isEmpty ? 0 : Poll.writable), revents: 0) }
            _ = Poll.wait(&fds, timeoutMs: 20)
            while let s = listener.accept() {
                lock.lock()
                connectionCount += 1
                let faulty = connectionCount <= configuration.faultyConnections
                lock.unlock()
                if let tls = try? TLSConnection.server(socket: s, context: context) {
                    conns.append(Connection(tls: tls, faulty: faulty))
                }
            }
            for c in conns { step(c, &buffer) }
            conns.removeAll { $0.dead }
        }
        for c in conns { c.tls.shutdown() }
    }

    private func step(_ c: Connection, _ buffer: inout [UInt8]) {
        if c.session == nil {
            guard let s = try? c.tls.handshakeStep() else { c.dead = true; return }
            guard case .bytes = s else { return }
            if case .http1Only = configuration.fault, c.faulty { c.dead = true; return }
            var settings = HTTP2ServerSettings()
            settings.maxConcurrentStreams = configuration.maxConcurrentStreams
            c.session = try? HTTP2ServerSession(settings: settings)
            if c.session == nil { c.dead = true; return }
        }
        guard let session = c.session else { return }
        while true {
            let r = buffer.withUnsafeMutableBytes { try? c.tls.read(into: $0) }
            guard let r else { c.dead = true; return }
            if case .bytes(let n) = r {
                if c.closeAt != nil { continue }  // draining before a close
                let ok = buffer.withUnsafeBytes { p -> Bool in
                    (try? session.receive(UnsafeRawBufferPointer(rebasing: p[0..<n]))) != nil
                }
                if !ok { c.dead = true; return }
                continue
            }
            if case .closed = r { c.dead = true; return }
            break
        }
        for request in session.takeRequests() { handle(request, on: c, session: session) }
        session.produceOutput(into: &c.out)
        while !c.out.isEmpty {
            let w = c.out.withUnsafeBytes { try? c.tls.write($0) }
            guard case .bytes(let n)? = w, n > 0 else { break }
            c.out.removeFirst(n)
        }
        if let at = c.closeAt, c.out.isEmpty, SystemClock.monotonicNanoseconds() >= at {
            c.dead = true
        }
    }

    private func handle(_ request: HTTP2ServerRequest, on c: Connection, session: HTTP2ServerSession) {
        let path = request.headers.value(of: ":path") ?? ""
        let device = path.hasPrefix("/3/device/") ? String(path.dropFirst("/3/device/".count)) : path
        lock.lock()
        requests += 1
        lock.unlock()
        if c.stopAnswering { return }
        if c.faulty {
            switch configuration.fault {
            case .silent:
                return
            case .goAwayAfter(let n) where c.answered >= n:
                session.goAway(lastStreamID: c.lastAnswered, code: .noError, debugData: Array(configuration.goAwayDebugData.utf8))
                c.stopAnswering = true
                c.closeAt = SystemClock.monotonicNanoseconds() + 300_000_000
                return
            case .closeAfter(let n) where c.answered >= n:
                c.stopAnswering = true
                c.closeAt = SystemClock.monotonicNanoseconds() + 300_000_000
                return
            default:
                break
            }
        }
        let apnsID = request.headers.value(of: "apns-id") ?? UUIDString.random()
        if let reason = configuration.rejections[device] {
            var body = "{\"reason\":\"\(reason.rawValue)\""
            if reason.status == 410 { body += ",\"timestamp\":1762166400000" }
            body += "}"
            try? session.respond(streamID: request.streamID, status: reason.status,
                                 headers: [HTTP2Header("apns-id", apnsID), HTTP2Header("content-type", "application/json")],
                                 body: Array(body.utf8))
        } else {
            try? session.respond(streamID: request.streamID, status: 200,
                                 headers: [HTTP2Header("apns-id", apnsID), HTTP2Header("apns-unique-id", UUIDString.random().lowercased())])
        }
        lock.lock()
        answers[device, default: 0] += 1
        lock.unlock()
        c.answered += 1
        c.lastAnswered = request.streamID
    }
}
