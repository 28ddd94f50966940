import APNSCore
import APNSPlatform
internal import COpenSSL

/// The outcome of one non-blocking TLS step.
public enum TLSStep: Equatable, Sendable {
    /// Bytes moved (read or written).
    case bytes(Int)
    /// Call again when the socket is readable.
    case wantRead
    /// Call again when the socket is writable.
    case wantWrite
    /// The peer closed the connection cleanly (close_notify) or the TCP stream ended.
    case closed
}

/// How the peer ended a connection after the handshake, known once a read or write returned `.closed`.
/// A sender needs the difference: a drop is retried, an alert (TLS 1.3 refuses a client certificate
/// after the handshake) is a refusal.
public enum TLSPeerClose: Equatable, Sendable {
    /// close_notify arrived.
    case closeNotify
    /// The TCP stream ended without close_notify.
    case eofWithoutCloseNotify
    /// The TCP connection was reset (ECONNRESET, EPIPE).
    case reset
    /// A fatal TLS alert arrived; its readable text, e.g. `tlsv13 alert certificate required`.
    case alert(String)
}

/// An owned `SSL` over a non-blocking socket. Owns the socket too, so one object's life is one connection's.
/// Not `Sendable`: an `SSL*` must not be used by two threads at once, so a connection stays with the one
/// event loop or sender that made it.
public final class TLSConnection {
    let pointer: OpaquePointer
    public let socket: Socket
    private let context: TLSContext
    /// What the client asked to verify, for messages.
    private let peerName: String?
    /// How the peer ended the connection, once `read` or `write` returned `.closed`.
    public private(set) var peerClose: TLSPeerClose? = nil

    private init(pointer: OpaquePointer, socket: Socket, context: TLSContext, peerName: String?) {
        self.pointer = pointer
        self.socket = socket
        self.context = context
        self.peerName = peerName
    }

    deinit { SSL_free(pointer) }

    /// A client connection to `host` (SNI for names; host name or IP checked against the certificate), resuming
    /// `session` when it is an earlier connection's to the same host with the same context (a server that no
    /// longer takes it gets a full handshake).
    public static func client(
        socket: Socket, context: TLSContext, host: String, resuming session: TLSSession? = nil
    ) throws(TLSFailure) -> TLSConnection {
        guard let ssl = SSL_new(context.pointer) else {
            throw .configuration(OpenSSLError("creating a TLS connection").description)
        }
        let conn = TLSConnection(pointer: ssl, socket: socket, context: context, peerName: host)
        guard SSL_set_fd(ssl, socket.fd) == 1 else {
            throw .configuration(OpenSSLError("attaching TLS to the socket").description)
        }
        if Self.isIPLiteral(host) {
            guard let param = SSL_get0_param(ssl), X509_VERIFY_PARAM_set1_ip_asc(param, host) == 1 else {
                throw .configuration(OpenSSLError("setting the IP address to verify").description)
            }
        } else {
            _ = COpenSSL_SSL_set_tlsext_host_name(ssl, host)
            guard SSL_set1_host(ssl, host) == 1 else {
                throw .configuration(OpenSSLError("setting the host name to verify").description)
            }
        }
        // A session that cannot be set is no failure: the handshake is then a full one.
        if let session, SSL_set_session(ssl, session.pointer) != 1 { ERR_clear_error() }
        SSL_set_connect_state(ssl)
        return conn
    }

    /// This connection's session, for the next connection to resume; nil when the server gave none that can be
    /// resumed (no ticket yet: TLS 1.3 sends them after the handshake, read with the first answers).
    public var resumableSession: TLSSession? {
        guard let session = SSL_get1_session(pointer) else { return nil }
        guard SSL_SESSION_is_resumable(session) == 1 else {
            SSL_SESSION_free(session)
            return nil
        }
        return TLSSession(takingOwnership: session)
    }

    /// The handshake resumed an earlier session.
    public var resumed: Bool { SSL_session_reused(pointer) == 1 }

    /// A server connection on an accepted socket.
    public static func server(socket: Socket, context: TLSContext) throws(TLSFailure) -> TLSConnection {
        guard let ssl = SSL_new(context.pointer) else {
            throw .configuration(OpenSSLError("creating a TLS connection").description)
        }
        let conn = TLSConnection(pointer: ssl, socket: socket, context: context, peerName: nil)
        guard SSL_set_fd(ssl, socket.fd) == 1 else {
            throw .configuration(OpenSSLError("attaching TLS to the socket").description)
        }
        SSL_set_accept_state(ssl)
        return conn
    }

