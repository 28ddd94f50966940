import APNSTestSupport
import Foundation
import Testing

/// Certificates this machine's OpenSSL refuses for TLS at its security level (a small key, a SHA-1 signature, a
/// weak CA in the file) are a credential problem (77) in plain words, said by `inspect` and `doctor` as by `send`:
/// they passed both, then `send` failed with exit 69 and OpenSSL's `ee key too small`. Made with the `openssl`
/// command, as a home-made certificate is.
@Suite struct WeakCertificateTests {
    static let token = String(repeating: "ab", count: 32)
    static let subject = "/UID=com.example.app/CN=Apple Development IOS Push Services: com.example.app"

    /// Runs `openssl` with `arguments` in `dir`.
    static func openssl(_ arguments: [String], in dir: TemporaryDirectory) throws {
        let r = try CommandRunner.run("openssl", arguments, directory: dir.path)
        guard r.status == 0 else { throw TestSupportError("openssl \(arguments.joined(separator: " ")): \(r.stderr)") }
    }

    /// A CA (`caKey` bits), and a leaf signed by it with `leafKey` bits and `digest`; returns the PEM of leaf, key
    /// and CA.
    static func make(caKey: Int, leafKey: Int, digest: String, in dir: TemporaryDirectory) throws -> String {
        try openssl(
            [
                "req", "-x509", "-newkey", "rsa:\(caKey)", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-subj",
                "/CN=Home-made CA", "-days", "30", "-sha256",
            ], in: dir)
        try openssl(
            [
                "req", "-new", "-newkey", "rsa:\(leafKey)", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
                "-subj",
                subject,
            ], in: dir)
        try openssl(
            [
                "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "leaf.pem", "-days", "30", "-\(digest)",
            ], in: dir)
        let pem = try ["leaf.pem", "leaf.key", "ca.pem"].map {
            try String(contentsOfFile: dir.file($0), encoding: .utf8)
        }
        return try dir.write("push.pem", pem.joined(), mode: 0o600)
    }

    /// Each weakness, and the words that name it; 512-bit keys, which every security level above 0 refuses.
    static let cases: [(caKey: Int, leafKey: Int, digest: String, words: String)] = [
        (
            2048, 512, "sha256",
            "push.pem: the certificate has a key too small (RSA 512) for TLS at this machine's OpenSSL security level"
        ),
        (
            2048, 2048, "sha1",
            "push.pem: the certificate is signed with SHA-1, too weak for TLS at this machine's OpenSSL security level"
        ),
        (
            512, 2048, "sha256",
            "push.pem: the chain certificate Home-made CA has a key too small (RSA 512) for TLS at this machine's OpenSSL security level"
        ),
    ]

    @Test(arguments: 0..<3)
    func aWeakCertificateIsACredentialProblemEverywhere(_ index: Int) throws {
        let c = Self.cases[index]
        let dir = try TemporaryDirectory(prefix: "weak")
        let pem = try Self.make(caKey: c.caKey, leafKey: c.leafKey, digest: c.digest, in: dir)
        let mock = try InProcessMock()
        let runs: [[String]] = [
            ["inspect", pem],
            [
                "send", "--cert", pem, "-d", Self.token, "--alert", "hi", "--endpoint", mock.endpoint, "--ca-file",
                mock.caFile,
            ],
            ["send", "--cert", pem, "-d", Self.token, "--alert", "hi", "--dry-run"],
        ]
        for arguments in runs {
            let r = try InProcess.apnsctl(arguments, directory: dir.path)
            #expect(r.status == 77, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains(c.words), "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains("too small\n") && !r.stderr.contains("md too weak"), "\(r.stderr)")
        }
        // Refused while setting up, before any connection: the mock never saw the token.
        #expect(!((try? String(contentsOfFile: mock.logFile, encoding: .utf8)) ?? "").contains(Self.token))
        // inspect's JSON says it too, with the chain it judged (it looked healthy, the reason on stderr only).
        let json = try InProcess.apnsctl(["inspect", pem, "-o", "json"], directory: dir.path)
        #expect(json.status == 77, "\(json.stderr)")
        let object = try jsonObject(json.stdout)
        let refused = object["tls_refused"] as? String
        #expect(refused?.hasPrefix(String(c.words.dropFirst("push.pem: ".count))) == true, "\(json.stdout)")
        #expect(object["chain"] as? [String] == ["Home-made CA"], "\(json.stdout)")
        let text = try InProcess.apnsctl(["inspect", pem], directory: dir.path)
        #expect(text.stdout.contains("tls:"), "\(text.stdout)")
        let doctor = try InProcess.apnsctl(
            ["doctor", "--cert", pem, "--endpoint", mock.endpoint, "--ca-file", mock.caFile], directory: dir.path)
        #expect(doctor.status == 77, "\(doctor.stdout)\(doctor.stderr)")
        #expect(doctor.stdout.contains("credentials"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains(String(c.words.dropFirst("push.pem: ".count))), "\(doctor.stdout)")
    }
}
