import APNSCore
import APNSTestSupport
import Foundation
import Testing

/// `apnsctl doctor` against two mocks that share credentials, one playing sandbox and one production
/// (`--endpoint sandbox=… --endpoint production=…`): what each mock received, and the report, exit code
/// and `error:` line for accepted, limited, swapped and refused credentials.
@Suite struct DoctorEndToEndTests {
    static let zeroToken = String(repeating: "0", count: 64)

    /// The two mocks with shared credentials; `arguments` go to both.
    struct Pair {
        let sandbox: InProcessMock
        let production: InProcessMock
        let cache: TemporaryDirectory

        init(_ arguments: [String] = [], sandboxArguments: [String] = [], productionArguments: [String] = []) throws {
            sandbox = try InProcessMock(["--env", "sandbox"] + arguments + sandboxArguments, keepingLog: true)
            production = try InProcessMock(
                ["--env", "production"] + arguments + productionArguments, keepingLog: true,
                sharingCredentialsWith: sandbox)
            cache = try TemporaryDirectory(prefix: "cache")
        }

        var endpoints: [String] {
            ["--endpoint", "sandbox=\(sandbox.endpoint)", "--endpoint", "production=\(production.endpoint)"]
        }

        var tokenAuth: [String] {
            ["--auth-key", sandbox.authKey, "--team-id", sandbox.teamID, "--topic", sandbox.bundleID]
        }
        var certificateAuth: [String] { ["--cert", sandbox.certificate] }

        func doctor(_ extra: [String], token: Bool) throws -> CommandResult {
            try InProcess.apnsctl(
                ["doctor", "--ca-file", sandbox.caFile] + endpoints + (token ? tokenAuth : certificateAuth) + extra,
                environment: ["XDG_CACHE_HOME": cache.path], timeout: 60)
        }
    }

    /// A credential read from standard input is named by its flag in the credentials line (`--cert -:`), not as
    /// `-:` alone.
    @Test func aCredentialFromStandardInputIsNamedByItsFlag() throws {
        let pair = try Pair()
        let read = { (path: String) in Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
        for (flags, input, named) in [
            (["--cert", "-"], try read(pair.sandbox.certificate), "--cert -: "),
            (
                [
                    "--auth-key", "-", "--key-id", pair.sandbox.keyID, "--team-id", pair.sandbox.teamID, "--topic",
                    pair.sandbox.bundleID,
                ], try read(pair.sandbox.authKey), "--auth-key -: EC P-256 key"
            ),
        ] {
            let r = try InProcess.apnsctl(
                ["doctor", "--ca-file", pair.sandbox.caFile] + pair.endpoints + flags, stdin: input,
                environment: ["XDG_CACHE_HOME": pair.cache.path], timeout: 60)
            let line = r.lines.first { $0.contains("credentials") }
            #expect(line?.contains("credentials   " + named) == true, "\(r.stdout)\n\(r.stderr)")
        }
    }

    /// The mock log's `answered` lines, parsed.
    static func answered(_ mock: InProcessMock) -> [[String: Any]] {
        _ = mock.answersPerDevice(expectingAtLeast: 1)
        let text = (try? String(contentsOfFile: mock.logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["event"] as? String == "answered" }
    }

    /// Every stdout line as a JSON object (the test fails on a line that is not one).
    static func objects(_ r: CommandResult) -> [[String: Any]] {
        r.lines.map { line in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            #expect(object != nil, "not a JSON object: \(line)")
            return object ?? [:]
        }
    }

    /// Doctor reads none of send's own values, so one send refuses (a variable's, a profile's) passed it without a
    /// word while every send stopped at 64: said as a warning, the checks run as before. doctor's own `--env both`
    /// is no such value.
    @Test func aValueSendWouldRefuseIsWarnedAbout() throws {
        let pair = try Pair()
        let plain = try pair.doctor(["--env", "both"], token: false)
        #expect(plain.status == 0 && !plain.stderr.contains("send would refuse"), "\(plain.stderr)")
        let variable = try InProcess.apnsctl(
            ["doctor", "--ca-file", pair.sandbox.caFile] + pair.endpoints + pair.certificateAuth,
            environment: ["XDG_CACHE_HOME": pair.cache.path, "APNSCTL_PRIORITY": "7"], timeout: 60)
        #expect(variable.status == 0, "\(variable.stdout)\(variable.stderr)")
        #expect(variable.lines.allSatisfy { $0.hasPrefix("ok    ") }, "\(variable.stdout)")
        #expect(
            variable.errorLines == [
                "warning: send would refuse these settings (exit 64): APNSCTL_PRIORITY=7: must be 10, 5 or 1"
            ], "\(variable.stderr)")
        let dir = try TemporaryDirectory(prefix: "doctor-send-values")
        let config = try dir.write(
            "config.toml",
            "[profiles.ci]\ncert = \"\(pair.sandbox.certificate)\"\nenv = \"both\"\nsize-limit = \"5k\"\n")
        let profile = try InProcess.apnsctl(
            ["doctor", "--config", config, "-p", "ci", "--ca-file", pair.sandbox.caFile] + pair.endpoints,
            environment: ["XDG_CACHE_HOME": pair.cache.path], timeout: 60)
        #expect(profile.status == 0, "\(profile.stdout)\(profile.stderr)")
        #expect(
            profile.stderr.contains(
                "warning: send would refuse these settings (exit 64): \(config):3: env = \"both\": both is for doctor only"
            ),
            "\(profile.stderr)")
    }

