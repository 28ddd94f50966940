import APNSCore
import APNSPlatform
internal import COpenSSL

/// Why TLS could not be set up or went wrong; the CLI maps these to exit 69 (transport).
public enum TLSFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Building the context failed (key/cert mismatch, OpenSSL set-up).
    case configuration(String)
    /// The CA file given to verify the server with holds no usable PEM certificate; `reason` is OpenSSL's.
    case caFileUnusable(path: String, reason: String)
    /// The bundle a variable names (`SSL_CERT_FILE`) is missing or holds no usable certificate.
    case trustFileUnusable(variable: String, path: String, reason: String)
    /// The server's certificate did not verify (untrusted, expired, wrong host name): OpenSSL's reason, with
    /// the name that was asked for when it did not match.
    case verification(String)
    /// The handshake failed for another reason (alerts, protocol versions, no ALPN match).
    case handshake(String)
    /// The peer did not agree to HTTP/2.
    case noHTTP2(selected: String?)
    /// Reading or writing after the handshake failed.
    case io(String)
    /// Our certificate, or one of its chain, is refused by this machine's OpenSSL security level: a credential
    /// problem (the CLI's 77), not the network's.
    case weakCertificate(CertificateWeakness)

    public var description: String {
        switch self {
        case .configuration(let m): return m
        case .caFileUnusable(let path, let reason):
            return "\(path): cannot load CA certificates: \(reason); give a PEM file of trusted certificates"
        case .trustFileUnusable(let variable, let path, let reason):
            return
                "\(variable)=\(path): cannot load CA certificates: \(reason); point it at a PEM bundle of trusted certificates, or unset it"
        case .verification(let m): return "server certificate verification failed: \(m)"
        case .handshake(let m): return "TLS handshake failed: \(m)"
        case .noHTTP2(let selected):
            if let s = selected {
                return "the server chose \(s) instead of HTTP/2 (ALPN h2); APNs and apnsctl mock speak HTTP/2 only"
            }
            return "the server did not agree to HTTP/2 (ALPN h2); is this an HTTP/1.1-only server?"
        case .io(let m): return m
        case .weakCertificate(let w): return w.description
        }
    }

}

