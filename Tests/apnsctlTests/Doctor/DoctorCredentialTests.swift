import APNSCore
import APNSCrypto
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `apnsctl doctor`'s credential rules with certificates made at test time: expired and not yet valid stop
/// before any network (77), 10 days left warns (0) unless `--fail-within` says otherwise (77, network checks
/// still run); and bad invocations name their flag.
@Suite struct DoctorCredentialTests {
    let credentials: TestCredentials
    init() throws { credentials = try TestCredentials() }

    private func doctor(_ arguments: [String], _ variables: [String: String] = [:]) throws -> CommandResult {
        let cache = try TemporaryDirectory(prefix: "cache")
        return try InProcess.apnsctl(
            ["doctor"] + arguments, environment: variables.merging(["XDG_CACHE_HOME": cache.path]) { $1 })
    }

    private func certificate(_ name: String, notBefore: Int64, notAfter: Int64) throws -> String {
        try credentials.writePushCertificate(
            name, kind: .universal(topics: [credentials.bundleID]),
            validity: Validity(notBefore: notBefore, notAfter: notAfter))
    }

    /// A credential file that is missing (the most common slip) is a failed credentials line too, in text and JSON,
    /// exit 66: a CI job parsing -o json got nothing. A missing --ca-file is no credential, and gets none.
    @Test func aMissingCredentialFileIsAFailedCredentialsLine() throws {
        let missing = credentials.directory.file("nonexistent.pem")
        let json = try doctor(["--cert", missing, "--endpoint", "https://127.0.0.1:9", "-o", "json"])
        #expect(json.status == 66, "\(json.stderr)")
        let line = try #require(json.lines.first, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["check"] as? String == "credentials" && object?["status"] as? String == "fail", "\(line)")
        let text = try doctor(["--cert", missing, "--endpoint", "https://127.0.0.1:9"])
        #expect(text.status == 66)
        #expect(text.lines.first?.hasPrefix("fail  credentials") == true, "\(text.stdout)")
        // The last line names the failed check, as for any other check (it was the file's error again).
        #expect(text.errorLines.last?.hasPrefix("error: doctor: credentials failed: ") == true, "\(text.stderr)")
        // A wrong passphrase too (77).
        let p12 = try credentials.directory.p12("push.p12", CredentialFixtures.universal, password: "right-one")
        let wrong = try doctor(["--cert", p12, "--passphrase", "wrong-one", "--endpoint", "https://127.0.0.1:9"])
        #expect(wrong.status == 77, "\(wrong.stderr)")
        #expect(wrong.lines.first?.hasPrefix("fail  credentials") == true, "\(wrong.stdout)")
        #expect(
            wrong.errorLines.last?.hasPrefix("error: doctor: credentials failed: ") == true
                && wrong.errorLines.last?.contains("wrong passphrase") == true, "\(wrong.stderr)")
        let ca = try doctor([
            "--cert", credentials.pushFile, "--ca-file", missing, "--endpoint", "https://127.0.0.1:9",
        ])
        #expect(ca.status == 66)
        #expect(!ca.stdout.contains("credentials"), "\(ca.stdout)")
    }

    @Test func expiredOrNotYetValidIs77WithoutAnyConnection() throws {
        let now = SystemClock.now()
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let endpoint = "https://127.0.0.1:\(listener.localPort)"
        let expired = try certificate("expired.pem", notBefore: now - 400 * 86_400, notAfter: now - 3 * 86_400)
        let early = try certificate("early.pem", notBefore: now + 5 * 86_400, notAfter: now + 400 * 86_400)
        // With env auto from a variable too: the certificate's own failure comes first, not auto's need of two
        // servers (one endpoint here), which would send the user to --env first.
        // And with the other environment named: the expiry is said, not the environment the certificate lacks
        // (fixed, the next run would fail on the expiry).
        let expiredSandbox = try credentials.writePushCertificate(
            "expired-sandbox.pem", kind: .development,
            validity: Validity(notBefore: now - 400 * 86_400, notAfter: now - 3 * 86_400))
        for (file, word, variables) in [
            (expired, "EXPIRED", [:]), (early, "NOT YET VALID", [:]), (expired, "EXPIRED", ["APNSCTL_ENV": "auto"]),
            (expiredSandbox, "EXPIRED", ["APNSCTL_ENV": "production"]),
        ] {
            let r = try doctor(["--cert", file, "--ca-file", credentials.caFile, "--endpoint", endpoint], variables)
            #expect(r.status == 77, "\(r.stdout)\(r.stderr)")
            #expect(
                r.lines.count == 1 && r.lines[0].hasPrefix("fail  credentials") && r.lines[0].contains(word),
                "\(r.stdout)")
            #expect(
                r.errorLines.count == 1 && r.errorLines[0].hasPrefix("error: doctor: credentials failed"), "\(r.stderr)"
            )
        }
        #expect(listener.accept() == nil, "doctor connected although the certificate could not be used")
    }

    /// `env auto` (a profile or a variable doctor shares with send) with one server for both environments: send
    /// refuses every push (64), so doctor does before probing, with send's words.
    @Test func autoWithOneServerForBothEnvironmentsIs64AsInSend() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let endpoint = "https://127.0.0.1:\(listener.localPort)"
        let r = try doctor(
            ["--cert", credentials.pushFile, "--ca-file", credentials.caFile, "--endpoint", endpoint],
            ["APNSCTL_ENV": "auto"])
        #expect(r.status == 64, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stderr.contains(
                "APNSCTL_ENV auto needs two servers, but --endpoint \(endpoint) names one for both environments; pass --endpoint sandbox=URL --endpoint production=URL"
            ), "\(r.stderr)")
        #expect(listener.accept() == nil, "doctor probed settings send refuses")
    }

    @Test func tenDaysLeftWarnsUnlessFailWithinSaysFail() throws {
        let now = SystemClock.now()
        let mock = try InProcessMock(["--env", "production"], keepingLog: true, seededWith: credentials)
        let soon = try certificate("soon.pem", notBefore: now - 300 * 86_400, notAfter: now + 10 * 86_400 + 3600)
        let base = [
            "--cert", soon, "--ca-file", credentials.caFile, "--endpoint", mock.endpoint, "--env", "production",
        ]
        let r = try doctor(base)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(
            r.lines.first?.hasPrefix("warn  credentials") == true && r.lines.first?.contains("10 days left") == true,
            "\(r.stdout)")
        #expect(r.lines.contains { $0.hasPrefix("ok    auth production") }, "\(r.stdout)")

        let strict = try doctor(base + ["--fail-within", "30d", "-o", "json"])
        #expect(strict.status == 77, "\(strict.stdout)\(strict.stderr)")
        #expect(
            strict.lines.first?.contains(#""status":"fail""#) == true
                && strict.lines.first?.contains(#""days_remaining":10"#) == true,
            "\(strict.stdout)")
        // The run's last line says why the check failed (a CI log may keep only that line).
        #expect(
            strict.errorLines.first?.hasPrefix("error: doctor: credentials failed: ") == true
                && strict.errorLines.first?.contains("--fail-within") == true, "\(strict.stderr)")
        // The network checks still ran, so the nightly report is complete.
        #expect(
            strict.lines.last?.contains(#""check":"auth","environment":"production","status":"ok""#) == true,
            "\(strict.stdout)")
        #expect(mock.answersPerDevice(expectingAtLeast: 2)[String(repeating: "0", count: 64)] == 2)

        let loose = try doctor(base + ["--fail-within", "12h"])
        #expect(loose.status == 0, "\(loose.stdout)")
    }

    @Test func aCertificateForOneEnvironmentAndBothIs77() throws {
        let sandboxOnly = try credentials.writePushCertificate("dev.pem", kind: .development)
        let r = try doctor(["--cert", sandboxOnly, "--env", "both", "--endpoint", "https://127.0.0.1:9"])
        #expect(r.status == 77, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("production"), "\(r.stderr)")
    }

    @Test(arguments: [
        (["--env", "staging"], "--env"),
        (["--env", "auto"], "--env auto"),
        (["--fail-within", "soon"], "--fail-within"),
        (["--concurrency", "5"], "--concurrency"),
    ])
    func badFlagsAre64NamingTheFlag(_ extra: [String], _ named: String) throws {
        let r = try doctor(["--cert", credentials.pushFile] + extra)
        #expect(r.status == 64, "\(r.stdout)\(r.stderr)")
        #expect(r.errorLines.first?.contains(named) == true, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func credentialUsageAnd66() throws {
        let none = try doctor(["--env", "sandbox"])
        #expect(none.status == 64 && none.stderr.contains("no credential"))
        let both = try doctor([
            "--cert", credentials.pushFile, "--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID,
        ])
        #expect(both.status == 64 && both.stderr.contains("choose one"))
        let noTopic = try doctor(["--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID])
        #expect(noTopic.status == 64 && noTopic.stderr.contains("--topic"))
        let missing = try doctor(["--cert", credentials.directory.file("nope.pem")])
        #expect(missing.status == 66 && missing.stderr.contains("nope.pem"))
        let formats = try doctor(["--cert", credentials.pushFile, "--fail-within", "30 days"])
        #expect(formats.stderr.contains("30d") && formats.stderr.contains("12h"))
        // A duration, only too large: said so (it was "not a duration").
        let large = try doctor(["--cert", credentials.pushFile, "--fail-within", "999999999999999d"])
        #expect(
            large.status == 64
                && large.stderr
                    == "error: --fail-within 999999999999999d: too large; give at most 9 digits before the unit "
                    + "(999999999s is 31 years)\n",
            "\(large.stderr)")
    }

    @Test func doctorIsInHelp() throws {
        let root = try InProcess.apnsctl(["--help"])
        #expect(root.stdout.contains("doctor"))
        let help = try InProcess.apnsctl(["doctor", "--help"])
        #expect(help.status == 0)
        for word in ["--fail-within", "--env", "BadDeviceToken", "2197", "-o json"] {
            #expect(help.stdout.contains(word), "\(word)")
        }
        #expect(!help.stdout.contains("--concurrency"))
    }
}

