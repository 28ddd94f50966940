import APNSCore
import APNSCrypto
import APNSHTTP2
import APNSPlatform

/// One client connection of the mock, driven by its event loop whenever its socket is ready: a non-blocking
/// TLS handshake, then HTTP/2 (or the HTTP/1.1-only fault). It moves bytes and applies what
/// `MockConnectionStateMachine` decides; nothing here blocks, so a slow or silent client only ever costs its
/// own connection.
final class MockConnection {
    typealias Machine = MockConnectionStateMachine

    /// The longest the close modes wait for the peer (its ACKs before a reset, or its close after our FIN).
    static let terminalWaitMilliseconds: UInt64 = 2000

    /// 1-based, in accept order across the server (the log's `connection`).
    let number: Int
    let tls: TLSConnection
    let shared: MockServerShared
    var machine: Machine

    var session: HTTP2ServerSession?
    var auth = ConnectionAuthState(certificate: nil)
    /// Encrypted-side output waiting for the socket: `out[outOffset...]`.
    var out: [UInt8] = []
    var outOffset = 0
    /// The last TLS step wanted the socket writable (a blocked write, or a handshake/read needing it).
    var needsWritable = false
    /// When the reset and EOF modes (and a graceful end's drain) stop waiting for the peer; 0: not started.
    var terminalDeadline: UInt64 = 0
    /// The FIN of a graceful or EOF end is sent.
    var sentFIN = false
    /// The socket was shut down (or armed for RST) by `end`.
    private var ended = false

    static let outputHighWater = 256 * 1024

    init(number: Int, tls: TLSConnection, shared: MockServerShared, faulty: Bool, now: UInt64) {
        self.number = number
        self.tls = tls
        self.shared = shared
        let c = shared.configuration
        machine = Machine(policy: Machine.Policy(
            faults: faulty ? c.faults : .none, errorCloseAfter: c.errorCloseAfter,
            handshakeTimeoutNs: UInt64(max(1, c.handshakeTimeoutMilliseconds)) * 1_000_000,
            idleTimeoutNs: UInt64(max(1, c.firstRequestTimeoutMilliseconds)) * 1_000_000,
            maxConcurrentStreams: c.maxConcurrentStreams), now: now)
    }

    var fd: Int32 { tls.socket.fd }
    var isClosed: Bool { machine.phase == .closed }
    /// Bytes produced but not yet accepted by the socket. (`flush` drains nghttp2 until the socket blocks,
    /// so nghttp2's own queue never needs a writable wake-up of its own.)
    var hasPendingOutput: Bool { outOffset < out.count }

    /// The poll events this connection waits for.
    var pollEvents: Int16 {
        switch machine.phase {
        case .closed: return 0
        case .handshaking: return needsWritable ? Poll.writable : Poll.readable
        case .closing(let mode):
            if hasPendingOutput { return Poll.writable }
            // The reset mode waits for ACKs by timer; after a FIN, what the peer still sends is read and dropped.
            return mode == .endOfFile || mode == .graceful ? Poll.readable : 0
        case .http1, .http2:
            var events: Int16 = 0
            if out.count - outOffset < Self.outputHighWater { events |= Poll.readable }
            if needsWritable || hasPendingOutput { events |= Poll.writable }
            return events
        }
    }

    /// Does whatever the socket allows now.
    func service(revents: Int16, context: LoopContext) {
        if revents & Int16(POLLNVAL) != 0 { apply(machine.connectionFailed(), context: context); return }
        switch machine.phase {
        case .closed: return
        case .handshaking: advanceHandshake(context: context)
        case .http2, .http1:
            readAvailable(context: context)
            flush(context: context)
        case .closing(let mode):
            let gone = revents & (Int16(POLLHUP) | Int16(POLLERR)) != 0
            // The reset mode waits for ACKs by timer; a peer that is already gone would wake the loop for nothing.
            if mode == .reset && gone { end(reset: true); return }
            if mode == .endOfFile || mode == .graceful, sentFIN, gone || revents & Poll.readable != 0 { discardIncoming() }
            flush(context: context)
        }
        finishIfDone(context: context)
    }

    /// The next moment `checkDeadlines` has something to do, if any.
    var nextDeadline: UInt64? {
        switch machine.phase {
        case .closing(.reset) where !hasPendingOutput:
            // Re-check the peer's ACKs every few milliseconds.
            return min(terminalDeadline, SystemClock.monotonicNanoseconds() + 5_000_000)
        case .closing(.endOfFile), .closing(.graceful): return sentFIN ? terminalDeadline : nil
        default: return machine.wakeAt
        }
    }

    /// Tells the machine the time (its handshake and idle timeouts), and ends a close that waited long enough.
    func checkDeadlines(now: UInt64, context: LoopContext) {
        if case .closing = machine.phase {
            finishIfDone(context: context)
            return
        }
        let actions = machine.timePassed(now: now)
        guard !actions.isEmpty else { return }
        apply(actions, context: context)
        flush(context: context)
        finishIfDone(context: context)
    }

    /// Starts a graceful stop: GOAWAY `{"reason":"Shutdown"}`, open streams still answered.
    func beginShutdown(context: LoopContext) {
        apply(machine.shutdown(), context: context)
        flush(context: context)
        finishIfDone(context: context)
    }

    // MARK: Handshake

    func advanceHandshake(context: LoopContext) {
        let step: TLSStep
        do { step = try tls.handshakeStep() } catch { apply(machine.connectionFailed(), context: context); return }
        switch step {
        case .wantRead: needsWritable = false
        case .wantWrite: needsWritable = true
        case .closed: apply(machine.connectionFailed(), context: context)
        case .bytes:
            needsWritable = false
            established(context: context)
        }
    }

