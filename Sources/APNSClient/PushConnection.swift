import APNSCore
import APNSCrypto
import APNSHTTP2

/// Facts about an open connection, for `--verbose`.
public struct ConnectionInfo: Sendable {
    public let endpoint: PushEndpoint
    public let tlsVersion: String
    public let cipher: String
    public let alpn: String
    public let connectMs: Double
    public let handshakeMs: Double
}

/// One TLS connection carrying one HTTP/2 client session: the sender's unit of reconnecting.
/// It moves bytes between the socket and the session and reports what the session saw.
final class PushConnection {
    let tls: TLSConnection
    let session: HTTP2ClientSession
    let info: ConnectionInfo

    private init(tls: TLSConnection, session: HTTP2ClientSession, info: ConnectionInfo) {
        self.tls = tls
        self.session = session
        self.info = info
    }

    /// Connects, handshakes (ALPN `h2` required) and queues the HTTP/2 preface, each step bounded by `timeout`.
    static func open(endpoint: PushEndpoint, context: TLSContext, timeout: Double) throws(TransportFailure) -> PushConnection {
        let t0 = SystemClock.monotonicNanoseconds()
        let socket: Socket
        do { socket = try Socket.connect(host: endpoint.host, port: endpoint.port, timeout: timeout) }
        catch { throw .connect(error) }
        let t1 = SystemClock.monotonicNanoseconds()
        let tls: TLSConnection
        do {
            tls = try TLSConnection.client(socket: socket, context: context, host: endpoint.host)
            try tls.handshake(timeoutMs: Int32(clamping: Int64(timeout * 1000)))
        } catch {
            throw .tls(error)
        }
        let t2 = SystemClock.monotonicNanoseconds()
        let alpn = tls.negotiatedProtocol
        guard alpn == "h2" else { throw .tls(.noHTTP2(selected: alpn)) }
        let session: HTTP2ClientSession
        do { session = try HTTP2ClientSession(assumedPeerConcurrency: 1) }
        catch { throw .protocolError(error.description) }
        let info = ConnectionInfo(endpoint: endpoint, tlsVersion: tls.protocolVersion, cipher: tls.cipherName, alpn: "h2",
                                  connectMs: Double(t1 - t0) / 1e6, handshakeMs: Double(t2 - t1) / 1e6)
        return PushConnection(tls: tls, session: session, info: info)
    }

    var fd: Int32 { tls.socket.fd }

    /// Writes queued frames until done or the socket is full; true when bytes are still waiting.
    func flush() throws(TransportFailure) -> Bool {
        while true {
            if !session.hasPendingOutput {
                let more: Bool
                do { more = try session.prepareOutput() } catch { throw .protocolError(error.description) }
                if !more { return false }
            }
            var blocked = false
            var peerClosed = false
            do {
                try session.withPendingOutput { (bytes) throws(TLSFailure) -> Int in
                    switch try tls.write(bytes) {
                    case .bytes(let n): return n
                    case .wantRead, .wantWrite: blocked = true; return 0
                    case .closed: peerClosed = true; return 0
                    }
                }
            } catch {
                throw closedFailure(error.description)
            }
            if peerClosed { throw closedFailure("the server closed the connection") }
            if blocked { return true }
        }
    }

    /// Reads everything available into the session. Returns false when the server closed the connection.
    func readAvailable(into buffer: inout [UInt8]) throws(TransportFailure) -> Bool {
        while true {
            let read: Result<TLSStep, TLSFailure> = buffer.withUnsafeMutableBytes { p in
                do throws(TLSFailure) { return .success(try tls.read(into: p)) } catch { return .failure(error) }
            }
            let step: TLSStep
            switch read {
            case .success(let s): step = s
            case .failure(let e): throw closedFailure(e.description)
            }
            switch step {
            case .bytes(let n):
                let fed: Result<Void, NGHTTP2Error> = buffer.withUnsafeBytes { p in
                    do throws(NGHTTP2Error) { return .success(try session.receive(UnsafeRawBufferPointer(rebasing: p[0..<n]))) }
                    catch { return .failure(error) }
                }
                if case .failure(let e) = fed { throw .protocolError(e.description) }
            case .wantRead, .wantWrite:
                return true
            case .closed:
                return false
            }
        }
    }

    /// A dropped connection, explained by the TLS alert when there is one (TLS 1.3 reports a refused
    /// client certificate only after the handshake) or by the GOAWAY the server sent.
    func closedFailure(_ fallback: String) -> TransportFailure {
        if let alert = tls.drainAlert() {
            return .tls(.handshake("the server ended the connection: \(alert)" + Self.advice(for: alert)))
        }
        if let g = session.receivedGoAway {
            return .closed("the server closed the connection (GOAWAY \(g.errorName)\(APNSErrorBody.explanation(of: g.debugData).map { ": " + $0 } ?? ""))")
        }
        return .closed(fallback)
    }

    private static func advice(for alert: String) -> String {
        if alert.contains("certificate required") || alert.contains("handshake failure") || alert.contains("bad certificate")
            || alert.contains("unknown ca") {
            return "; the server wants a client certificate it trusts: check --cert/--key, or use --auth-key"
        }
        return ""
    }

    /// Sends GOAWAY and close_notify, best effort, without waiting.
    func close() {
        session.terminate()
        _ = try? flush()
        tls.shutdown()
    }
}