/// An owned `SSL_CTX`: the TLS settings shared by connections (TLS 1.2+, ALPN h2, trust, our certificate).
public final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Server contexts keep the client-CA here to judge client certificates after the handshake.
    public let isServer: Bool
    /// The system trust store this client context searches (nil: `--ca-file`, `--insecure`, or a server),
    /// named in verification failures.
    let systemTrust: SystemTrust?
    /// The CA file this client context trusts instead (nil: the system store, `--insecure`, or a server), named in
    /// verification failures: "trust the CA that signed it" sends back to the file the user gave.
    let caFile: String?

    private init(pointer: OpaquePointer, isServer: Bool, systemTrust: SystemTrust? = nil, caFile: String? = nil) {
        self.pointer = pointer
        self.isServer = isServer
        self.systemTrust = systemTrust
        self.caFile = caFile
    }

    deinit { SSL_CTX_free(pointer) }

    /// A client context. `caFile` nil: the system trust store, where `systemTrust` says (nil: this process's
    /// plan, `SystemTrust.current()`). `verify` false: `--insecure`.
    /// `certificate`/`key`/`chain`: the client certificate for certificate auth (nil for token auth).
    public static func client(
        caFile: String?, verify: Bool, systemTrust plannedTrust: SystemTrust? = nil,
        certificate: X509Certificate? = nil, key: PrivateKey? = nil,
        chain: [X509Certificate] = []
    ) throws(TLSFailure) -> TLSContext {
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            throw .configuration(OpenSSLError("creating the TLS context").description)
        }
        let systemTrust = caFile == nil && verify ? plannedTrust ?? SystemTrust.current() : nil
        let context = TLSContext(
            pointer: ctx, isServer: false, systemTrust: systemTrust, caFile: verify ? caFile : nil)
        try context.applyCommonSettings()
        if let caFile {
            if SSL_CTX_load_verify_locations(ctx, caFile, nil) != 1 {
                // Read whatever the case, so no error is left queued; it says "no certificate or crl found" for a
                // folder and an empty file alike.
                let openSSL = OpenSSLError("loading").entries.first?.text ?? "not a PEM certificate bundle"
                throw .caFileUnusable(path: caFile, reason: CAFileContents.reason(path: caFile, openSSL: openSSL))
            }
        } else if let systemTrust {
            try context.trust(systemTrust)
        }
        SSL_CTX_set_verify(ctx, verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nil)
        var alpn: [UInt8] = [2, UInt8(ascii: "h"), UInt8(ascii: "2")]
        // Returns 0 on success, the opposite of OpenSSL's usual convention.
        if SSL_CTX_set_alpn_protos(ctx, &alpn, UInt32(alpn.count)) != 0 {
            throw .configuration(OpenSSLError("setting ALPN").description)
        }
        if let certificate, let key {
            try context.use(certificate: certificate, key: key, chain: chain)
        }
        return context
    }

    /// Points verification at the system store as planned: directories by subject hash (nothing is read
    /// until the handshake asks for an issuer), a bundle whole only when the plan names one.
    private func trust(_ plan: SystemTrust) throws(TLSFailure) {
        guard let store = SSL_CTX_get_cert_store(pointer) else {
            throw .configuration(OpenSSLError("reaching the trust store").description)
        }
        if let file = plan.file {
            if X509_STORE_load_file(store, file) != 1 {
                let reason =
                    FileSystem.exists(file)
                    ? CAFileContents.reason(
                        path: file,
                        openSSL: OpenSSLError("loading").entries.first?.text ?? "not a PEM certificate bundle")
                    : "no such file"
                if let variable = plan.fileVariable {
                    throw .trustFileUnusable(variable: variable, path: file, reason: reason)
                }
                ERR_clear_error()  // a system without its default bundle still has its directories
            }
        }
        if !plan.directories.isEmpty {
            guard let lookup = X509_STORE_add_lookup(store, X509_LOOKUP_hash_dir()) else {
                throw .configuration(OpenSSLError("searching the certificate directory").description)
            }
            for dir in plan.directories { _ = COpenSSL_X509_LOOKUP_add_dir(lookup, dir, X509_FILETYPE_PEM) }
        }
    }

    /// A server context presenting `certificate`. With `clientCA`, client certificates are requested (never
    /// required) and checked against it; the verdict is read per connection with `TLSConnection.clientCertificateTrusted`.
    /// `speakHTTP1Only` makes a deliberately wrong server for tests: it selects `http/1.1` by ALPN.
    public static func server(
        certificate: X509Certificate, key: PrivateKey, chain: [X509Certificate] = [],
        clientCA: X509Certificate?, speakHTTP1Only: Bool = false
    ) throws(TLSFailure) -> TLSContext {
        guard let ctx = SSL_CTX_new(TLS_server_method()) else {
            throw .configuration(OpenSSLError("creating the TLS server context").description)
        }
        let context = TLSContext(pointer: ctx, isServer: true)
        try context.applyCommonSettings()
        try context.use(certificate: certificate, key: key, chain: chain)
        var sid: [UInt8] = Array("apnsctl-mock".utf8)
        _ = SSL_CTX_set_session_id_context(ctx, &sid, UInt32(sid.count))
        if let ca = clientCA {
            guard let store = SSL_CTX_get_cert_store(ctx), X509_STORE_add_cert(store, ca.pointer) == 1,
                SSL_CTX_add_client_CA(ctx, ca.pointer) == 1
            else {
                throw .configuration(OpenSSLError("trusting the client CA").description)
            }
            // Request a certificate but accept any answer: the mock answers 403 BadCertificate per request,
            // as APNs does, instead of failing the handshake.
            SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, acceptAnyClientCertificate)
        }
        if speakHTTP1Only {
            SSL_CTX_set_alpn_select_cb(ctx, selectHTTP1, nil)
        } else {
            SSL_CTX_set_alpn_select_cb(ctx, selectHTTP2, nil)
        }
        return context
    }

    private func applyCommonSettings() throws(TLSFailure) {
        if COpenSSL_SSL_CTX_set_min_proto_version(pointer, TLS1_2_VERSION) != 1 {
            throw .configuration(OpenSSLError("setting TLS 1.2 as the minimum").description)
        }
        _ = SSL_CTX_set_options(pointer, COpenSSL_SSL_OP_NO_COMPRESSION() | COpenSSL_SSL_OP_NO_RENEGOTIATION())
        // Non-blocking writes may be retried with a different buffer address and may complete partially.
        _ = COpenSSL_SSL_CTX_set_mode(
            pointer, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS)
        )
    }

    private func use(certificate: X509Certificate, key: PrivateKey, chain: [X509Certificate]) throws(TLSFailure) {
        try Self.install(certificate, in: pointer)
        // SSL_CTX_use_PrivateKey refuses a key that does not fit the certificate set just before (it runs
        // X509_check_private_key itself), so no second check: one send pays for the comparison once here.
        guard SSL_CTX_use_PrivateKey(pointer, key.pointer) == 1 else {
            OpenSSLError.clearQueue()
            throw .configuration("the private key does not match the certificate")
        }
        try Self.install(chain: chain, in: pointer)
    }

    /// What about `certificate` or its `chain` this machine's OpenSSL security level refuses for TLS (a small key,
    /// a SHA-1 signature); nil when nothing. The same calls as a send makes, on a context of its own: `inspect`
    /// and `doctor` say before a send fails.
    public static func weakness(of certificate: X509Certificate, chain: [X509Certificate]) -> CertificateWeakness? {
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer { SSL_CTX_free(ctx) }
        do throws(TLSFailure) {
            try install(certificate, in: ctx)
            try install(chain: chain, in: ctx)
        } catch {
            if case .weakCertificate(let weakness) = error { return weakness }
        }
        return nil
    }

    /// Sets the leaf: OpenSSL checks its key and signature against the security level here.
    private static func install(_ certificate: X509Certificate, in ctx: OpaquePointer) throws(TLSFailure) {
        guard SSL_CTX_use_certificate(ctx, certificate.pointer) == 1 else {
            let error = OpenSSLError("using the certificate")
            if let weakness = CertificateWeakness(error, certificate: certificate, isLeaf: true, in: ctx) {
                throw .weakCertificate(weakness)
            }
            throw .configuration(error.description)
        }
    }

    /// Adds the chain to the leaf set before, each checked against the security level as the leaf is: a weak
    /// intermediate is said here, where as an extra chain certificate it failed the handshake with OpenSSL's words.
    private static func install(chain: [X509Certificate], in ctx: OpaquePointer) throws(TLSFailure) {
        for extra in chain where COpenSSL_SSL_CTX_add1_chain_cert(ctx, extra.pointer) != 1 {
            let error = OpenSSLError("adding a chain certificate")
            if let weakness = CertificateWeakness(error, certificate: extra, isLeaf: false, in: ctx) {
                throw .weakCertificate(weakness)
            }
            throw .configuration(error.description)
        }
    }
}

