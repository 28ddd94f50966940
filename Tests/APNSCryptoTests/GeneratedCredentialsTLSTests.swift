import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// Generated credentials must work in real TLS: our server certificate and CA, and a push certificate
/// read back from a legacy .p12 (as a Keychain export would be) and from the PEM curl uses.
@Suite struct GeneratedCredentialsTLSTests {
    /// Client and server handshake in lockstep on one thread over loopback; no server thread needed.
    @Test func legacyP12IdentityAgainstGeneratedServer() throws {
        let dir = try TemporaryDirectory()
        let server = try CredentialGenerator.makeServerCertificate(ca: TestCredentials.ca)
        let serverContext = try TLSContext.server(
            certificate: server.certificate, key: server.privateKey,
            chain: server.chain, clientCA: TestCredentials.ca.certificate)
        let p12 = try dir.put(
            "push.p12",
            try TestCredentials.universal.pkcs12(password: SecretBytes(Array("pw".utf8)), encryption: .legacy))
        let identity = try CredentialLoader.loadIdentity(certificate: .file(p12), key: nil, passphrase: .literal("pw"))
        let ca = try dir.put("ca.pem", TestCredentials.ca.certificate.pem)
        let clientContext = try TLSContext.client(
            caFile: ca, verify: true, certificate: identity.certificate,
            key: identity.privateKey, chain: identity.chain)

        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let client = try TLSConnection.client(
            socket: try Socket.connect(host: "127.0.0.1", port: listener.localPort, timeout: 5),
            context: clientContext, host: "localhost")
        var accepted: Socket?
        Wait.until(interval: 0.002) {
            accepted = listener.accept()
            return accepted != nil
        }
        let serverSide = try TLSConnection.server(socket: try #require(accepted), context: serverContext)
        var clientDone = false
        var serverDone = false
        try Wait.until(interval: 0.0005) {
            if !clientDone { clientDone = try client.handshakeStep() == .bytes(0) }
            if !serverDone { serverDone = try serverSide.handshakeStep() == .bytes(0) }
            return clientDone && serverDone
        }
        #expect(clientDone && serverDone)
        #expect(client.negotiatedProtocol == "h2")
        #expect(serverSide.clientCertificateTrusted)
        #expect(serverSide.peerCertificate?.info.bundleID == "com.example.demo")
    }

    /// curl presents the PEM apnsctl writes to `openssl s_server`, which demands a client certificate
    /// from our CA; curl trusts our CA for the server certificate.
    @Test func curlAndOpenSSLServerAcceptOurPEMs() throws {
        let dir = try TemporaryDirectory()
        let server = try CredentialGenerator.makeServerCertificate(ca: TestCredentials.ca, key: .rsa(bits: 2048))
        let serverPEM = try dir.put("server.pem", try server.pem())
        let clientPEM = try dir.put("client.pem", try TestCredentials.developmentRSA.pem())
        let ca = try dir.put("ca.pem", TestCredentials.ca.certificate.pem)
        let port = try ProxyProcess.freePort()  // below the ephemeral range: no listen(port: 0) takes it meanwhile
        let s = Process()
        s.executableURL = URL(fileURLWithPath: try CommandRunner.which("openssl"))
        s.arguments = [
            "s_server", "-accept", "127.0.0.1:\(port)", "-cert", serverPEM, "-CAfile", ca, "-Verify", "1",
            "-verify_return_error", "-www", "-quiet",
        ]
        s.standardOutput = FileHandle.nullDevice
        s.standardError = FileHandle.nullDevice
        try s.runAsAShellWould()
        // SIGKILL: how s_server stops is not under test, and nothing it could do delays the kill.
        defer {
            if s.isRunning { kill(s.processIdentifier, SIGKILL) }
            s.waitUntilExit()
        }
        Wait.until(interval: 0.02) { (try? Socket.connect(host: "127.0.0.1", port: port, timeout: 1)) != nil }
        let r = try CommandRunner.run(
            "curl",
            [
                "-sS", "--max-time", "10", "--http1.1", "--resolve", "localhost:\(port):127.0.0.1", "--cert", clientPEM,
                "--cacert", ca,
                "https://localhost:\(port)/",
            ], timeout: 20)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("com.example.dev"), "s_server's page should show the client certificate")
    }
}

/// A key that is not the certificate's is refused when the TLS context is built, before any connection.
@Suite struct TLSContextKeyMismatchTests {
    @Test func aKeyThatDoesNotFitTheCertificateIsRefused() throws {
        let ca = try CredentialGenerator.makeCA()
        let one = try CredentialGenerator.makeServerCertificate(ca: ca)
        let other = try CredentialGenerator.makeServerCertificate(ca: ca)
        #expect(throws: TLSFailure.configuration("the private key does not match the certificate")) {
            try TLSContext.client(caFile: nil, verify: false, certificate: one.certificate, key: other.privateKey)
        }
        _ = try TLSContext.client(caFile: nil, verify: false, certificate: one.certificate, key: one.privateKey)
    }
}
