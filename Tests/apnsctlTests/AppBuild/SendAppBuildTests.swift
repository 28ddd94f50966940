import APNSTestSupport
import Foundation
import Testing

/// `send --app` against two mocks, one playing sandbox and one production, each refusing the other's token
/// with BadDeviceToken: the build's aps-environment picks the server and its bundle id the topic, and every
/// refusal (another team, a certificate for another bundle, an --env the tokens do not belong to) is exit 77
/// before anything connects.
@Suite struct SendAppBuildTests {
    static let token = "5a" + String(repeating: "0", count: 61) + "1"

    struct Setup {
        let sandbox: InProcessMock
        let production: InProcessMock
        let fixtures: AppBuildFixtures

        init() throws {
            sandbox = try InProcessMock(keepingLog: true)
            production = try InProcessMock(
                ["--env", "production", "--reject", "\(SendAppBuildTests.token)=BadDeviceToken"], keepingLog: true,
                sharingCredentialsWith: sandbox)
            fixtures = try AppBuildFixtures()
        }

        /// An `.ipa` of `profile` for the mocks' team and bundle (or `team`, `bundle`).
        func ipa(_ profile: AppBuildFixtures.Profile, team: String? = nil, bundle: String? = nil) throws -> String {
            let app = try fixtures.app(
                "\(profile.rawValue)-\(team ?? "")-\(bundle ?? "").app", profile: profile,
                bundle: bundle ?? sandbox.bundleID, team: team ?? sandbox.teamID)
            return try fixtures.ipa(of: app, as: "\(profile.rawValue)-\(team ?? "")-\(bundle ?? "").ipa")
        }

        /// The variables for `-p mock` and `-p mock-token` against the sandbox mock, with folders of `home`.
        func mockProfileEnvironment(_ home: TemporaryDirectory) -> [String: String] {
            [
                "APNSCTL_MOCK_STATE_DIR": sandbox.stateDirectory.path, "XDG_CONFIG_HOME": home.file("config"),
                "XDG_CACHE_HOME": home.file("cache"), "XDG_STATE_HOME": home.file("state"),
            ]
        }

        func send(_ extra: [String], token auth: Bool = false) throws -> CommandResult {
            let cache = try TemporaryDirectory(prefix: "cache")
            let credentials =
                auth
                ? ["--auth-key", sandbox.authKey, "--team-id", sandbox.teamID] : ["--cert", sandbox.certificate]
            return try InProcess.apnsctl(
                ["send", "--alert", "hi", "-d", SendAppBuildTests.token, "--ca-file", sandbox.caFile]
                    + ["--endpoint", "sandbox=\(sandbox.endpoint)", "--endpoint", "production=\(production.endpoint)"]
                    + credentials + extra, environment: ["XDG_CACHE_HOME": cache.path])
        }
    }

    /// A development build's token goes to the sandbox, with the bundle id as the topic (token auth has no
    /// other); an App Store build's goes to production, which here refuses it.
    @Test(arguments: [false, true]) func theBuildChoosesEnvironmentAndTopic(tokenAuth: Bool) async throws {
        try await offThePool {
            let setup = try Setup()
            let development = try setup.send(["--app", try setup.ipa(.development)], token: tokenAuth)
            #expect(development.status == 0, "\(development.stderr)")
            #expect(development.stdout.contains("  sandbox  "), "\(development.stdout)")
            let appStore = try setup.send(["--app", try setup.ipa(.appStore)], token: tokenAuth)
            #expect(appStore.status == 1, "\(appStore.stderr)")
            #expect(appStore.stdout.contains("BadDeviceToken") && appStore.stdout.contains("production"))
            #expect(setup.sandbox.answersPerDevice(expectingAtLeast: 1)[Self.token] == 1)
            #expect(setup.production.answersPerDevice(expectingAtLeast: 1)[Self.token] == 1)
        }
    }