    /// One non-blocking handshake step: `.bytes(0)` when done.
    public func handshakeStep() throws(TLSFailure) -> TLSStep {
        ERR_clear_error()
        let rc = SSL_do_handshake(pointer)
        if rc == 1 { return .bytes(0) }
        switch SSL_get_error(pointer, rc) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        default:
            let verify = SSL_get_verify_result(pointer)
            if !context.isServer && verify != X509_V_OK {
                var text = String(cString: X509_verify_cert_error_string(verify))
                if verify == X509_V_ERR_HOSTNAME_MISMATCH || verify == X509_V_ERR_IP_ADDRESS_MISMATCH,
                    let name = peerName
                {
                    // What it is for says which name --endpoint should have used.
                    let names = presentedChain.first?.serverNames() ?? []
                    text +=
                        names.isEmpty
                        ? " (the certificate is not for \(name))"
                        : " (the certificate is for \(names.joined(separator: ", ")), not for \(name))"
                }
                // A certificate refused for its dates: which one, and its dates, so the user can tell a clock that is
                // wrong from a server whose certificate has lapsed.
                if verify == X509_V_ERR_CERT_HAS_EXPIRED || verify == X509_V_ERR_CERT_NOT_YET_VALID {
                    let now = SystemClock.now()
                    if let lapsed = presentedChain.first(where: { now > $0.notAfter || now < $0.notBefore }) {
                        let name = lapsed.info.commonName.map { "the certificate of \($0)" } ?? "the certificate"
                        text +=
                            " (\(name) is valid from \(ISO8601.format(epochSeconds: lapsed.notBefore)) to "
                            + "\(ISO8601.format(epochSeconds: lapsed.notAfter)))"
                    }
                }
                let issuerUnknown = [
                    X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
                    X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
                ].contains(Int32(verify))
                if issuerUnknown, let trust = context.systemTrust {
                    text += "; searched \(trust.description)" + (trust.advice.map { "; \($0)" } ?? "")
                }
                // The file the user gave holds another CA: which one the server's chain wants, so they can find it.
                if issuerUnknown, let caFile = context.caFile {
                    let issuer = presentedChain.last.flatMap { Self.commonName(of: $0.issuerEntries) }
                    text +=
                        "; the CA file \(ShellWord.of(caFile)) does not hold "
                        + (issuer.map { "the CA that issued it (\($0))" } ?? "the CA that issued it")
                }
                ERR_clear_error()
                throw .verification(text)
            }
            let errnoValue = SystemError.code
            let error = OpenSSLError("handshake")
            // A server that takes ALPN but none of our protocols alerts instead of choosing one: said as the server
            // that did not agree to HTTP/2, not in OpenSSL's words.
            if error.entries.contains(where: { $0.reason == SSL_R_TLSV1_ALERT_NO_APPLICATION_PROTOCOL }) {
                throw .noHTTP2(selected: nil)
            }
            throw .handshake(Self.describe(error, errnoValue: errnoValue))
        }
    }

    /// Reads decrypted bytes into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TLSFailure) -> TLSStep {
        ERR_clear_error()
        let n = SSL_read(pointer, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if n > 0 { return .bytes(Int(n)) }
        return try classify(n, operation: "reading")
    }

    /// Encrypts and writes bytes (possibly partially).
    public func write(_ buffer: UnsafeRawBufferPointer) throws(TLSFailure) -> TLSStep {
        guard buffer.count > 0 else { return .bytes(0) }
        ERR_clear_error()
        let n = SSL_write(pointer, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if n > 0 { return .bytes(Int(n)) }
        return try classify(n, operation: "writing")
    }

    /// Decrypted bytes already buffered inside OpenSSL (poll will not report them).
    public var pendingBytes: Int { Int(SSL_pending(pointer)) }

    private func classify(_ rc: Int32, operation: String) throws(TLSFailure) -> TLSStep {
        let e = SystemError.code
        switch SSL_get_error(pointer, rc) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN:
            peerClose = .closeNotify
            return .closed
        case SSL_ERROR_SYSCALL:
            let err = OpenSSLError(operation)
            if err.entries.isEmpty && (e == 0 || SystemError.isConnectionGone(e)) {
                // TLS 1.3 rejects a missing client certificate after the handshake: one more read surfaces the alert.
                peerClose = e == 0 ? .eofWithoutCloseNotify : .reset
                return .closed
            }
            throw .io("\(operation) failed: \(Self.describe(err, errnoValue: e))")
        case SSL_ERROR_SSL:
            let err = OpenSSLError(operation)
            if err.has(reason: SSL_R_UNEXPECTED_EOF_WHILE_READING) {
                peerClose = .eofWithoutCloseNotify
                return .closed
            }
            if err.mentions("alert") {
                peerClose = .alert(Self.describe(err, errnoValue: e))
                return .closed
            }
            throw .io("\(operation) failed: \(Self.describe(err, errnoValue: e))")
        default:
            throw .io("\(operation) failed: \(Self.describe(OpenSSLError(operation), errnoValue: e))")
        }
    }

    /// Sends close_notify if the handshake finished (best effort, non-blocking).
    public func shutdown() {
        if SSL_is_init_finished(pointer) == 1 { _ = SSL_shutdown(pointer) }
        ERR_clear_error()
    }

    /// The ALPN protocol agreed, e.g. `h2`; nil when the peer used none.
    public var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>? = nil
        var len: UInt32 = 0
        SSL_get0_alpn_selected(pointer, &data, &len)
        guard let data, len > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(len)), as: UTF8.self)
    }

    /// `TLSv1.3` etc.
    public var protocolVersion: String { String(cString: SSL_get_version(pointer)) }

    /// The negotiated cipher suite name.
    public var cipherName: String {
        guard let c = SSL_get_current_cipher(pointer) else { return "none" }
        return String(cString: SSL_CIPHER_get_name(c))
    }

    /// The certificate the peer presented, if any.
    public var peerCertificate: X509Certificate? {
        guard let x = SSL_get1_peer_certificate(pointer) else { return nil }
        return X509Certificate(takingOwnership: x)
    }

    /// The chain the server presented, leaf first, as it arrived: still readable after its verification
    /// failed, so a message can name who issued it (Apple's chain, or an intercepting proxy's).
    public var presentedChain: [X509Certificate] { Self.certificates(in: SSL_get_peer_cert_chain(pointer)) }

    /// The chain OpenSSL verified, leaf first and the trust anchor last; empty when nothing was verified
    /// (`--insecure`, or a failed handshake).
    public var verifiedChain: [X509Certificate] {
        guard SSL_get_verify_result(pointer) == X509_V_OK else { return [] }
        return Self.certificates(in: SSL_get0_verified_chain(pointer))
    }

    /// Owned copies of a borrowed stack's certificates.
    private static func certificates(in stack: OpaquePointer?) -> [X509Certificate] {
        guard let stack else { return [] }
        var out: [X509Certificate] = []
        for i in 0..<max(0, COpenSSL_sk_X509_num(stack)) {
            guard let x = COpenSSL_sk_X509_value(stack, i) else { continue }
            X509_up_ref(x)
            out.append(X509Certificate(takingOwnership: x))
        }
        return out
    }

    /// Server side: whether the client's certificate chained to the configured client CA.
    public var clientCertificateTrusted: Bool { SSL_get_verify_result(pointer) == X509_V_OK }

    /// A name's CN (the last, as the most specific), else the whole name as `C=…, O=…`; nil for an empty name.
    private static func commonName(of entries: [X509Certificate.NameEntry]) -> String? {
        if let cn = entries.last(where: { $0.name == "CN" }) { return PrintableText.escapingControls(cn.value) }
        let whole = entries.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        return whole.isEmpty ? nil : PrintableText.escapingControls(whole)
    }

    private static func describe(_ error: OpenSSLError, errnoValue: Int32) -> String {
        if let last = error.entries.last {
            // "error:0A000410:SSL routines::sslv3 alert handshake failure" -> the readable tail.
            let parts = last.text.split(separator: ":", omittingEmptySubsequences: false)
            return parts.last.map { String($0) }.flatMap { $0.isEmpty ? nil : $0 } ?? last.text
        }
        if errnoValue != 0 { return FileSystem.errnoText(errnoValue) }
        return "the connection was closed during the handshake"
    }

    private static func isIPLiteral(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0 == "." || ($0.isASCII && $0.isNumber) })
    }
}
