import APNSCore
import APNSTestSupport
import Foundation
import Testing
@testable import APNSCrypto

/// Generated credentials must work in real TLS: our server certificate and CA, and a push certificate
/// read back from a legacy .p12 (as a Keychain export would be) and from the PEM curl uses.
@Suite struct GeneratedCredentialsTLSTests {
    /// Accepts one connection, handshakes, reports whether the client certificate was trusted.
    private func startServer(server: PushIdentity) throws -> (port: Int, done: DispatchSemaphore, trusted: LockedBox<Bool?>) {
        let context = try TLSContext.server(certificate: server.certificate, key: server.privateKey, chain: server.chain,
                                            clientCA: TestCredentials.ca.certificate)
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let done = DispatchSemaphore(value: 0)
        let trusted = LockedBox<Bool?>(nil)
        Thread.detachNewThread {
            defer { done.signal() }
            var sock: Socket?
            for _ in 0..<500 {
                sock = listener.accept()
                if sock != nil { break }
                usleep(10_000)
            }
            guard let s = sock, let conn = try? TLSConnection.server(socket: s, context: context),
                  (try? conn.handshake(timeoutMs: 5000)) != nil else { return }
            trusted.set(conn.peerCertificate == nil ? nil : conn.clientCertificateTrusted)
        }
        return (listener.localPort, done, trusted)
    }

    @Test func legacyP12IdentityAgainstGeneratedServer() throws {
        let dir = try TemporaryDirectory()
        let server = try CredentialGenerator.makeServerCertificate(ca: TestCredentials.ca)
        let listening = try startServer(server: server)
        let p12 = try dir.put("push.p12", try TestCredentials.universal.pkcs12(password: SecretBytes(Array("pw".utf8)), encryption: .legacy))
        let identity = try CredentialLoader.loadIdentity(certificatePath: p12, keyPath: nil, passphrase: .literal("pw"))
        let ca = try dir.put("ca.pem", TestCredentials.ca.certificate.pem)
        let ctx = try TLSContext.client(caFile: ca, verify: true, certificate: identity.certificate,
                                        key: identity.privateKey, chain: identity.chain)
        let sock = try Socket.connect(host: "127.0.0.1", port: listening.port, timeout: 5)
        let conn = try TLSConnection.client(socket: sock, context: ctx, host: "localhost")
        try conn.handshake(timeoutMs: 5000)
        #expect(conn.negotiatedProtocol == "h2")
        listening.done.wait()
        #expect(listening.trusted.get() == true)
    }

    /// curl (itself on OpenSSL) presents the PEM apnsctl writes and trusts our CA for the server.
    @Test func curlAcceptsOurPEMAndServer() throws {
        let dir = try TemporaryDirectory()
        let server = try CredentialGenerator.makeServerCertificate(ca: TestCredentials.ca)
        let listening = try startServer(server: server)
        let pem = try dir.put("client.pem", try TestCredentials.developmentRSA.pem())
        let ca = try dir.put("ca.pem", TestCredentials.ca.certificate.pem)
        let r = try CommandRunner.run("curl", ["-sS", "--max-time", "5", "--http2", "--cert", pem, "--cacert", ca,
                                              "https://localhost:\(listening.port)/"])
        listening.done.wait()
        // The server closes after the handshake, so curl itself fails later; the TLS part must have passed.
        #expect(!r.stderr.contains("SSL certificate problem"), "\(r.stderr)")
        #expect(!r.stderr.contains("unable to"), "\(r.stderr)")
        #expect(listening.trusted.get() == true)
    }
}