/// Verify callback for servers: remember the verdict, never abort the handshake.
private func acceptAnyClientCertificate(_ preverify: Int32, _ store: OpaquePointer?) -> Int32 { 1 }

/// Where `wanted` sits in a client's ALPN list (length-prefixed names): the offset of its first byte, nil
/// when it is not offered. The one walker of that list, for both selection callbacks.
private func offeredProtocol(_ wanted: [UInt8], in offered: UnsafePointer<UInt8>, length: UInt32) -> Int? {
    var i = 0
    let n = Int(length)
    while i < n {
        let len = Int(offered[i])
        if len == wanted.count, i + len < n,
            UnsafeBufferPointer(start: offered + i + 1, count: len).elementsEqual(wanted)
        {
            return i + 1
        }
        i += 1 + len
    }
    return nil
}

/// ALPN selection for the HTTP/1.1-only test server: `http/1.1` when offered, else no protocol.
private func selectHTTP1(
    _ ssl: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
    _ outLength: UnsafeMutablePointer<UInt8>?, _ offered: UnsafePointer<UInt8>?, _ offeredLength: UInt32,
    _ arg: UnsafeMutableRawPointer?
) -> Int32 {
    let wanted = Array("http/1.1".utf8)
    guard let offered, let out, let outLength,
        let at = offeredProtocol(wanted, in: offered, length: offeredLength)
    else { return SSL_TLSEXT_ERR_NOACK }
    out.pointee = offered + at
    outLength.pointee = UInt8(wanted.count)
    return SSL_TLSEXT_ERR_OK
}

/// ALPN selection for servers: `h2` when offered; a client that offers only other protocols gets a
/// no_application_protocol alert (APNs has no HTTP/1.1 API). A client without ALPN never calls this and
/// is served HTTP/2 with prior knowledge.
private func selectHTTP2(
    _ ssl: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
    _ outLength: UnsafeMutablePointer<UInt8>?, _ offered: UnsafePointer<UInt8>?, _ offeredLength: UInt32,
    _ arg: UnsafeMutableRawPointer?
) -> Int32 {
    guard let offered, let out, let outLength,
        let at = offeredProtocol([UInt8(ascii: "h"), UInt8(ascii: "2")], in: offered, length: offeredLength)
    else { return SSL_TLSEXT_ERR_ALERT_FATAL }
    out.pointee = offered + at
    outLength.pointee = 2
    return SSL_TLSEXT_ERR_OK
}
