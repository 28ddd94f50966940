import APNSTestSupport
import Testing

/// Input mistakes named precisely: standard input given twice, a missing passphrase file.
@Suite struct InputNamingTests {
    @Test func standardInputTwiceIsUsageError() throws {
        let r = try InProcess.apnsctl(["validate", "-", "-"], stdin: Array("{\"aps\":{\"alert\":\"x\"}}".utf8))
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("error: - (standard input) can be given only once"))
        #expect(r.stdout.isEmpty)
        // /dev/stdin is the same input: the second read was an empty payload (65).
        let named = try InProcess.apnsctl(
            ["validate", "-", "/dev/stdin"], stdin: Array("{\"aps\":{\"alert\":\"x\"}}".utf8))
        #expect(named.status == 64, "\(named.stderr)")
        #expect(
            named.stderr.hasPrefix("error: - and /dev/stdin all read standard input; save the other payloads to files"),
            "\(named.stderr)")
        #expect(named.stdout.isEmpty)
    }

    /// A CA bundle of /dev/stdin takes standard input as a credential of `-` would: both named, 64 (the certificate
    /// was blamed for being a CA, or the CA for holding no certificate).
    @Test func aCAFileOfDevStdinIsAReaderOfStandardInput() throws {
        let dir = try TemporaryDirectory(prefix: "ca-stdin")
        let pem = try dir.pem("push.pem", CredentialFixtures.universal)
        let token = String(repeating: "ab", count: 32)
        let endpoint = ["--endpoint", "https://127.0.0.1:9", "-d", token, "--topic", "x"]
        let both = try InProcess.apnsctl(
            ["send", "--cert", "/dev/stdin", "--ca-file", "/dev/stdin", "--alert", "x"] + endpoint, stdin: [])
        #expect(both.status == 64, "\(both.stderr)")
        #expect(
            both.stderr.contains("--cert /dev/stdin and --ca-file /dev/stdin both read standard input"),
            "\(both.stderr)")
        let payload = try InProcess.apnsctl(
            ["send", "-", "--cert", pem, "--ca-file", "/dev/stdin"] + endpoint, stdin: Array("{}".utf8))
        #expect(payload.status == 64, "\(payload.stderr)")
        #expect(payload.stderr.contains("--ca-file /dev/stdin"), "\(payload.stderr)")
    }

    @Test func missingPassphraseFileNamesTheFlag() throws {
        let scratch = try TemporaryDirectory(prefix: "passfile")
        let d = scratch.path
        let made = try CommandRunner.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", "\(d)/k.pem", "-out", "\(d)/c.pem", "-days", "2",
                "-subj", "/CN=passfile test",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let exported = try CommandRunner.run(
            "openssl",
            [
                "pkcs12", "-export", "-in", "\(d)/c.pem", "-inkey", "\(d)/k.pem",
                "-out", "\(d)/x.p12", "-passout", "pass:secret",
            ])
        #expect(exported.status == 0, "\(exported.stderr)")
        let r = try InProcess.apnsctl(
            ["inspect", scratch.file("x.p12"), "--passphrase-file", scratch.file("nosuch")],
            environment: ["APNSCTL_PASSPHRASE": ""])
        #expect(r.status == 66)
        // Named by its flag; the value is not repeated, as it may be the passphrase typed where its file belongs.
        #expect(r.stderr.hasPrefix("error: --passphrase-file: no such file (the value given is not repeated"))
        #expect(!r.stderr.contains("nosuch"), "\(r.stderr)")
    }
}

/// `inspect` warns about a key id from the file name that `send` and `jwt` would refuse.
@Suite struct InspectKeyIDTests {
    @Test func malformedKeyIDFromFileNameIsAWarning() throws {
        let scratch = try TemporaryDirectory(prefix: "keyid")
        let key = scratch.file("AuthKey_abc.p8")
        let made = try CommandRunner.run(
            "openssl",
            [
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-out", key,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let r = try InProcess.apnsctl(["inspect", key])
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("warning: \(key): key id \"abc\" from the file name is not 10 letters"))
        let good = scratch.file("AuthKey_ABCDE12345.p8")
        _ = try CommandRunner.run("cp", [key, good])
        let g = try InProcess.apnsctl(["inspect", good])
        #expect(g.status == 0)
        #expect(g.stderr.isEmpty)
    }
}
