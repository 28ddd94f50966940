import APNSCore
import APNSCrypto
import APNSHTTP2
import APNSPlatform
// Still calls poll(2) and read(2) with C types until it moves to PollSet (issue 19, branch mockfsm);
// allowlisted in SourceTreeRulesTests. No other file outside APNSPlatform imports the C library.
#if canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#else
import Glibc
#endif

/// One client connection of the mock: a non-blocking TLS handshake, then HTTP/2 (or the HTTP/1.1-only fault),
/// driven by its event loop whenever its socket is ready. Nothing here blocks, so a slow or silent client
/// only ever costs its own connection.
final class MockConnection {
    enum Phase: Equatable {
        case handshaking
        case http2
        case http1
        /// Flushing what is queued, then ending the way `CloseMode` says.
        case closing(CloseMode)
        case closed
    }

    /// How a closing connection ends once its queued bytes are written.
    enum CloseMode: Equatable {
        /// TLS close_notify and FIN, then discard what the peer still sends until it closes (bounded): the
        /// normal end (after GOAWAY, or when the client left). Closing at once with unread bytes would make the
        /// kernel send RST and drop answers still on their way, which the log already counts as answered.
        case graceful
        /// FIN without close_notify, then close (the close fault; unread bytes make the kernel send RST).
        case abrupt
        /// Wait until the peer acknowledged every byte (at most `terminalWaitMilliseconds`), then RST.
        case reset
        /// FIN without close_notify, then discard what the peer still sends until it closes (bounded), then close.
        case endOfFile
    }

    /// The longest the reset and EOF faults wait for the peer (its ACKs, or its close).
    static let terminalWaitMilliseconds: UInt64 = 2000

    /// 1-based, in accept order across the server (the log's `connection`).
    let number: Int
    let tls: TLSConnection
    let shared: MockServerShared
    /// Whether the configured faults apply to this connection.
    let faulty: Bool
    let handshakeDeadline: UInt64
    /// Set at the handshake, cleared by the first whole request: a client that never asks is closed then.
    var firstRequestDeadline: UInt64?

    var phase: Phase = .handshaking
    var session: HTTP2ServerSession?
    var auth = ConnectionAuthState(certificate: nil)
    /// Encrypted-side output waiting for the socket: `out[outOffset...]`.
    var out: [UInt8] = []
    var outOffset = 0
    /// The last TLS step wanted the socket writable (a blocked write, or a handshake/read needing it).
    var needsWritable = false
    /// Answers sent on this connection (for the GOAWAY and close faults).
    var answered = 0
    /// The last-stream-id of the GOAWAY this connection sent (fault or `errorCloseAfter`): later streams are refused.
    var goAwayLastStream: Int32?
    /// Error answers so far, as `errorCloseAfter` counts them.
    var errorWeight = 0
    /// When the reset and EOF faults stop waiting for the peer.
    var terminalDeadline: UInt64 = 0
    /// The EOF fault has sent its FIN.
    var sentFIN = false

    static let outputHighWater = 256 * 1024

    init(number: Int, tls: TLSConnection, shared: MockServerShared, faulty: Bool, now: UInt64) {
        self.number = number
        self.tls = tls
        self.shared = shared
        self.faulty = faulty
        self.handshakeDeadline = now + UInt64(max(1, shared.configuration.handshakeTimeoutMilliseconds)) * 1_000_000
    }

    var fd: Int32 { tls.socket.fd }
    var isClosed: Bool { phase == .closed }
    /// Bytes produced but not yet accepted by the socket. (`flush` drains nghttp2 until the socket blocks,
    /// so nghttp2's own queue never needs a writable wake-up of its own.)
    var hasPendingOutput: Bool { outOffset < out.count }

