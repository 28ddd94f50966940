import APNSCore
import APNSCrypto
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `--env auto` against two mocks, one playing sandbox and one production, each rejecting the other's
/// tokens with BadDeviceToken (as Apple's two environments do): each device gets exactly one result,
/// from the environment that accepted it, and the mocks' logs show each device sent at most once to each.
@Suite struct SendAutoEnvironmentTests {
    static let sandboxToken = "5a" + String(repeating: "0", count: 61) + "1"
    static let productionToken = "9b" + String(repeating: "0", count: 61) + "2"
    static let strayToken = "cc" + String(repeating: "0", count: 61) + "3"

    /// The two mocks with shared credentials; `sandboxRejects`/`productionRejects` answer BadDeviceToken.
    struct Pair {
        let sandbox: InProcessMock
        let production: InProcessMock

        init(sandboxRejects: [String], productionRejects: [String]) throws {
            sandbox = try InProcessMock(
                ["--env", "sandbox"] + sandboxRejects.flatMap { ["--reject", "\($0)=BadDeviceToken"] },
                keepingLog: true)
            production = try InProcessMock(
                ["--env", "production"] + productionRejects.flatMap { ["--reject", "\($0)=BadDeviceToken"] },
                keepingLog: true, sharingCredentialsWith: sandbox)
        }

        var endpoints: [String] {
            ["--endpoint", "sandbox=\(sandbox.endpoint)", "--endpoint", "production=\(production.endpoint)"]
        }

        func send(_ extra: [String], token: Bool = false, timeout: Double = 120) throws -> CommandResult {
            let cache = try TemporaryDirectory(prefix: "cache")
            let auth =
                token
                ? ["--auth-key", sandbox.authKey, "--team-id", sandbox.teamID, "--topic", sandbox.bundleID]
                : ["--cert", sandbox.certificate]
            return try InProcess.apnsctl(
                ["send", "{\"aps\":{\"alert\":\"hi\"}}", "--env", "auto", "--ca-file", sandbox.caFile]
                    + endpoints + auth + extra, environment: ["XDG_CACHE_HOME": cache.path], timeout: timeout)
        }
    }

    static let standardPair: @Sendable () throws -> Pair = {
        try Pair(sandboxRejects: [productionToken, strayToken], productionRejects: [sandboxToken, strayToken])
    }

