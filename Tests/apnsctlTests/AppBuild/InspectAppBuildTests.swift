import APNSTestSupport
import Foundation
import Testing

/// `apnsctl inspect` of app builds made as Xcode makes them: each profile kind alone, `.app` folders (XML and
/// binary Info.plist, thin and fat executables), and the `.ipa` and `.xcarchive` around them, text and JSON.
@Suite struct InspectAppBuildTests {
    let team = AppBuildFixtures.team
    let bundle = AppBuildFixtures.bundle

    /// JSON output as a dictionary.
    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `inspect PATH -o json` exits 0 without a word on stderr, and its string fields are `fields`.
    static func inspectJSON(_ path: String, _ fields: [String: String]) throws -> [String: Any] {
        let r = try InProcess.apnsctl(["inspect", path, "-o", "json"])
        #expect(r.status == 0, "\(path): \(r.stderr)")
        #expect(r.stderr.isEmpty, "\(path): \(r.stderr)")
        let object = try json(r.stdout)
        for (name, value) in fields { #expect(object[name] as? String == value, "\(path): \(name)") }
        return object
    }

    /// A profile piped in (`inspect - < x.mobileprovision`) is reported as its file is: a build has no name on
    /// standard input, so its bytes tell it (it was read as a damaged credential, 77). An `.ipa` piped in is
    /// read by its path only: said so (64). A credential piped in is still one.
    @Test func aProfileOnStandardInputIsInspectedAsItsFileIs() throws {
        let fixtures = try AppBuildFixtures()
        let profile = try fixtures.profile(.development)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: profile)))
        let piped = try InProcess.apnsctl(["inspect", "-", "-o", "json"], stdin: bytes)
        #expect(piped.status == 0, "\(piped.stderr)")
        let object = try Self.json(piped.stdout)
        let given = try Self.json(try InProcess.apnsctl(["inspect", profile, "-o", "json"]).stdout)
        for field in ["kind", "bundle_id", "team_id", "aps_environment", "token_environment", "profile_kind"] {
            #expect(object[field] as? String == given[field] as? String, "\(field)")
        }
        #expect(object["kind"] as? String == "provisioning-profile")
        let ipa = try fixtures.ipa(of: try fixtures.app(profile: .development))
        let zipped = try InProcess.apnsctl(
            ["inspect", "-"], stdin: Array(try Data(contentsOf: URL(fileURLWithPath: ipa))))
        #expect(zipped.status == 64, "\(zipped.stderr)")
        #expect(
            zipped.stderr.contains("standard input holds a zip archive (an .ipa?), which inspect reads by its path"),
            "\(zipped.stderr)")
        let pem = try fixtures.directory.pem("push.pem", CredentialFixtures.development)
        let credential = try InProcess.apnsctl(
            ["inspect", "-"], stdin: Array(try Data(contentsOf: URL(fileURLWithPath: pem))))
        #expect(credential.status == 0 && credential.stdout.contains("subject"), "\(credential.stderr)")
    }

    @Test(arguments: [
        (AppBuildFixtures.Profile.development, "development", "sandbox", "development", 2),
        (.adHoc, "production", "production", "ad-hoc", 2),
        (.appStore, "production", "production", "app-store", 0),
        (.enterprise, "production", "production", "enterprise", -1),
    ])
    func eachProfileKind(
        kind: AppBuildFixtures.Profile, aps: String, environment: String, profileKind: String, devices: Int
    ) throws {
        let fixtures = try AppBuildFixtures()
        let profile = try fixtures.profile(kind)
        let object = try Self.inspectJSON(
            profile,
            [
                "kind": "provisioning-profile", "bundle_id": bundle, "team_id": team, "aps_environment": aps,
                "token_environment": environment, "profile_kind": profileKind,
            ])
        #expect(object["expired"] as? Bool == false)
        if devices >= 0 {
            #expect(object["provisioned_devices"] as? Int == devices)
        } else {
            #expect(object["provisioned_devices"] is NSNull)
        }
        let text = try InProcess.apnsctl(["inspect", profile])
        #expect(text.status == 0)
        #expect(text.stdout.contains(" \(aps) → --env \(environment)\n"), "\(text.stdout)")
    }

    @Test func anExpiredProfileIsShownThenExits77() throws {
        let fixtures = try AppBuildFixtures()
        let r = try InProcess.apnsctl(["inspect", try fixtures.profile(.expired)])
        #expect(r.status == 77)
        #expect(r.stdout.contains("EXPIRED 10 days ago") || r.stdout.contains("EXPIRED 9 days ago"), "\(r.stdout)")
        #expect(r.stderr.contains("expired on"), "\(r.stderr)")
    }

    @Test func aProfileWithoutPushSaysNoTokenWillWork() throws {
        let fixtures = try AppBuildFixtures()
        let r = try InProcess.apnsctl(["inspect", try fixtures.profile(.withoutPush), "-o", "json"])
        #expect(r.status == 0)
        let object = try Self.json(r.stdout)
        #expect(object["aps_environment"] is NSNull)
        #expect(object["token_environment"] is NSNull)
        #expect(r.stderr.contains("enable the Push Notifications capability"), "\(r.stderr)")
    }

    /// A development `.ipa` as Xcode exports it shows `development → --env sandbox`, in an `.app` too; an archive
    /// signed for development is one Distribute App has not re-signed yet, whose exported build may be production.
    @Test(arguments: [false, true]) func developmentBuildsInEveryShape(binaryInfo: Bool) throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development, binaryInfo: binaryInfo)
        let ipa = try fixtures.ipa(of: app)
        let archive = try fixtures.xcarchive(of: app)
        let archived = try InProcess.apnsctl(["inspect", archive, "-o", "json"])
        #expect(archived.status == 0, "\(archived.stderr)")
        #expect(archived.stdout.contains(#""token_environment":null"#), "\(archived.stdout)")
        #expect(archived.stderr.contains("an Xcode archive signed for development"), "\(archived.stderr)")
        let archivedText = try InProcess.apnsctl(["inspect", archive])
        #expect(
            archivedText.stdout.contains(
                " development (an archive before Distribute App): tokens are production for its exported build"),
            "\(archivedText.stdout)")
        for (path, appPath) in [(app, nil), (ipa, "Payload/Demo.app")] {
            _ = try Self.inspectJSON(
                path,
                [
                    "kind": "app", "app": appPath, "bundle_id": bundle, "team_id": team,
                    "aps_environment": "development", "executable_aps_environment": "development",
                    "token_environment": "sandbox", "profile_kind": "development",
                ].compactMapValues { $0 })
            let text = try InProcess.apnsctl(["inspect", path])
            #expect(text.stdout.contains(" development → --env sandbox\n"), "\(text.stdout)")
        }
    }

    /// The executable's signature wins over the profile, and the difference is a warning; in a fat file the
    /// arm64 slice's signature is the one read (the x86_64 slice here says the other environment).
    @Test(arguments: [false, true]) func theExecutableWinsOverTheProfile(fat: Bool) throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development, executableAPS: "production", fat: fat)
        for path in [app, try fixtures.ipa(of: app)] {
            let r = try InProcess.apnsctl(["inspect", path, "-o", "json"])
            #expect(r.status == 0, "\(r.stderr)")
            let object = try Self.json(r.stdout)
            #expect(object["aps_environment"] as? String == "production")
            #expect(object["token_environment"] as? String == "production")
            #expect((object["disagreements"] as? [String])?.count == 1)
            #expect(
                r.stderr.contains(
                    "warning: \(path): aps-environment: the executable is signed with production, the profile says development; iOS uses the executable's"
                ), "\(r.stderr)")
        }
    }

    @Test func anAppStoreDownloadIsProduction() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: nil)
        let r = try InProcess.apnsctl(["inspect", try fixtures.ipa(of: app)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("production → --env production"), "\(r.stdout)")
        #expect(r.stdout.contains("none embedded: an App Store download, whose tokens are production"))
    }

    /// Signed for development without a profile (a simulator's or locally signed build) is no App Store download,
    /// whose tokens are production: the report does not say both.
    @Test func aDevelopmentSignatureWithoutAProfileIsNoAppStoreDownload() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app("Local.app", profile: nil, executableAPS: "development")
        let r = try InProcess.apnsctl(["inspect", app])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("development → --env sandbox"), "\(r.stdout)")
        #expect(r.stdout.contains("none embedded, yet signed for development"), "\(r.stdout)")
        #expect(!r.stdout.contains("App Store"), "\(r.stdout)")
    }

    /// An `.ipa` or a profile given as the payload (`send Demo.ipa`, `validate Demo.ipa`) is named as an app build,
    /// not as a JSON error about the letter P.
    @Test func aBuildGivenAsThePayloadIsNamed() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development)
        let ipa = try fixtures.ipa(of: app)
        let profile = app + "/embedded.mobileprovision"
        let r = try InProcess.apnsctl(["validate", ipa, profile])
        #expect(r.status == 65)
        #expect(r.stdout.contains("not JSON but a zip archive (an .ipa?): an app build, not a payload"), "\(r.stdout)")
        #expect(
            r.stdout.contains("not JSON but a provisioning profile (signed DER): an app build, not a payload"),
            "\(r.stdout)")
    }

    /// A bundle id no topic header can carry (a blank, a line break, a stray dot, a letter outside ASCII) is a
    /// malformed build, 65 before anything connects: sent, it was an illegal header, reset by the server, "may
    /// have been delivered". A profile's wildcard is a bundle id still.
    @Test func aBundleIDNoTopicCanCarryIsAMalformedBuild() throws {
        let fixtures = try AppBuildFixtures()
        for (i, bundle) in ["com.example.demo ", "com.example.demo.", "com..demo", "com.example.d\u{E9}mo"].enumerated()
        {
            let app = try fixtures.app("Bad\(i).app", profile: .development, bundle: bundle)
            let r = try InProcess.apnsctl(["inspect", app])
            #expect(r.status == 65, "\(bundle): \(r.stderr)")
            #expect(
                r.stderr.hasPrefix(
                    "error: \(app)/Info.plist: not a readable app build: CFBundleIdentifier \"\(bundle)\" is not a bundle id"
                ),
                "\(r.stderr)")
            let send = try InProcess.apnsctl(
                [
                    "send", "--app", app, "-d", String(repeating: "ab", count: 32), "--alert", "hi",
                    "--auth-key", fixtures.directory.file("none.p8"), "--key-id", "ABCDE12345", "--team-id",
                    "TEAMID1234",
                ])
            #expect(send.status == 65, "\(send.stderr)")
        }
        // A signed profile whose application-identifier is no bundle id says so through --app too (it is a build:
        // its own fault, not "a property list").
        let spaced = try fixtures.profile(.development, bundle: "com.example.my app", name: "spaced.mobileprovision")
        let viaApp = try InProcess.apnsctl(
            [
                "send", "--app", spaced, "-d", String(repeating: "ab", count: 32), "--alert", "hi",
                "--auth-key", fixtures.directory.file("none.p8"), "--key-id", "ABCDE12345", "--team-id", "TEAMID1234",
            ])
        #expect(viaApp.status == 65, "\(viaApp.stderr)")
        #expect(
            viaApp.stderr.contains("application-identifier \"com.example.my app\" is not a bundle id"),
            "\(viaApp.stderr)")
        // A wildcard is a whole last part, as the portal makes it.
        let glued = try fixtures.profile(.development, bundle: "com.example*", name: "glued.mobileprovision")
        #expect(try InProcess.apnsctl(["inspect", glued]).status == 65)
        let wildcard = try fixtures.profile(.development, bundle: "com.example.*", name: "wild.mobileprovision")
        #expect(
            try Self.inspectJSON(wildcard, ["bundle_id": "com.example.*"])["token_environment"] as? String == "sandbox")
    }

    /// An app extension (a notification service extension's `.appex`) is not the app its pushes go to: refused
    /// (65), saying to give the app that holds it, rather than read as an app of its own bundle id.
    @Test func anAppExtensionIsNotTheApp() throws {
        let fixtures = try AppBuildFixtures()
        let appex = try fixtures.app("NSE.appex", profile: .development, bundle: bundle + ".NSE")
        let r = try InProcess.apnsctl(["inspect", appex])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: \(appex): an app extension, not an app: pushes go to the app that holds it"))
    }

    /// A profile's dates past 2069 (beyond the 32-bit seconds libplist gives) are not read as 1932, expired; and a
    /// macOS profile's `com.apple.developer.aps-environment` is its push entitlement.
    @Test func aFarExpiryAndAMacProfileAreReadAsTheySay() throws {
        let fixtures = try AppBuildFixtures()
        let far = AppBuildFixtures.profileXML(.appStore).replacing(
            /<key>ExpirationDate<\/key><date>[^<]*<\/date>/,
            with: "<key>ExpirationDate</key><date>2075-01-01T00:00:00Z</date>")
        let farProfile = try fixtures.signed(far, as: "far.mobileprovision")
        let r = try InProcess.apnsctl(["inspect", farProfile, "-o", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("1932") && !r.stdout.contains(#""expired":true"#), "\(r.stdout)")
        let mac = AppBuildFixtures.profileXML(.appStore).replacing(
            "<key>aps-environment</key>", with: "<key>com.apple.developer.aps-environment</key>")
        #expect(mac != AppBuildFixtures.profileXML(.appStore))
        let macProfile = try fixtures.signed(mac, as: "mac.provisionprofile")
        _ = try Self.inspectJSON(macProfile, ["token_environment": "production", "aps_environment": "production"])
    }

    /// No profile and no signed entitlements is a simulator's or an unsigned build, never an App Store download
    /// (always signed): its tokens' environment is unknown, so no --env is refused and no capability is missed.
    @Test func anUnsignedBuildSaysNothingOfItsTokens() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app("Sim.app", profile: nil, signed: false)
        let r = try InProcess.apnsctl(["inspect", app])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdout.contains("(none signed): an unsigned build says nothing"), "\(r.stdout)")
        #expect(r.stdout.contains("none embedded, and the executable is not signed"), "\(r.stdout)")
        #expect(!r.stdout.contains("App Store"), "\(r.stdout)")
        let json = try InProcess.apnsctl(["inspect", app, "-o", "json"])
        #expect(json.stdout.contains(#""token_environment":null"#), "\(json.stdout)")
        let send = try InProcess.apnsctl(
            [
                "send", "--app", app, "--env", "sandbox", "-d", String(repeating: "ab", count: 32), "--alert", "hi",
                "--auth-key", fixtures.directory.file("none.p8"), "--key-id", "ABCDE12345", "--team-id", "TEAMID1234",
            ])
        #expect(!send.stderr.contains("belong to production"), "\(send.stderr)")
        #expect(send.status == 66 && send.stderr.contains("none.p8"), "the credential is what stops it: \(send.stderr)")
    }

    /// A build renamed (an `.ipa` as `.zip`, a profile as `.der`) is found by its content, as `inspect --help` says; a
    /// profile given to `--cert` and a certificate given to `--app` are each told the flag they belong to.
    @Test func aBuildIsKnownByItsContentAndGivenToTheRightFlag() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development)
        let zip = fixtures.directory.file("Demo.zip")
        try FileManager.default.copyItem(atPath: try fixtures.ipa(of: app), toPath: zip)
        let der = fixtures.directory.file("profile.der")
        try FileManager.default.copyItem(atPath: app + "/embedded.mobileprovision", toPath: der)
        for path in [zip, der] {
            let r = try InProcess.apnsctl(["inspect", path])
            #expect(r.status == 0 && r.stdout.contains("aps-environment: development"), "\(path): \(r.stderr)")
        }
        let device = String(repeating: "ab", count: 32)
        let asCert = try InProcess.apnsctl(["send", "-d", device, "--alert", "hi", "--topic", "t", "--cert", der])
        #expect(asCert.status == 77, "\(asCert.stderr)")
        #expect(
            asCert.stderr.contains(
                "--cert \(der): a provisioning profile, not a certificate or key; give it with --app"),
            "\(asCert.stderr)")
        // convert has no --app and takes no .p8: it names what it takes.
        let converted = try InProcess.apnsctl(["convert", der, "-o", fixtures.directory.file("profile.pem")])
        #expect(converted.status == 77, "\(converted.stderr)")
        #expect(
            converted.errorLines == [
                "error: \(der): a provisioning profile, not a certificate or key; convert takes the push certificate: a .p12, or a .pem holding it and its key"
            ], "\(converted.stderr)")
        let credentials = try TestCredentials()
        let asApp = try InProcess.apnsctl(
            ["send", "-d", device, "--alert", "hi", "--cert", credentials.pushFile, "--app", credentials.pushFile])
        #expect(asApp.status == 65, "\(asApp.stderr)")
        #expect(
            asApp.stderr.contains("a certificate or key (PEM), not an app build; give it with --cert"),
            "\(asApp.stderr)")
        // Other text given to --app is said for what it is, not called a certificate: an Info.plist, a profile
        // saved as PEM (its DER is what Apple gives), a JSON payload (no guess).
        let pemProfile = fixtures.directory.file("profile.pem")
        try CommandRunner.run(
            "openssl", ["cms", "-cmsout", "-inform", "DER", "-in", der, "-outform", "PEM", "-out", pemProfile])
        let texts: [(String, String)] = [
            (app + "/Info.plist", "a property list (an Info.plist, entitlements, export options), not an app build"),
            (pemProfile, "a provisioning profile in PEM form; apnsctl reads it as Apple gives it (DER)"),
            (try fixtures.directory.write("p.json", "{\n\"aps\":{}\n}\n"), "not a readable app build"),
        ]
        for (path, words) in texts {
            let r = try InProcess.apnsctl([
                "send", "-d", device, "--alert", "hi", "--cert", credentials.pushFile, "--app", path,
            ])
            #expect(r.status == 65, "\(path): \(r.stderr)")
            #expect(r.stderr.contains("--app \(path): \(words)"), "\(path): \(r.stderr)")
            #expect(!r.stderr.contains("a certificate or key"), "\(path): \(r.stderr)")
        }
        // A .p7b bundle of certificates is signed data too, but holds no property list: no profile.
        let p7b = fixtures.directory.file("chain.p7b")
        try CommandRunner.run(
            "openssl", ["crl2pkcs7", "-nocrl", "-certfile", credentials.pushFile, "-outform", "DER", "-out", p7b])
        let bundle = try InProcess.apnsctl(["send", "-d", device, "--alert", "hi", "--topic", "t", "--cert", p7b])
        #expect(bundle.status != 0 && !bundle.stderr.contains("provisioning profile"), "\(bundle.stderr)")
    }

    @Test func aMissingBuildIs66() throws {
        let dir = try TemporaryDirectory()
        let r = try InProcess.apnsctl(["inspect", dir.file("Gone.ipa")])
        #expect(r.status == 66)
        #expect(r.stderr.contains("Gone.ipa: no such file or folder"), "\(r.stderr)")
    }
}