/// The same expiry rule with a certificate from `openssl ca -startdate/-enddate`, an issuer apnsctl did not write.
@Suite struct DoctorOpenSSLCertificateTests {
    @Test func anOpenSSLCertificateThatExpiredIs77WithoutConnecting() throws {
        let fixtures = try OpenSSLFixtures()
        let d = fixtures.directory
        try d.write("index.txt", "")
        try d.write("serial", "1000\n")
        try d.write(
            "ca.cnf",
            """
            [ ca ]
            default_ca = test
            [ test ]
            dir = .
            database = index.txt
            new_certs_dir = .
            serial = serial
            default_md = sha256
            policy = any
            unique_subject = no
            [ any ]
            commonName = supplied

            """)
        let made = try CommandRunner.run(
            "openssl",
            [
                "ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key",
                "-in", "client.csr", "-out", "old.pem", "-notext",
                "-startdate", "20200101000000Z", "-enddate", "20200301000000Z",
            ],
            directory: d.path)
        try #require(made.status == 0, "\(made.stderr)")
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let cache = try TemporaryDirectory(prefix: "cache")
        let r = try InProcess.apnsctl(
            [
                "doctor", "--cert", d.file("old.pem"), "--key", fixtures.clientKey, "--ca-file", fixtures.caCert,
                "--endpoint", "https://127.0.0.1:\(listener.localPort)", "--topic", "com.example.app", "-o", "json",
            ],
            environment: ["XDG_CACHE_HOME": cache.path])
        #expect(r.status == 77, "\(r.stdout)\(r.stderr)")
        #expect(
            r.lines.count == 1 && r.lines[0].contains(#""status":"fail""#)
                && r.lines[0].contains("2020-03-01T00:00:00Z"), "\(r.stdout)")
        #expect(listener.accept() == nil)
    }
}