    /// The build's bundle id is a default topic: it gets the push type's suffix whatever decides the type, here
    /// a Live Activity payload (before, only an explicit --push-type gave one, and the send failed its check).
    @Test func aLiveActivityPayloadGetsTheBuildsTopicWithItsSuffix() throws {
        let setup = try Setup()
        let cache = try TemporaryDirectory(prefix: "cache")
        let r = try InProcess.apnsctl(
            [
                "send", #"{"aps":{"event":"update","content-state":{}}}"#, "--timestamp", "now", "-d", Self.token,
                "--endpoint", "sandbox=\(setup.sandbox.endpoint)", "--ca-file", setup.sandbox.caFile,
                "--auth-key", setup.sandbox.authKey, "--team-id", setup.sandbox.teamID,
                "--app", try setup.ipa(.development), "--dry-run",
            ], environment: ["XDG_CACHE_HOME": cache.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains("apns-topic: \(setup.sandbox.bundleID).push-type.liveactivity\n"), "\(r.stdout)")
    }

    @Test func refusalsBeforeConnecting() throws {
        let setup = try Setup()
        let development = try setup.ipa(.development)
        let otherTeam = try setup.ipa(.development, team: "OTHERTEAM1")
        let cases: [(args: [String], tokenAuth: Bool, message: String)] = [
            (["--app", development, "--env", "production"], false, "device tokens belong to sandbox"),
            (["--app", development, "--env", "production"], true, "device tokens belong to sandbox"),
            (["--app", otherTeam], false, "is for another team than --app"),
            (["--app", otherTeam], true, "--team-id"),
            (["--app", try setup.ipa(.development, bundle: "com.other.app")], false, "not com.other.app"),
        ]
        for c in cases {
            let r = try setup.send(c.args, token: c.tokenAuth)
            #expect(r.status == 77, "\(c.args): \(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.contains(c.message), "\(c.args): \(r.stderr)")
        }
        #expect(setup.sandbox.answersPerDevice().isEmpty)
        #expect(setup.production.answersPerDevice().isEmpty)
    }

    /// An Xcode archive signed for development (as Xcode signs one until Distribute App re-signs it for TestFlight
    /// or the App Store, whose tokens are production) names no environment: `--env production` is taken and sent
    /// there, and without `--env` a warning says the exported build's tokens may be production.
    @Test func anArchiveBeforeDistributionTakesEitherEnvironment() throws {
        let setup = try Setup()
        let app = try setup.fixtures.app(
            "Archived.app", profile: .development, bundle: setup.sandbox.bundleID, team: setup.sandbox.teamID)
        let archive = try setup.fixtures.xcarchive(of: app)
        let production = try setup.send(["--app", archive, "--env", "production"], token: true)
        #expect(production.status == 1, "\(production.stderr)")
        #expect(production.stdout.contains("BadDeviceToken") && production.stdout.contains("production"))
        #expect(!production.stderr.contains("archive"), "\(production.stderr)")
        let unsaid = try setup.send(["--app", archive], token: true)
        #expect(unsaid.status == 0, "\(unsaid.stderr)")
        #expect(
            unsaid.stderr.contains(
                "warning: \(archive): an Xcode archive signed for development, as Xcode signs one until Distribute App re-signs it"
            ), "\(unsaid.stderr)")
        #expect(!unsaid.stderr.contains("no aps-environment"), "\(unsaid.stderr)")
        #expect(setup.production.answersPerDevice(expectingAtLeast: 1)[Self.token] == 1)
    }