    /// The poll events this connection waits for.
    var pollEvents: Int16 {
        switch phase {
        case .closed: return 0
        case .handshaking: return needsWritable ? Poll.writable : Poll.readable
        case .closing(let mode):
            if hasPendingOutput { return Poll.writable }
            // The reset fault waits for ACKs by timer; after a FIN, what the peer still sends is read and dropped.
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
        if revents & Int16(POLLNVAL) != 0 { close(); return }
        switch phase {
        case .closed: return
        case .handshaking: advanceHandshake(context: context)
        case .http2, .http1:
            readAvailable(context: context)
            flush()
        case .closing(let mode):
            let gone = revents & (Int16(POLLHUP) | Int16(POLLERR)) != 0
            // The reset fault waits for ACKs by timer; a peer that is already gone would wake the loop for nothing.
            if mode == .reset && gone { close(reset: true); return }
            if mode == .endOfFile || mode == .graceful, sentFIN, gone || revents & Poll.readable != 0 { discardIncoming() }
            flush()
        }
        finishIfDone()
    }

    /// The next moment `checkDeadlines` has something to do, if any.
    var nextDeadline: UInt64? {
        switch phase {
        case .handshaking: return handshakeDeadline
        case .http2: return firstRequestDeadline
        case .closing(.reset) where !hasPendingOutput:
            // Re-check the peer's ACKs every few milliseconds.
            return min(terminalDeadline, SystemClock.monotonicNanoseconds() + 5_000_000)
        case .closing(.endOfFile), .closing(.graceful): return sentFIN ? terminalDeadline : nil
        default: return nil
        }
    }

    /// Closes a connection that has not finished its handshake in time, and says GOAWAY `{"reason":"IdleTimeout"}`
    /// to one that has sent no request in time: silent clients must not hold descriptors for ever.
    func checkDeadlines(now: UInt64, context: LoopContext) {
        switch phase {
        case .handshaking:
            if now >= handshakeDeadline { close() }
        case .http2:
            guard let deadline = firstRequestDeadline, now >= deadline, let session else { return }
            firstRequestDeadline = nil
            session.goAway(lastStreamID: session.lastProcessedStreamID, code: .noError,
                           debugData: Self.goAwayData(.idleTimeout))
            session.produceOutput(into: &out, limit: Int.max)
            beginClosing(.graceful)
            flush()
            finishIfDone()
        case .closing:
            finishIfDone()
        default:
            break
        }
    }

    // MARK: Handshake

    func advanceHandshake(context: LoopContext) {
        let step: TLSStep
        do { step = try tls.handshakeStep() } catch { close(); return }
        switch step {
        case .wantRead: needsWritable = false
        case .wantWrite: needsWritable = true
        case .closed: close()
        case .bytes:
            needsWritable = false
            established(context: context)
        }
    }

    private func established(context: LoopContext) {
        if faulty && shared.configuration.faults.http1Only {
            phase = .http1
            readAvailable(context: context)
            flush()
            return
        }
        if let certificate = tls.peerCertificate {
            auth = ConnectionAuthState(certificate: shared.describe(certificate, trusted: tls.clientCertificateTrusted))
        }
        // A token connection gets a single stream until its first good token (APNS.md §6).
        let limit: UInt32 = auth.kind == .certificate ? shared.configuration.maxConcurrentStreams : 1
        do {
            session = try HTTP2ServerSession(settings: HTTP2ServerSettings(maxConcurrentStreams: limit))
        } catch {
            close()
            return
        }
        phase = .http2
        firstRequestDeadline = SystemClock.monotonicNanoseconds()
            + UInt64(max(1, shared.configuration.firstRequestTimeoutMilliseconds)) * 1_000_000
        if faulty, shared.configuration.faults.goAwayAfterStreams == 0 {
            sendFaultGoAway(lastStream: 0)
        }
        if faulty, let mode = shared.configuration.faults.terminalClose(afterAnswers: 0) {
            endAfterAnswers(mode)
            return
        }
        readAvailable(context: context)
        flush()
    }

    // MARK: Reading

    /// Reads until the socket has nothing more (or a fair share was read), handing bytes to HTTP/2.
    func readAvailable(context: LoopContext) {
        var rounds = 0
        while rounds < 16, phase == .http2 || phase == .http1, out.count - outOffset < Self.outputHighWater {
            rounds += 1
            let step: TLSStep
            do {
                step = try context.readBuffer.withUnsafeMutableBytes { try tls.read(into: $0) }
            } catch {
                close()
                return
            }
            switch step {
            case .wantRead:
                return
            case .wantWrite:
                needsWritable = true
                return
            case .closed:
                beginClosing(.graceful)
                return
            case .bytes(let n):
                if phase == .http1 { answerHTTP1(); return }
                guard let session else { return }
                do {
                    try context.readBuffer.withUnsafeBytes { try session.receive(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                } catch {
                    // Protocol violation or too many streams: the GOAWAY (if any) is queued; send it and close.
                    answer(session.takeRequests(), context: context)
                    beginClosing(.graceful)
                    return
                }
                answer(session.takeRequests(), context: context)
            }
        }
    }

    /// The HTTP/1.1-only fault: whatever the client sent, an HTTP/1.1 error, then close.
    private func answerHTTP1() {
        out.append(contentsOf: Array("HTTP/1.1 505 HTTP Version Not Supported\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".utf8))
        beginClosing(.graceful)
    }

    // MARK: Writing

    /// Moves queued frames to the socket until it would block.
    func flush() {
        while phase != .closed {
            if outOffset >= out.count {
                out.removeAll(keepingCapacity: true)
                outOffset = 0
                if let session, phase == .http2 || phase == .closing(.graceful) {
                    session.produceOutput(into: &out, limit: 64 * 1024)
                }
                if out.isEmpty { needsWritable = false; return }
            }
            let step: TLSStep
            do {
                step = try out.withUnsafeBytes { try tls.write(UnsafeRawBufferPointer(rebasing: $0[outOffset...])) }
            } catch {
                close()
                return
            }
            switch step {
            case .bytes(let n): outOffset += n
            case .wantWrite, .wantRead:
                needsWritable = true
                return
            case .closed:
                close()
                return
            }
        }
    }

    /// Closes once a closing connection has flushed (the way its mode says), or an HTTP/2 session has nothing
    /// left to do.
    func finishIfDone() {
        switch phase {
        case .closing(let mode):
            // `flush` ran just before: an empty buffer means nothing more will come.
            guard outOffset >= out.count else { return }
            switch mode {
            case .graceful:
                if !sentFIN {
                    tls.shutdown()
                    sendFINAndDrain()
                }
                if phase != .closed && SystemClock.monotonicNanoseconds() >= terminalDeadline { close() }
            case .abrupt:
                close()
            case .reset:
                if tls.socket.unacknowledgedByteCount == 0 || SystemClock.monotonicNanoseconds() >= terminalDeadline {
                    close(reset: true)
                }
            case .endOfFile:
                if !sentFIN { sendFINAndDrain() }
                if phase != .closed && SystemClock.monotonicNanoseconds() >= terminalDeadline { close() }
            }
        case .http2:
            if let session, session.isFinished, outOffset >= out.count {
                beginClosing(.graceful)
                finishIfDone()
            }
        default:
            break
        }
    }

    func beginClosing(_ mode: CloseMode) {
        if phase != .closed { phase = .closing(mode) }
    }

    /// The reset and EOF faults: whatever answers are queued go out, nothing more is answered or read into
    /// HTTP/2, and the connection ends as `mode` says once they are written.
    func endAfterAnswers(_ mode: CloseMode) {
        session?.produceOutput(into: &out, limit: Int.max)
        terminalDeadline = SystemClock.monotonicNanoseconds() + Self.terminalWaitMilliseconds * 1_000_000
        beginClosing(mode)
        flush()
        finishIfDone()
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
        while phase != .closed {
            let n = scratch.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n > 0 { continue }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
            close()
        }
    }

    /// Starts a graceful stop: GOAWAY `{"reason":"Shutdown"}`, open streams still answered.
    func beginShutdown() {
        switch phase {
        case .http2:
            if let session, !session.goAwaySubmitted {
                session.goAway(debugData: Self.goAwayData(.shutdown))
            }
            flush()
            finishIfDone()
        case .handshaking, .http1:
            close()
        case .closing, .closed:
            break
        }
    }

    /// Ends the connection; `reset` makes the kernel send RST instead of FIN.
    func close(reset: Bool = false) {
        guard phase != .closed else { return }
        phase = .closed
        // The descriptor itself is closed when the last reference to the socket goes (this loop turn); shut it
        // down now so the peer sees the end at once, or arm the RST that closing it will send.
        if reset { tls.socket.setResetOnClose() } else { tls.socket.shutdownSending(reading: true) }
        session = nil
    }
}
