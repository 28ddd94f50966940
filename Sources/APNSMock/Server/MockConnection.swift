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
    /// In place of the session under the HTTP/1.1-only fault.
    var http1: HTTP1VersionRefusal?
    var auth = ConnectionAuthState(certificate: nil)
    /// The session failed to produce output, or a close mode took everything it will send: what is pending
    /// still goes out, nothing more is produced.
    var outputSealed = false
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
        machine = Machine(
            policy: Machine.Policy(
                faults: faulty ? c.faults : .none, errorCloseAfter: c.errorCloseAfter,
                handshakeTimeoutNs: UInt64(max(1, c.handshakeTimeoutMilliseconds)) * 1_000_000,
                idleTimeoutNs: UInt64(max(1, c.firstRequestTimeoutMilliseconds)) * 1_000_000,
                maxConcurrentStreams: c.maxConcurrentStreams), now: now)
    }

    var fd: Int32 { tls.socket.fd }
    var isClosed: Bool { machine.phase == .closed }
    /// Bytes produced but not yet accepted by the socket. (`flush` drains nghttp2 until the socket blocks,
    /// so nghttp2's own queue never needs a writable wake-up of its own.)
    var hasPendingOutput: Bool { session?.hasPendingOutput ?? http1?.hasPendingOutput ?? false }
    /// Reading stops while this much output waits for a peer that does not take its answers.
    private var outputBelowHighWater: Bool { (session?.pendingOutputCount ?? 0) < Self.outputHighWater }

    /// What this connection waits for.
    var pollInterest: PollInterest {
        switch machine.phase {
        case .closed: return []
        case .handshaking: return needsWritable ? .writable : .readable
        case .closing(let mode):
            if hasPendingOutput { return .writable }
            // The reset mode waits for ACKs by timer; after a FIN, what the peer still sends is read and dropped.
            return mode == .endOfFile || mode == .graceful ? .readable : []
        case .http1, .http2:
            var interest: PollInterest = []
            if outputBelowHighWater { interest.insert(.readable) }
            if needsWritable || hasPendingOutput { interest.insert(.writable) }
            return interest
        }
    }

    /// Does whatever the socket allows now.
    func service(events: PollEvents, context: LoopContext) {
        if events.contains(.invalid) {
            apply(machine.connectionFailed(), context: context)
            return
        }
        switch machine.phase {
        case .closed: return
        case .handshaking: advanceHandshake(context: context)
        case .http2, .http1:
            readAvailable(context: context)
            flush(context: context)
        case .closing(let mode):
            let gone = !events.isDisjoint(with: [.hangUp, .error])
            // The reset mode waits for ACKs by timer; a peer that is already gone would wake the loop for nothing.
            if mode == .reset && gone {
                end(reset: true)
                return
            }
            if mode == .endOfFile || mode == .graceful, sentFIN, gone || events.contains(.readable) {
                discardIncoming()
            }
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
        do { step = try tls.handshakeStep() } catch {
            apply(machine.connectionFailed(), context: context)
            return
        }
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
        while rounds < 16, machine.readsRequests, outputBelowHighWater {
            rounds += 1
            if let session {
                let turn = readChunk(into: session, context: context)
                guard turn != .stop else { return }
                answer(session.takeRequests(), context: context)
                if turn == .rejected {
                    // Protocol violation or too many streams: the GOAWAY (if any) is queued; send it and close.
                    apply(machine.sessionFailed(), context: context)
                    return
                }
            } else if let http1 {
                if readChunk(into: http1, context: context) == .received {
                    apply(machine.http1BytesReceived(), context: context)
                }
                return
            } else {
                return
            }
        }
    }

    private enum ReadTurn { case received, rejected, stop }

    /// One read into `input` through the pump; the ends it sees go to the machine.
    private func readChunk<I: HTTP2Input>(into input: I, context: LoopContext) -> ReadTurn {
        switch HTTP2Pump.read(from: tls, into: input, buffer: &context.readBuffer) {
        case .received: return .received
        case .rejected: return .rejected
        case .wouldBlock(let wantsWritable):
            if wantsWritable { needsWritable = true }
            return .stop
        case .closed:
            apply(machine.clientClosed(), context: context)
            return .stop
        case .failed:
            apply(machine.connectionFailed(), context: context)
            return .stop
        }
    }

    // MARK: Writing

    /// Moves queued frames to the socket until it would block, after the log lines of what they answer; the
    /// session produces more only while the connection speaks HTTP/2 or ends gracefully.
    func flush(context: LoopContext) {
        guard !isClosed else { return }
        // The log lines of what is about to be answered are written first.
        context.log.commit()
        let result: HTTP2Pump.Flush
        if let session {
            let producing = !outputSealed && (machine.phase == .http2 || machine.phase == .closing(.graceful))
            result = HTTP2Pump.flush(session, to: tls, produce: producing)
        } else if let http1 {
            result = HTTP2Pump.flush(http1, to: tls)
        } else {
            result = .done
        }
        switch result {
        case .done: needsWritable = false
        case .blocked: needsWritable = true
        case .failed: apply(machine.connectionFailed(), context: context)
        case .outputFailed:
            // nghttp2 broke: end as after a protocol error, writing only what was produced before.
            outputSealed = true
            apply(machine.sessionFailed(), context: context)
            flush(context: context)
        }
    }

    /// Closes once a closing connection has flushed (the way its mode says), or an HTTP/2 session has nothing
    /// left to do.
    func finishIfDone(context: LoopContext) {
        switch machine.phase {
        case .closing(let mode):
            // `flush` ran just before: an empty buffer means nothing more will come.
            guard !hasPendingOutput else { return }
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
            if let session, session.isFinished, !session.hasPendingOutput {
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
        while !isClosed {
            switch tls.socket.receive(limit: 4096).0 {
            case .bytes: continue
            case .wouldBlock: return
            case .closed, .failed: end()
            }
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
