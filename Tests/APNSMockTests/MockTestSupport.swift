import APNSCore
import APNSCrypto
import APNSMock
import APNSTestSupport
import Foundation

/// Builds mock servers for tests from certificates the openssl CLI made (independent of apnsctl's generator).
struct MockFixture {
    let tls: OpenSSLFixtures

    init() throws { tls = try OpenSSLFixtures() }

    func identity() throws -> MockServerIdentity {
        let cert = try X509Certificate.all(pem: [UInt8](Data(contentsOf: URL(fileURLWithPath: tls.serverCert))))[0]
        let key = try PrivateKey(pem: [UInt8](Data(contentsOf: URL(fileURLWithPath: tls.serverKey))), passphrase: nil)
        let ca = try X509Certificate.all(pem: [UInt8](Data(contentsOf: URL(fileURLWithPath: tls.caCert))))[0]
        return MockServerIdentity(certificate: cert, key: key, clientCA: ca)
    }

    /// A started server; stop it with `server.stop()`.
    func start(rules: MockRules = MockRules(), faults: MockFaults = .none, logDescriptor: Int32? = nil) throws -> (MockServer, Int) {
        let server = try MockServer(configuration: MockConfiguration(identity: identity(), rules: rules, faults: faults,
                                                                     logDescriptor: logDescriptor))
        let port = try server.start()
        return (server, port)
    }

    /// `curl --http2` against the mock; returns (status, body, response headers).
    func curl(port: Int, path: String = "/3/device/" + String(repeating: "ab", count: 32), method: String = "POST",
              headers: [String] = [], body: String? = #"{"aps":{"alert":"hi"}}"#, clientCert: Bool = false) throws -> (Int, String, String) {
        let scratch = try TemporaryDirectory(prefix: "curl")
        var args = ["-s", "--http2", "--cacert", tls.caCert, "-X", method, "-D", scratch.file("headers"),
                    "-o", scratch.file("body"), "-w", "%{http_code}", "--max-time", "10"]
        if clientCert { args += ["--cert", tls.clientCert, "--key", tls.clientKey] }
        for h in headers { args += ["-H", h] }
        if let body { args += ["--data-binary", body] }
        args.append("https://127.0.0.1:\(port)\(path)")
        let r = try CommandRunner.run("curl", args, timeout: 20)
        let text = { (name: String) in (try? scratch.read(name)) ?? "" }
        return (Int(r.stdout) ?? -1, text("body"), text("headers"))
    }
}
