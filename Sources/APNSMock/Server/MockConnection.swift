import APNSCore
import APNSCrypto
import APNSHTTP2

/// One client connection of the mock: a non-blocking TLS handshake, then HTTP/2 (or the HTTP/1.1-only fault),
/// driven by its event loop whenever its socket is ready. Nothing here blocks, so a slow or silent client
/// only ever costs its own connection.
final class MockConnection {
    enum Phase: Equatable {
        case handshaking
        case http2
        case http1
        /// Flushing what is queued, then closing (gracefully, or abruptly for the close fault).
        case closing(abrupt: Bool)
        case closed
    }

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
    /// Last stream answered before the GOAWAY fault; later streams are left unanswered.
    var goAwayLastStream: Int32?

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
        case .closing: return Poll.writable
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
        case .closing: flush()
        }
        finishIfDone()
    }

    /// The next moment `checkDeadlines` has something to do, if any.
    var nextDeadline: UInt64? {
        switch phase {
        case .handshaking: return handshakeDeadline
        case .http2: return firstRequestDeadline
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
                           debugData: Array(#"{"reason":"IdleTimeout"}"#.utf8))
            session.produceOutput(into: &out, limit: Int.max)
            beginClosing(abrupt: false)
            flush()
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
        if faulty, shared.configuration.faults.goAwayAfterStreams == 0 { sendFaultGoAway(lastStream: 0) }
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
                beginClosing(abrupt: false)
                return
            case .bytes(let n):
                if phase == .http1 { answerHTTP1(); return }
                guard let session else { return }
                do {
                    try context.readBuffer.withUnsafeBytes { try session.receive(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                } catch {
                    // Protocol violation or too many streams: the GOAWAY (if any) is queued; send it and close.
                    answer(session.takeRequests(), context: context)
                    beginClosing(abrupt: false)
                    return
                }
                answer(session.takeRequests(), context: context)
            }
        }
    }

    /// The HTTP/1.1-only fault: whatever the client sent, an HTTP/1.1 error, then close.
    private func answerHTTP1() {
        out.append(contentsOf: Array("HTTP/1.1 505 HTTP Version Not Supported\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".utf8))
        beginClosing(abrupt: false)
    }

    // MARK: Writing

    /// Moves queued frames to the socket until it would block.
    func flush() {
        while phase != .closed {
            if outOffset >= out.count {
                out.removeAll(keepingCapacity: true)
                outOffset = 0
                if let session, phase == .http2 || phase == .closing(abrupt: false) {
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

    /// Closes once a closing connection has flushed, or an HTTP/2 session has nothing left to do.
    func finishIfDone() {
        switch phase {
        case .closing(let abrupt):
            // `flush` ran just before: an empty buffer means nothing more will come.
            if outOffset >= out.count {
                if !abrupt { tls.shutdown() }
                close()
            }
        case .http2:
            if let session, session.isFinished, outOffset >= out.count { tls.shutdown(); close() }
        default:
            break
        }
    }

    func beginClosing(abrupt: Bool) {
        if phase != .closed { phase = .closing(abrupt: abrupt) }
    }

    /// Starts a graceful stop: GOAWAY `{"reason":"Shutdown"}`, open streams still answered.
    func beginShutdown() {
        switch phase {
        case .http2:
            if let session, !session.goAwaySubmitted {
                session.goAway(debugData: Array(#"{"reason":"Shutdown"}"#.utf8))
            }
            flush()
            finishIfDone()
        case .handshaking, .http1:
            close()
        case .closing, .closed:
            break
        }
    }

    func close() {
        guard phase != .closed else { return }
        phase = .closed
        // The descriptor itself is closed when the last reference to the socket goes; shut it down now
        // so the peer sees the end at once.
        _ = shutdown(fd, Int32(SHUT_RDWR))
        session = nil
    }
}