    @Test(arguments: [false, true])
    func acceptedInBothEnvironmentsWithOneProbeEach(_ token: Bool) throws {
        let pair = try Pair()
        let r = try pair.doctor([], token: token)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.lines.first?.hasPrefix("ok    credentials   ") == true, "\(r.stdout)")
        #expect(
            r.lines.contains { $0.hasPrefix("ok    auth sandbox  accepted: APNs answered BadDeviceToken") },
            "\(r.stdout)")
        #expect(r.lines.contains { $0.hasPrefix("ok    auth production  accepted") }, "\(r.stdout)")
        #expect(r.lines.map { String($0.prefix(6)) }.allSatisfy { $0 == "ok    " }, "\(r.stdout)")
        for mock in [pair.sandbox, pair.production] {
            let seen = Self.answered(mock)
            #expect(seen.count == 1, "\(seen)")
            let probe = seen.first ?? [:]
            #expect(probe["device"] as? String == Self.zeroToken)
            #expect(probe["topic"] as? String == "com.example.demo")
            #expect(probe["push_type"] as? String == "background")
            #expect(probe["priority"] as? Int == 5)
            #expect(probe["expiration"] as? String == "0")
            #expect(probe["payload_size"] as? Int == #"{"aps":{}}"#.utf8.count)
            #expect(probe["reason"] as? String == "BadDeviceToken")
            #expect(probe["auth"] as? String == (token ? "token" : "certificate"))
        }
    }

    @Test(arguments: [false, true])
    func jsonIsOneObjectPerCheck(_ token: Bool) throws {
        let pair = try Pair()
        let r = try pair.doctor(["-o", "json"], token: token)
        #expect(r.status == 0, "\(r.stderr)")
        let objects = Self.objects(r)
        let checks = objects.map { ($0["check"] as? String ?? "?") + "/" + ($0["environment"] as? String ?? "-") }
        #expect(
            checks == [
                "credentials/-", "dns/sandbox", "connect/sandbox", "tls/sandbox", "auth/sandbox",
                "dns/production", "connect/production", "tls/production", "auth/production",
            ])
        for object in objects {
            #expect(object["status"] as? String == "ok")
            #expect(object["detail"] is String)
            #expect(object.keys.contains("hint") && object.keys.contains("reason"))
            let isAuth = object["check"] as? String == "auth"
            #expect((object["reason"] as? String) == (isAuth ? "BadDeviceToken" : nil))
        }
        let credentials = objects.first ?? [:]
        if token {
            #expect(credentials["not_after"] == nil)
        } else {
            #expect((credentials["not_after"] as? String)?.hasSuffix("Z") == true)
            #expect((credentials["days_remaining"] as? Int ?? 0) > 300)
        }
    }

    @Test func aKeyLimitedToSandboxWarnsByDefaultAndFailsWhenProductionIsRequired() throws {
        let pair = try Pair(["--key-environment", "sandbox"])
        let r = try pair.doctor([], token: true)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let warn = r.lines.first { $0.hasPrefix("warn  auth production") } ?? ""
        #expect(
            warn.contains("BadEnvironmentKeyIdInToken") && warn.contains("this key is for sandbox only"), "\(r.stdout)")
        #expect(warn.contains("sandbox accepted the credentials"), "\(warn)")
        #expect(r.lines.contains { $0.hasPrefix("ok    auth sandbox") })

        for env in ["production", "both"] {
            let failed = try pair.doctor(["--env", env], token: true)
            #expect(failed.status == 1, "\(env): \(failed.stdout)\(failed.stderr)")
            #expect(
                failed.lines.contains { $0.hasPrefix("fail  auth production  403 BadEnvironmentKeyIdInToken") },
                "\(failed.stdout)")
            #expect(
                failed.errorLines.count == 1 && failed.errorLines[0].hasPrefix("error: doctor: auth production failed"),
                "\(failed.stderr)")
            let json = try pair.doctor(["--env", env, "-o", "json"], token: true)
            #expect(json.status == 1)
            let auth = Self.objects(json).first {
                $0["check"] as? String == "auth" && $0["environment"] as? String == "production"
            }
            #expect(auth?["status"] as? String == "fail")
            #expect(auth?["reason"] as? String == "BadEnvironmentKeyIdInToken")
            #expect((auth?["hint"] as? String)?.contains("limited to one environment since 2025") == true)
        }
    }

    @Test func aProductionKeyOnASandboxMockAndTheMocksOwnCertificate() throws {
        let mock = try InProcessMock(["--env", "sandbox", "--key-environment", "production"], keepingLog: true)
        let cache = try TemporaryDirectory(prefix: "cache")
        let base = ["doctor", "--env", "sandbox", "--endpoint", mock.endpoint, "--ca-file", mock.caFile]
        let r = try InProcess.apnsctl(
            base + ["--auth-key", mock.authKey, "--team-id", mock.teamID, "--topic", mock.bundleID],
            environment: ["XDG_CACHE_HOME": cache.path])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stdout.contains("BadEnvironmentKeyIdInToken") && r.stdout.contains("limited to production"), "\(r.stdout)"
        )
        let cert = try InProcess.apnsctl(base + ["--cert", mock.certificate])
        #expect(cert.status == 0, "\(cert.stdout)\(cert.stderr)")
    }

    @Test func swappedIdsNameBoth() throws {
        let pair = try Pair()
        let swapped = [
            "--auth-key", pair.sandbox.authKey, "--key-id", pair.sandbox.teamID, "--team-id", pair.sandbox.keyID,
            "--topic", pair.sandbox.bundleID,
        ]
        let r = try InProcess.apnsctl(
            ["doctor", "--ca-file", pair.sandbox.caFile] + pair.endpoints + swapped,
            environment: ["XDG_CACHE_HOME": pair.cache.path])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(
            r.lines.first?.hasPrefix("warn  credentials") == true && r.lines.first?.contains("swapped?") == true,
            "\(r.stdout)")
        let fail = r.lines.first { $0.hasPrefix("fail  auth sandbox") } ?? ""
        #expect(
            fail.contains("InvalidProviderToken") && fail.contains(pair.sandbox.keyID)
                && fail.contains(pair.sandbox.teamID)
                && fail.contains("swapped"), "\(r.stdout)")
    }

    @Test func aTopicTheCertificateLacksIsTopicDisallowed() throws {
        let pair = try Pair()
        let r = try pair.doctor(["--topic", "com.example.other"], token: false)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.lines.contains { $0.hasPrefix("fail  auth sandbox  400 TopicDisallowed") }, "\(r.stdout)")
        let logged = Self.answered(pair.sandbox).first ?? [:]
        #expect(logged["topic"] as? String == "com.example.other")
    }

    @Test func aCertificateFromAnotherCAIsRefused() throws {
        let pair = try Pair()
        let stranger = try TestCredentials()
        let r = try InProcess.apnsctl(
            ["doctor", "--cert", stranger.pushFile, "--ca-file", pair.sandbox.caFile, "--env", "both"]
                + pair.endpoints)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.lines.contains { $0.hasPrefix("fail  auth sandbox  403 BadCertificate") }, "\(r.stdout)")
        #expect(r.lines.contains { $0.hasPrefix("fail  auth production  403 BadCertificate") }, "\(r.stdout)")
    }

    @Test func aServerThatAcceptsTheProbeFails() throws {
        let pair = try Pair(["--fault-accept-probe"])
        let r = try pair.doctor(["--env", "sandbox"], token: false)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.lines.contains { $0.hasPrefix("fail  auth sandbox  200") }, "\(r.stdout)")
        #expect(Self.answered(pair.sandbox).count == 1)
    }

    @Test func mockKeyEnvironmentIsInHelpAndCheckedFaultFlagIsNot() throws {
        let help = try InProcess.apnsctl(["mock", "--help"])
        #expect(help.stdout.contains("--key-environment"))
        #expect(!help.stdout.contains("--fault-accept-probe"))
        let bad = try InProcess.apnsctl(["mock", "--port", "0", "--key-environment", "staging"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--key-environment"))
    }
}