    /// A certificate for the sandbox only beside a build whose tokens are production: the build chose the
    /// environment, so the advice is a certificate for production (or token auth), not "--env matching the
    /// certificate", which the build then refused in turn.
    @Test func aCertificateForTheOtherEnvironmentThanTheBuildsIsSaidSo() throws {
        let setup = try Setup()
        let credentials = try TestCredentials(bundleID: setup.sandbox.bundleID)
        let sandboxOnly = try credentials.writePushCertificate("sandbox.pem", kind: .development)
        let build = try setup.ipa(.appStore, team: "ABCDE12345")
        let r = try InProcess.apnsctl(
            [
                "send", "--alert", "hi", "-d", Self.token, "--ca-file", setup.sandbox.caFile, "--endpoint",
                "production=\(setup.production.endpoint)", "--cert", sandboxOnly, "--app", build,
            ])
        #expect(r.status == 77, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "the certificate is not valid for production (it allows sandbox), which the device tokens of --app \(build) need; use a push certificate for production, or token auth"
            ), "\(r.stderr)")
        #expect(!r.stderr.contains("use --env"), "\(r.stderr)")
        #expect(setup.production.answersPerDevice().isEmpty)
    }

    /// A topic given beside `--app` that is not the build's app (token auth lets any topic of the team through)
    /// is said: the push goes to another app than the one named. The build's own topic with a push type's suffix
    /// is not.
    @Test func aTopicOfAnotherAppThanTheBuildIsSaid() throws {
        let setup = try Setup()
        let build = try setup.ipa(.development)
        let other = try setup.send(["--app", build, "--topic", "com.example.oldapp", "--dry-run"], token: true)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(
            other.stderr.contains(
                "warning: --topic com.example.oldapp is not the app of --app \(build) (bundle id \(setup.sandbox.bundleID)): the push goes to com.example.oldapp"
            ), "\(other.stderr)")
        let own = try setup.send(
            ["--app", build, "--topic", setup.sandbox.bundleID + ".voip", "--dry-run"], token: true)
        #expect(own.status == 0, "\(own.stderr)")
        #expect(!own.stderr.contains("is not the app of"), "\(own.stderr)")
    }

    /// With the mock profile, the environment is the one the mock plays: an App Store build's token sent to the
    /// sandbox mock is refused, saying to start a mock that plays production.
    @Test func theMockProfilesEnvironmentMeetsTheBuilds() throws {
        let setup = try Setup()
        let home = try TemporaryDirectory(prefix: "home")
        let environment = setup.mockProfileEnvironment(home)
        let send = ["send", "-p", "mock", "--alert", "hi", "-d", Self.token, "--app"]
        let development = try InProcess.apnsctl(send + [try setup.ipa(.development)], environment: environment)
        #expect(development.status == 0, "\(development.stderr)")
        let appStoreBuild = try setup.ipa(.appStore)
        let appStore = try InProcess.apnsctl(send + [appStoreBuild], environment: environment)
        #expect(appStore.status == 77, "\(appStore.stderr)")
        #expect(
            appStore.stderr.contains(
                "device tokens belong to production (aps-environment production), but the mock of \(setup.sandbox.stateDirectory.path)/mock.json plays sandbox"
            ), "\(appStore.stderr)")
        #expect(appStore.stderr.contains("apnsctl mock --env production"), "\(appStore.stderr)")
        #expect(setup.sandbox.answersPerDevice(expectingAtLeast: 1)[Self.token] == 1)
        // doctor refuses it the same way, before probing a server its tokens would not work with.
        let doctor = try InProcess.apnsctl(
            ["doctor", "-p", "mock", "--app", appStoreBuild], environment: environment)
        #expect(doctor.status == 77, "\(doctor.stdout)\(doctor.stderr)")
        #expect(doctor.stderr.contains("but the mock of"), "\(doctor.stderr)")
        #expect(!doctor.stdout.contains("dns"), "\(doctor.stdout)")
        // Reported as the app check, the line a nightly report reads, not as the credentials'.
        let json = try InProcess.apnsctl(
            ["doctor", "-p", "mock", "--app", appStoreBuild, "-o", "json"], environment: environment)
        #expect(json.status == 77, "\(json.stderr)")
        #expect(
            json.stdout.hasPrefix(#"{"check":"app","environment":null,"status":"fail","detail":"#)
                && json.stdout.contains("but the mock of"), "\(json.stdout)")
    }

    /// The mock-token profile's topic is the mock's bundle id, a default: --app's build comes before it, as it comes
    /// before a certificate's (its warning said to leave out a topic the user never gave).
    @Test func theBuildsBundleComesBeforeTheMockProfilesTopic() throws {
        let setup = try Setup()
        let home = try TemporaryDirectory(prefix: "home")
        let environment = setup.mockProfileEnvironment(home)
        let build = try setup.ipa(.development, bundle: "com.example.other")
        let send = try InProcess.apnsctl(
            ["send", "-p", "mock-token", "--app", build, "--alert", "hi", "-d", Self.token], environment: environment)
        #expect(send.status == 0, "\(send.stderr)")
        #expect(!send.stderr.contains("is not the app of"), "\(send.stderr)")
        #expect(setup.sandbox.stdout.contains(#""topic":"com.example.other""#), "\(setup.sandbox.stdout)")
        #expect(!setup.sandbox.stdout.contains(#""topic":"\#(setup.sandbox.bundleID)""#), "\(setup.sandbox.stdout)")
        let doctor = try InProcess.apnsctl(["doctor", "-p", "mock-token", "--app", build], environment: environment)
        #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
        #expect(!setup.sandbox.stdout.contains(#""topic":"\#(setup.sandbox.bundleID)""#), "\(setup.sandbox.stdout)")
    }

    @Test func aBrokenBuildIs65AndAMissingOne66() throws {
        let setup = try Setup()
        let junk = try setup.fixtures.directory.write("junk.ipa", Array("PK\u{3}\u{4}junk".utf8))
        #expect(try setup.send(["--app", junk]).status == 65)
        #expect(try setup.send(["--app", setup.fixtures.directory.file("gone.ipa")]).status == 66)
    }

    /// doctor --app: an `app` line before the network, only the build's environment probed, and a build
    /// that cannot get tokens (or whose profile expired) fails with 77 without touching the network.
    @Test func doctorChecksTheBuild() throws {
        let setup = try Setup()
        let endpoints = [
            "--endpoint", "sandbox=\(setup.sandbox.endpoint)", "--endpoint", "production=\(setup.production.endpoint)",
        ]
        let base = ["doctor", "--cert", setup.sandbox.certificate, "--ca-file", setup.sandbox.caFile] + endpoints
        let development = try setup.ipa(.development)
        let good = try InProcess.apnsctl(base + ["--app", development])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.stdout.contains("ok    app "), "\(good.stdout)")
        #expect(good.stdout.contains("auth sandbox") && !good.stdout.contains("auth production"), "\(good.stdout)")
        for (profile, message) in [
            (AppBuildFixtures.Profile.withoutPush, "Push Notifications"), (.expired, "expired on"),
        ] {
            let r = try InProcess.apnsctl(base + ["--app", try setup.ipa(profile)])
            #expect(r.status == 77, "\(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("fail  app ") && r.stdout.contains(message), "\(r.stdout)")
            #expect(!r.stdout.contains("dns"), "\(r.stdout)")
            // An expired profile's days are ago, as inspect says them, never "-N days left".
            if profile == .expired {
                let app = r.lines.first { $0.hasPrefix("fail  app ") } ?? ""
                #expect(app.contains(" days ago)") && !app.contains("days left"), "\(app)")
            }
        }
        // An archive signed for development: a warning without --env, none with it (it says which).
        let app = try setup.fixtures.app(
            "Archived.app", profile: .development, bundle: setup.sandbox.bundleID, team: setup.sandbox.teamID)
        let archive = try setup.fixtures.xcarchive(of: app)
        let unsaid = try InProcess.apnsctl(base + ["--app", archive])
        #expect(unsaid.stdout.contains("warn  app ") && unsaid.stdout.contains("an Xcode archive"), "\(unsaid.stdout)")
        let said = try InProcess.apnsctl(base + ["--app", archive, "--env", "sandbox"])
        #expect(said.stdout.contains("ok    app ") && !said.stdout.contains("an Xcode archive"), "\(said.stdout)")
        // Another environment than the build's is probed as told, and the app line warns that its tokens would be
        // refused there.
        let other = try InProcess.apnsctl(base + ["--app", development, "--env", "production"])
        #expect(other.status == 0, "\(other.stdout)\(other.stderr)")
        #expect(
            other.stdout.contains("warn  app ")
                && other.stdout.contains(
                    "--env production is probed, but this build's device tokens belong to sandbox"),
            "\(other.stdout)")
        #expect(other.stdout.contains("auth production"), "\(other.stdout)")
    }

    /// A profile within --fail-within fails its line (77) and, as a certificate within it, leaves the network
    /// checks to run (they stopped there). With a .p8 key the limit is not said to be ignored: it fails the profile.
    @Test(arguments: [false, true]) func aProfileWithinFailWithinStillRunsTheNetworkChecks(token: Bool) throws {
        let setup = try Setup()
        let credentials =
            token
            ? ["--auth-key", setup.sandbox.authKey, "--team-id", setup.sandbox.teamID]
            : ["--cert", setup.sandbox.certificate]
        let r = try InProcess.apnsctl(
            ["doctor"] + credentials + [
                "--ca-file", setup.sandbox.caFile, "--endpoint", setup.sandbox.endpoint, "--app",
                try setup.ipa(.development), "--fail-within", "330d",
            ])
        #expect(r.status == 77, "\(r.stdout)\(r.stderr)")
        let app = r.lines.first { $0.hasPrefix("fail  app ") } ?? ""
        #expect(app.contains("expires within --fail-within 330d"), "\(r.stdout)")
        #expect(!r.stderr.contains("ignored"), "\(r.stderr)")
        #expect(r.stdout.contains("ok    credentials "), "the certificate is not within 330 days: \(r.stdout)")
        #expect(r.stdout.contains("auth sandbox"), "\(r.stdout)")
    }
}
