import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// The TLS layer against itself on loopback: ALPN, verification, client certificates.
@Suite struct TLSLoopbackTests {
    let fixtures: OpenSSLFixtures
    init() throws { fixtures = try OpenSSLFixtures() }

    private func load(_ cert: String, _ key: String) throws -> (X509Certificate, PrivateKey) {
        let c = try #require(try X509Certificate.all(pem: [UInt8](Data(contentsOf: URL(fileURLWithPath: cert)))).first)
        let k = try PrivateKey(pem: [UInt8](Data(contentsOf: URL(fileURLWithPath: key))), passphrase: nil)
        return (c, k)
    }

    /// Accepts one connection on a thread, handshakes, and echoes what it reads; returns the port.
    private func startEchoServer(clientCA: Bool) throws -> (
        port: Int, done: DispatchSemaphore, trusted: LockedValue<Bool?>
    ) {
        let (cert, key) = try load(fixtures.serverCert, fixtures.serverKey)
        let ca = try #require(
            try X509Certificate.all(pem: [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtures.caCert)))).first)
        let context = try TLSContext.server(certificate: cert, key: key, clientCA: clientCA ? ca : nil)
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let done = DispatchSemaphore(value: 0)
        let trusted = LockedValue<Bool?>(nil)
        Thread.detachNewThread {
            defer { done.signal() }
            var sock: Socket?
            Wait.until(seconds: 5) {
                sock = listener.accept()
                return sock != nil
            }
            guard let s = sock, let conn = try? TLSConnection.server(socket: s, context: context),
                (try? conn.handshake(timeoutMs: 5000)) != nil
            else { return }
            let verdict = conn.peerCertificate == nil ? nil : conn.clientCertificateTrusted
            trusted.withLock { $0 = verdict }
            var buf = [UInt8](repeating: 0, count: 64)
            Wait.until(seconds: 5) {
                let step = buf.withUnsafeMutableBytes { try? conn.read(into: $0) }
                guard case .bytes(let n)? = step else { return false }
                _ = buf.withUnsafeBytes { try? conn.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                return true
            }
        }
        return (listener.localPort, done, trusted)
    }

    @Test func handshakeNegotiatesH2AndVerifiesTheServer() throws {
        let server = try startEchoServer(clientCA: false)
        let ctx = try TLSContext.client(caFile: fixtures.caCert, verify: true)
        let sock = try Socket.connect(host: "127.0.0.1", port: server.port, timeout: 5)
        let conn = try TLSConnection.client(socket: sock, context: ctx, host: "127.0.0.1")
        try conn.handshake(timeoutMs: 5000)
        #expect(conn.negotiatedProtocol == "h2")
        #expect(conn.protocolVersion == "TLSv1.3")
        let hello: [UInt8] = Array("ping".utf8)
        _ = try hello.withUnsafeBytes { try conn.write($0) }
        var buf = [UInt8](repeating: 0, count: 16)
        var got = 0
        try Wait.until(seconds: 5) {
            if case .bytes(let n) = try buf.withUnsafeMutableBytes({ try conn.read(into: $0) }) { got = n }
            return got > 0
        }
        #expect(Array(buf[0..<got]) == hello)
        server.done.wait()
    }

    @Test func untrustedServerFailsVerificationSayingWhy() throws {
        let server = try startEchoServer(clientCA: false)
        let ctx = try TLSContext.client(caFile: nil, verify: true)
        let sock = try Socket.connect(host: "localhost", port: server.port, timeout: 5)
        let conn = try TLSConnection.client(socket: sock, context: ctx, host: "localhost")
        #expect {
            try conn.handshake(timeoutMs: 5000)
        } throws: { error in
            // The library says what failed; the CLI adds which flag to use (SendEndToEndTests pins it).
            guard case TLSFailure.verification = error else { return false }
            return String(describing: error).contains("unable to get local issuer certificate")
        }
        server.done.wait()
    }

    /// A trusted certificate for other names than the one connected to: the failure says which names it is for, and
    /// is told from an untrusted one (the CA is right; the name in --endpoint is not), so the advice is not "give
    /// the CA that signed it" to a user who did.
    @Test func aCertificateForAnotherNameSaysWhichNamesItIsFor() throws {
        let server = try startEchoServer(clientCA: false)
        let ctx = try TLSContext.client(caFile: fixtures.caCert, verify: true)
        let sock = try Socket.connect(host: "127.0.0.1", port: server.port, timeout: 5)
        let conn = try TLSConnection.client(socket: sock, context: ctx, host: "other.example")
        #expect {
            try conn.handshake(timeoutMs: 5000)
        } throws: { error in
            guard let failure = error as? TLSFailure, case .verification = failure else { return false }
            return failure.isAboutHostName && !failure.isAboutCertificateDates
                && failure.refusedHostName == "other.example"
                && failure.description.hasSuffix(
                    "hostname mismatch (the certificate is for localhost, 127.0.0.1, not for other.example)")
        }
        server.done.wait()
    }

    /// A CA file that is not PEM is its own case, naming the file, so the CLI can call it a bad input (exit 66).
    @Test func unusableCAFileIsNamed() throws {
        let dir = try TemporaryDirectory()
        let notPEM = try dir.write("ca.txt", "not a certificate\n")
        #expect {
            _ = try TLSContext.client(caFile: notPEM, verify: true)
        } throws: { error in
            guard case TLSFailure.caFileUnusable(let path, _) = error else { return false }
            return path == notPEM
        }
    }

    @Test func clientCertificateIsCheckedAgainstTheCA() throws {
        let server = try startEchoServer(clientCA: true)
        let (cert, key) = try load(fixtures.clientCert, fixtures.clientKey)
        let ctx = try TLSContext.client(caFile: fixtures.caCert, verify: true, certificate: cert, key: key)
        let sock = try Socket.connect(host: "localhost", port: server.port, timeout: 5)
        let conn = try TLSConnection.client(socket: sock, context: ctx, host: "localhost")
        try conn.handshake(timeoutMs: 5000)
        _ = try Array("x".utf8).withUnsafeBytes { try conn.write($0) }
        server.done.wait()
        #expect(server.trusted.current == true)
    }

    @Test func refusedConnectionIsAConnectError() throws {
        let closed = try RefusingPort()
        defer { withExtendedLifetime(closed) {} }  // refusing until the test ends
        #expect(throws: SocketError.self) { try Socket.connect(host: "127.0.0.1", port: closed.port, timeout: 2) }
    }
}