    @Test(arguments: [false, true])
    func eachTokenEndsInItsOwnEnvironment(_ tokenAuth: Bool) throws {
        let pair = try Self.standardPair()
        let r = try pair.send(
            ["-d", Self.sandboxToken, "-d", Self.productionToken, "-d", Self.strayToken], token: tokenAuth)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.lines.count == 4, "\(r.stdout)")
        let sandboxLine = r.lines.first { $0.contains("5a00…0001") } ?? ""
        #expect(sandboxLine.hasPrefix("accepted  200") && sandboxLine.contains("  sandbox  "), "\(sandboxLine)")
        #expect(!sandboxLine.contains("belongs"))
        let productionLine = r.lines.first { $0.contains("9b00…0002") } ?? ""
        #expect(
            productionLine.hasPrefix("accepted  200") && productionLine.contains("  production  "), "\(productionLine)")
        #expect(
            productionLine.hasSuffix(
                "(sandbox answered BadDeviceToken: this token belongs to production: a TestFlight/App Store build)"))
        let strayLine = r.lines.first { $0.hasPrefix("rejected") } ?? ""
        #expect(
            strayLine.contains("BadDeviceToken") && strayLine.contains("Both environments refused it"), "\(strayLine)")
        #expect(r.lines.last == "sent 3: 2 accepted, 1 rejected (BadDeviceToken 1)")
        // Each mock saw each token at most once, and production saw only sandbox's refusals.
        let sandboxSeen = pair.sandbox.answersPerDevice(expectingAtLeast: 3)
        let productionSeen = pair.production.answersPerDevice(expectingAtLeast: 2)
        #expect(sandboxSeen == [Self.sandboxToken: 1, Self.productionToken: 1, Self.strayToken: 1])
        #expect(productionSeen == [Self.productionToken: 1, Self.strayToken: 1])
    }

    @Test func jsonNamesTheEnvironmentAndEndpointThatAnswered() throws {
        let pair = try Self.standardPair()
        let r = try pair.send([
            "-d", Self.sandboxToken, "-d", Self.productionToken, "-d", Self.strayToken, "-o", "json",
        ])
        #expect(r.status == 1)
        #expect(r.lines.count == 3)
        let objects = try r.lines.map { try jsonObject($0) }
        func object(_ device: String) -> [String: Any] { objects.first { $0["device"] as? String == device } ?? [:] }
        #expect(object(Self.sandboxToken)["environment"] as? String == "sandbox")
        #expect(object(Self.sandboxToken)["endpoint"] as? String == pair.sandbox.endpoint)
        #expect(object(Self.sandboxToken)["bad_device_token_in"] == nil)
        #expect(object(Self.productionToken)["environment"] as? String == "production")
        #expect(object(Self.productionToken)["endpoint"] as? String == pair.production.endpoint)
        #expect(object(Self.productionToken)["bad_device_token_in"] as? String == "sandbox")
        #expect(object(Self.strayToken)["status"] as? Int == 400)
        #expect(object(Self.strayToken)["reason"] as? String == "BadDeviceToken")
        #expect(object(Self.strayToken)["environment"] as? String == "production")
        // The hint is the text output's: both environments refused it, not one environment's advice.
        #expect(
            (object(Self.strayToken)["hint"] as? String)?.hasPrefix("Both environments refused it") == true,
            "\(object(Self.strayToken))")
    }

    @Test func aMixedBatchGivesEachDeviceOneResult() throws {
        // 600 devices: every third a production token, every seventh valid nowhere, the rest sandbox tokens.
        let tokens = (1...600).map { SendDeliveryTests.token($0) }
        let production = tokens.enumerated().filter { $0.offset % 3 == 0 && $0.offset % 7 != 0 }.map(\.element)
        let stray = tokens.enumerated().filter { $0.offset % 7 == 0 }.map(\.element)
        let pair = try Pair(
            sandboxRejects: production + stray,
            productionRejects: tokens.filter { !production.contains($0) })
        let scratch = try TemporaryDirectory(prefix: "auto-batch")
        let file = try scratch.write("devices.txt", tokens.joined(separator: "\n") + "\n")
        let r = try pair.send(["--devices", file, "-o", "json"], timeout: 300)
        #expect(r.status == 1, "\(r.stderr.suffix(400))")
        let devices = SendDeliveryTests.devices(in: r.lines)
        #expect(devices.count == 600)
        #expect(Set(devices).count == 600, "a device got more than one result")
        let productionAccepted = r.lines.filter {
            $0.contains("\"status\":200") && $0.contains("\"environment\":\"production\"")
        }
        #expect(productionAccepted.count == production.count)
        #expect(r.lines.filter { $0.contains("\"status\":400") }.count == stray.count)
        #expect(
            r.lines.filter { $0.contains("\"status\":200") && $0.contains("\"environment\":\"sandbox\"") }.count
                == 600 - production.count - stray.count)
        #expect(pair.sandbox.answersPerDevice(expectingAtLeast: 600).values.allSatisfy { $0 == 1 })
        let productionSeen = pair.production.answersPerDevice(expectingAtLeast: production.count + stray.count)
        #expect(productionSeen.count == production.count + stray.count)
        #expect(productionSeen.values.allSatisfy { $0 == 1 })
    }

    @Test func anUnreachableSecondEnvironmentKeepsTheFirstAnswerOnTheLine() throws {
        let sandbox = try InProcessMock(["--env", "sandbox", "--reject", "\(Self.productionToken)=BadDeviceToken"])
        let closed = try RefusingPort()
        defer { withExtendedLifetime(closed) {} }  // refusing until the test ends
        let port = closed.port
        let r = try InProcess.apnsctl([
            "send", "{\"aps\":{\"alert\":\"hi\"}}", "--env", "auto", "--ca-file", sandbox.caFile,
            "--endpoint", "sandbox=\(sandbox.endpoint)", "--endpoint", "production=https://127.0.0.1:\(port)",
            "--cert", sandbox.certificate, "-d", Self.productionToken,
        ])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.lines.count == 1)
        #expect(
            r.lines.first?.hasPrefix("failed    ---  \(Self.productionToken)  cannot connect to 127.0.0.1:\(port)")
                == true, "\(r.stdout)")
        #expect(r.lines.first?.hasSuffix("(sandbox had answered BadDeviceToken)") == true, "\(r.stdout)")
        // Sent once (sandbox answered it), so not "never sent", in the summary and in the history.
        let home = try TemporaryDirectory(prefix: "auto-history")
        let two = try InProcess.apnsctl(
            [
                "send", "{\"aps\":{\"alert\":\"hi\"}}", "--env", "auto", "--ca-file", sandbox.caFile,
                "--endpoint", "sandbox=\(sandbox.endpoint)", "--endpoint", "production=https://127.0.0.1:\(port)",
                "--cert", sandbox.certificate, "-d", Self.productionToken, "-d", Self.sandboxToken,
            ], environment: ["XDG_STATE_HOME": home.path])
        #expect(two.status == 69, "\(two.stderr)")
        #expect(two.lines.last == "sent 2: 1 accepted, 1 failed", "\(two.stdout)")
        #expect(!two.stdout.contains("never sent") && !two.stderr.contains("never sent"), "\(two.stdout)")
        let list = try InProcess.apnsctl(["history", "list"], environment: ["XDG_STATE_HOME": home.path])
        #expect(list.stdout.hasSuffix("2 devices: 1 accepted, 1 failed\n"), "\(list.stdout)")
    }

    @Test(arguments: [PushCertificateKind.development, .production])
    func aCertificateForOneEnvironmentIsAUsageError(_ kind: PushCertificateKind) throws {
        let creds = try TestCredentials(kind: kind)
        let r = try InProcess.apnsctl(["send", "--cert", creds.pushFile, "-d", Self.sandboxToken, "--env", "auto"])
        #expect(r.status == 64, "\(r.stderr)")
        let only = kind == .development ? "sandbox" : "production"
        #expect(
            r.stderr.hasPrefix(
                "error: --env auto: \(creds.pushFile) is for \(only) only, and auto needs both environments; pass --env \(only)"
            ),
            "\(r.stderr)")
        // doctor takes auto from a variable or a profile (on its command line, auto is refused as send's alone) and
        // says the same before probing: its probe of the one environment would pass settings every send refuses.
        let doctor = try InProcess.apnsctl(
            ["doctor", "--cert", creds.pushFile, "--endpoint", "https://127.0.0.1:9"],
            environment: ["APNSCTL_ENV": "auto"])
        #expect(doctor.status == 64, "\(doctor.stdout)\(doctor.stderr)")
        #expect(
            doctor.stderr.hasPrefix(
                "error: APNSCTL_ENV auto: \(creds.pushFile) is for \(only) only, and auto needs both environments; pass --env \(only)"
            ),
            "\(doctor.stderr)")
    }

    /// A certificate refused for the environment a variable (or a profile) chose names that origin, in send and
    /// in doctor, where "use --env" alone pointed at a flag never given; given as a flag, the flag is named.
    @Test func anEnvironmentFromAVariableIsNamedWhenTheCertificateRefusesIt() throws {
        let creds = try TestCredentials(kind: .development)
        let variable = ["APNSCTL_ENV": "production"]
        let expected =
            "is not valid for production (it allows sandbox), which APNSCTL_ENV chose; pass --env sandbox (a flag wins over it), or use a certificate for production"
        let send = try InProcess.apnsctl(
            ["send", "--cert", creds.pushFile, "-d", Self.sandboxToken, "--dry-run"], environment: variable)
        #expect(send.status == 77 && send.stderr.contains(expected), "\(send.stderr)")
        let doctor = try InProcess.apnsctl(
            ["doctor", "--cert", creds.pushFile, "--endpoint", "https://127.0.0.1:9"], environment: variable)
        #expect(doctor.status == 77 && doctor.stderr.contains(expected), "\(doctor.stdout)\(doctor.stderr)")
        let flag = try InProcess.apnsctl(
            ["send", "--cert", creds.pushFile, "-d", Self.sandboxToken, "--dry-run", "--env", "production"])
        #expect(flag.status == 77 && flag.stderr.contains("use --env matching the certificate"), "\(flag.stderr)")
    }

    @Test func dryRunSaysWhereBadDeviceTokensGoNext() throws {
        let creds = try TestCredentials()
        let r = try InProcess.apnsctl([
            "send", "--cert", creds.pushFile, "-d", Self.sandboxToken, "--env", "auto", "--dry-run",
            "--port", "2197",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("POST https://api.sandbox.push.apple.com:2197/3/device/"))
        #expect(
            r.stdout.contains(
                "# --env auto: each device sandbox answers BadDeviceToken is sent once more to production (https://api.push.apple.com:2197)"
            ))
    }

    /// `--endpoint https://api.push.apple.com` with `--env sandbox` reaches production, whose BadDeviceToken or
    /// BadCertificateEnvironment would seem to blame the token or the certificate: a warning names the host's
    /// environment, in any letter case, for a bare URL or one given for the environment.
    @Test func anEndpointThatIsApplesOtherHostWarns() throws {
        let creds = try TestCredentials()
        let base = ["send", "--cert", creds.pushFile, "-d", Self.sandboxToken, "--dry-run"]
        let sandbox = try InProcess.apnsctl(base + ["--env", "sandbox", "--endpoint", "https://API.Push.Apple.com"])
        #expect(sandbox.status == 0, "\(sandbox.stderr)")
        #expect(sandbox.stdout.contains("POST https://API.Push.Apple.com:443/3/device/"), "\(sandbox.stdout)")
        #expect(
            sandbox.errorLines == [
                "warning: --endpoint https://API.Push.Apple.com:443 is Apple's production host, so these sandbox requests reach production, which refuses sandbox device tokens and certificates; leave the endpoint out (Apple's host for the environment is the default), or pass --env production if production is meant"
            ],
            "\(sandbox.stderr)")
        let production = try InProcess.apnsctl(
            base,
            environment: [
                "APNSCTL_ENV": "production", "APNSCTL_ENDPOINT": "production=https://api.sandbox.push.apple.com:2197",
            ])
        #expect(
            production.errorLines == [
                "warning: APNSCTL_ENDPOINT https://api.sandbox.push.apple.com:2197 is Apple's sandbox host, so these production requests reach sandbox, which refuses production device tokens and certificates; leave the endpoint out (Apple's host for the environment is the default), or pass --env sandbox if sandbox is meant"
            ],
            "\(production.stderr)")
        // A certificate for sandbox only is not advised to go to production.
        let sandboxOnly = try TestCredentials(kind: .development)
        let bound = try InProcess.apnsctl([
            "send", "--cert", sandboxOnly.pushFile, "-d", Self.sandboxToken, "--dry-run", "--endpoint",
            "https://api.push.apple.com",
        ])
        #expect(
            bound.errorLines == [
                "warning: --endpoint https://api.push.apple.com:443 is Apple's production host, so these sandbox requests reach production, which refuses sandbox device tokens and certificates; leave the endpoint out (Apple's host for the environment is the default)"
            ], "\(bound.stderr)")
        // Apple's older sandbox alias is Apple's sandbox host too.
        let alias = try InProcess.apnsctl(
            base + ["--env", "production", "--endpoint", "https://api.development.push.apple.com"])
        #expect(
            alias.stderr.hasPrefix(
                "warning: --endpoint https://api.development.push.apple.com:443 is Apple's sandbox host, so these production requests reach sandbox"
            ), "\(alias.stderr)")
        // channel manages channels on Apple's management hosts: those are the ones compared (a dead local proxy
        // keeps anything from leaving the machine).
        func channel(_ env: String, _ endpoint: String) throws -> CommandResult {
            try InProcess.apnsctl([
                "channel", "list", "--cert", creds.pushFile, "--env", env, "--endpoint", endpoint, "--proxy",
                "http://127.0.0.1:1", "--timeout", "2",
            ])
        }
        let crossed = try channel("sandbox", "https://api-manage-broadcast.push.apple.com:2196")
        #expect(
            crossed.stderr.hasPrefix(
                "warning: --endpoint https://api-manage-broadcast.push.apple.com:2196 is Apple's production host, so these sandbox requests reach production"
            ), "\(crossed.stderr)")
        for (env, endpoint) in [
            ("production", "https://api-manage-broadcast.push.apple.com:2196"),
            ("sandbox", "https://api.push.apple.com"),
        ] {
            let r = try channel(env, endpoint)
            #expect(!r.stderr.contains("warning:"), "\(env) \(endpoint): \(r.stderr)")
        }
    }

    /// `--env production --endpoint sandbox=URL` would go to Apple's real production host: a warning says so.
    @Test func anEndpointForAnotherEnvironmentWarns() throws {
        let creds = try TestCredentials()
        let base = ["send", "--cert", creds.pushFile, "-d", Self.sandboxToken, "--dry-run"]
        let other = try InProcess.apnsctl(
            base + ["--env", "production", "--endpoint", "sandbox=https://127.0.0.1:4443"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout.contains("POST https://api.push.apple.com:443/3/device/"))
        #expect(
            other.errorLines == [
                "warning: --endpoint gives a URL for sandbox only, so production requests go to https://api.push.apple.com:443; pass --env sandbox to use it, or add --endpoint production=URL"
            ],
            "\(other.stderr)")
        // --env auto with one environment's URL: the other one's fallback goes to Apple.
        let auto = try InProcess.apnsctl(base + ["--env", "auto", "--endpoint", "sandbox=https://127.0.0.1:4443"])
        #expect(auto.status == 0, "\(auto.stderr)")
        #expect(
            auto.errorLines == [
                "warning: --endpoint gives a URL for sandbox only, so production requests go to https://api.push.apple.com:443; add --endpoint production=URL"
            ],
            "\(auto.stderr)")
        // From a variable or a profile, the warning names it, and the URL to add goes into it (an --endpoint flag
        // would replace it whole).
        let variable = try InProcess.apnsctl(
            base + ["--env", "production"], environment: ["APNSCTL_ENDPOINT": "sandbox=https://127.0.0.1:4443"])
        #expect(
            variable.errorLines == [
                "warning: APNSCTL_ENDPOINT gives a URL for sandbox only, so production requests go to https://api.push.apple.com:443; pass --env sandbox to use it, or add production=URL to APNSCTL_ENDPOINT"
            ],
            "\(variable.stderr)")
        // Matching, bare and complete endpoints say nothing.
        for endpoint in [
            ["--env", "sandbox", "--endpoint", "sandbox=https://127.0.0.1:4443"],
            ["--env", "production", "--endpoint", "https://127.0.0.1:4443"],
            [
                "--env", "auto", "--endpoint", "sandbox=https://127.0.0.1:4443", "--endpoint",
                "production=https://127.0.0.1:4444",
            ],
        ] {
            let r = try InProcess.apnsctl(base + endpoint)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(endpoint): \(r.stderr)")
        }
        // Apple's host of the environment sent to says nothing either.
        let apple = try InProcess.apnsctl(
            base + ["--env", "production", "--endpoint", "https://api.push.apple.com:2197"])
        #expect(apple.status == 0 && apple.stderr.isEmpty, "\(apple.stderr)")
        // channel takes the same flags and has no dry run: a dead local proxy keeps anything from leaving the machine.
        let channel = try InProcess.apnsctl([
            "channel", "list", "--cert", creds.pushFile, "--env", "production",
            "--endpoint", "sandbox=https://127.0.0.1:1", "--proxy", "http://127.0.0.1:1",
            "--timeout", "2",
        ])
        #expect(
            channel.errorLines.first?.hasPrefix(
                "warning: --endpoint gives a URL for sandbox only, so production requests go to https://api-manage-broadcast.push.apple.com:2196"
            ) == true,
            "\(channel.stderr)")
    }
}
