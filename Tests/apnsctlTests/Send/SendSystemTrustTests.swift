import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `send` without `--ca-file` trusts the system store as OpenSSL and curl do (`SSL_CERT_FILE`, `SSL_CERT_DIR`
/// honoured), searching the hashed directory instead of parsing the whole bundle.
@Suite struct SendSystemTrustTests {
    let mock: InProcessMock
    let scratch: TemporaryDirectory

    init() throws {
        mock = try InProcessMock(keepingLog: true)
        scratch = try TemporaryDirectory(prefix: "trust")
    }

    /// A directory holding `pem` under its hashed name (`openssl rehash`).
    func hashedDirectory(_ name: String, holding pem: String) throws -> String {
        let dir = scratch.file(name)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: pem, toPath: dir + "/ca.pem")
        let r = try CommandRunner.run("openssl", ["rehash", dir])
        #expect(r.status == 0, "\(r.stderr)")
        return dir
    }

    func send(_ environment: [String: String], traced: String? = nil) throws -> CommandResult {
        let args = [
            "send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", mock.endpoint, "--cert", mock.certificate,
            "-d", "cd00000000000000000000000000000000000000000000000000000000000001",
        ]
        if let traced {
            return try CommandRunner.run(
                "strace", ["-f", "-qq", "-e", "trace=openat,open", "-o", traced, CommandRunner.apnsctlPath] + args,
                environment: environment)
        }
        return try InProcess.apnsctl(args, environment: environment)
    }

    @Test func sslCertDirHoldingTheCAIsTrusted() throws {
        let r = try send(["SSL_CERT_DIR": try hashedDirectory("dir", holding: mock.caFile), "SSL_CERT_FILE": ""])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func sslCertFileHoldingTheCAIsTrustedBesideAnEmptyDirectory() throws {
        let empty = scratch.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let r = try send(["SSL_CERT_FILE": mock.caFile, "SSL_CERT_DIR": empty])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aStoreWithoutTheCAIs69NamingTheStoreAndNothingIsSent() throws {
        let other = try TestCredentials()
        let dir = try hashedDirectory("other", holding: other.caFile)
        let r = try send(["SSL_CERT_DIR": dir, "SSL_CERT_FILE": ""])
        #expect(r.status == 69)
        #expect(r.stderr.contains("searched SSL_CERT_DIR=\(dir)"), "\(r.stderr)")
        #expect(
            r.stderr.contains("openssl rehash") && r.stderr.contains("--ca-file") && r.stderr.contains("--insecure"))
        #expect(mock.receiptsPerDevice().isEmpty, "the mock received nothing")
    }

    @Test func theSystemStoreWithoutVariablesDoesNotTrustTheMock() throws {
        let r = try send(["SSL_CERT_DIR": "", "SSL_CERT_FILE": ""])
        #expect(r.status == 69)
        #expect(r.stderr.contains("searched the system"), "\(r.stderr)")
        #expect(mock.receiptsPerDevice().isEmpty)
    }

    @Test func aMissingSSLCertFileIs66() throws {
        let r = try send(["SSL_CERT_FILE": scratch.file("missing.pem")])
        #expect(r.status == 66)
        #expect(
            r.stderr.contains(
                "SSL_CERT_FILE=\(scratch.file("missing.pem")): cannot load CA certificates: no such file"),
            "\(r.stderr)")
    }

    /// The point of the hashed directory: the handshake opens the one CA it needs, never the bundle.
    @Test func aHashedDirectoryServesWithoutOpeningTheBundle() throws {
        let probe = try CommandRunner.run("strace", ["-qq", "-e", "trace=openat", "-o", "/dev/null", "true"])
        try #require(probe.status == 0, "strace cannot trace here: \(probe.stderr)")
        let dir = try hashedDirectory("traced", holding: mock.caFile)
        let trace = scratch.file("trace.txt")
        let r = try send(["SSL_CERT_DIR": dir, "SSL_CERT_FILE": ""], traced: trace)
        #expect(r.status == 0, "\(r.stderr)")
        let opened = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(opened.contains(dir + "/"), "the CA was looked up by its hashed name")
        for bundle in ["ca-certificates.crt", "/usr/lib/ssl/cert.pem", "/etc/ssl/cert.pem"] {
            #expect(!opened.contains(bundle), "opened \(bundle)")
        }
    }
}
