import APNSTestSupport
import Testing

/// Input mistakes named precisely: standard input given twice, a missing passphrase file.
@Suite struct InputNamingTests {
    @Test func standardInputTwiceIsUsageError() throws {
        let r = try InProcess.apnsctl(["validate", "-", "-"], stdin: Array("{\"aps\":{\"alert\":\"x\"}}".utf8))
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("error: - (standard input) can be given only once"))
        #expect(r.stdout.isEmpty)
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