    private func established(context: LoopContext) {
        var credentials = Machine.Credentials.token
        if let certificate = tls.peerCertificate {
            let presented = shared.describe(certificate, trusted: tls.clientCertificateTrusted)
            auth = ConnectionAuthState(certificate: presented)
            let accepted = presented.trusted && presented.environments.contains(shared.configuration.rules.environment)
            credentials = .certificate(refused: !accepted)
        }
        apply(machine.handshakeFinished(credentials, now: SystemClock.monotonicNanoseconds()), context: context)
        if machine.readsRequests { readAvailable(context: context) }
        flush(context: context)
        finishIfDone(context: context)
    }

    // MARK: Reading

    /// Reads until the socket has nothing more (or a fair share was read), handing bytes to HTTP/2.
    func readAvailable(context: LoopContext) {
        var rounds = 0
        while rounds < 16, machine.readsRequests, out.count - outOffset < Self.outputHighWater {
            rounds += 1
            let step: TLSStep
            do {
                step = try context.readBuffer.withUnsafeMutableBytes { try tls.read(into: $0) }
            } catch {
                apply(machine.connectionFailed(), context: context)
                return
            }
            switch step {
            case .wantRead:
                return
            case .wantWrite:
                needsWritable = true
                return
            case .closed:
                apply(machine.clientClosed(), context: context)
                return
            case .bytes(let n):
                guard let session else {
                    apply(machine.http1BytesReceived(), context: context)
                    return
                }
                do {
                    try context.readBuffer.withUnsafeBytes { try session.receive(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                } catch {
                    // Protocol violation or too many streams: the GOAWAY (if any) is queued; send it and close.
                    answer(session.takeRequests(), context: context)
                    apply(machine.sessionFailed(), context: context)
                    return
                }
                answer(session.takeRequests(), context: context)
            }
        }
    }

    // MARK: Writing

    /// Moves queued frames to the socket until it would block.
    func flush(context: LoopContext) {
        while machine.phase != .closed {
            if outOffset >= out.count {
                out.removeAll(keepingCapacity: true)
                outOffset = 0
                if let session, machine.phase == .http2 || machine.phase == .closing(.graceful) {
                    produceOutput(session, limit: 64 * 1024, context: context)
                }
                if out.isEmpty { needsWritable = false; return }
            }
            let step: TLSStep
            do {
                step = try out.withUnsafeBytes { try tls.write(UnsafeRawBufferPointer(rebasing: $0[outOffset...])) }
            } catch {
                apply(machine.connectionFailed(), context: context)
                return
            }
            switch step {
            case .bytes(let n): outOffset += n
            case .wantWrite, .wantRead:
                needsWritable = true
                return
            case .closed:
                apply(machine.connectionFailed(), context: context)
                return
            }
        }
    }

    /// Appends the session's frames to `out`, up to `limit` bytes queued; an nghttp2 failure ends the connection
    /// as a protocol error does (what was produced still goes out).
    private func produceOutput(_ session: HTTP2ServerSession, limit: Int, context: LoopContext) {
        do { try session.produceOutput(into: &out, limit: limit) } catch {
            self.session = nil
            apply(machine.sessionFailed(), context: context)
        }
    }

    /// Closes once a closing connection has flushed (the way its mode says), or an HTTP/2 session has nothing
    /// left to do.
    func finishIfDone(context: LoopContext) {
        switch machine.phase {
        case .closing(let mode):
            // `flush` ran just before: an empty buffer means nothing more will come.
            guard outOffset >= out.count else { return }
            switch mode {
            case .graceful:
                if !sentFIN {
                    tls.shutdown()
                    sendFINAndDrain()
                }
                if !isClosed && SystemClock.monotonicNanoseconds() >= terminalDeadline { end() }
            case .abrupt:
                end()
            case .reset:
                if tls.socket.unacknowledgedByteCount == 0 || SystemClock.monotonicNanoseconds() >= terminalDeadline {
                    end(reset: true)
                }
            case .endOfFile:
                if !sentFIN { sendFINAndDrain() }
                if !isClosed && SystemClock.monotonicNanoseconds() >= terminalDeadline { end() }
            }
        case .http2:
            if let session, session.isFinished, outOffset >= out.count {
                apply(machine.sessionFinished(), context: context)
                finishIfDone(context: context)
            }
        default:
            break
        }
    }

    /// FIN after everything written (the kernel sends the data first), then the peer's remaining bytes are
    /// read and dropped until it closes or `terminalWaitMilliseconds` pass.
    private func sendFINAndDrain() {
        sentFIN = true
        if terminalDeadline == 0 {
            terminalDeadline = SystemClock.monotonicNanoseconds() + Self.terminalWaitMilliseconds * 1_000_000
        }
        tls.socket.shutdownSending()
        discardIncoming()
    }

    /// After a FIN: reads and drops the raw bytes the peer still sends, closing when it closes,
    /// so that unread bytes never turn the end into a reset.
    private func discardIncoming() {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while !isClosed {
            let n = scratch.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n > 0 { continue }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
            end()
        }
    }

    /// Ends the connection now (the server stops, the loop's drain time is over).
    func close() { end() }

    /// Ends the connection; `reset` makes the kernel send RST instead of FIN.
    func end(reset: Bool = false) {
        machine.closed()
        guard !ended else { return }
        ended = true
        // The descriptor itself is closed when the last reference to the socket goes (this loop turn); shut it
        // down now so the peer sees the end at once, or arm the RST that closing it will send.
        if reset { tls.socket.setResetOnClose() } else { tls.socket.shutdownSending(reading: true) }
        session = nil
    }
}
