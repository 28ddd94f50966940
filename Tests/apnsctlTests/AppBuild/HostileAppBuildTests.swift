import APNSTestSupport
import Foundation
import Testing

@testable import APNSAppBuild

/// Builds are untrusted input: a crafted archive, executable or property list is exit 65 (or 66 when it
/// cannot be read) with a message naming the part, never a crash, a hang or a file written.
@Suite struct HostileAppBuildTests {
    /// A folder that is no app build (a state dir, a folder of keys) is a path mistake, 66, said as one; a folder
    /// that holds an Info.plist, or is named .app, is read as a build.
    @Test func aFolderThatIsNoBuildIsAPathMistake() throws {
        let fixtures = try AppBuildFixtures()
        let folder = fixtures.directory.file("keys")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try fixtures.directory.write("keys/AuthKey_ABCDE12345.p8", "not read")
        let r = try InProcess.apnsctl(["inspect", folder])
        #expect(r.status == 66, "\(r.stderr)")
        #expect(
            r.stderr
                == "error: \(folder): is a directory, not a file, and not an app build (no Info.plist or Products/Applications in it); give an .app, .xcarchive, .ipa or .mobileprovision, or a .pem, .p12 or .p8 credential\n"
        )
        // send and doctor read --app through the same reader: the same mistake, the same exit status.
        for command in [["send", "-d", String(repeating: "a", count: 64)], ["doctor"]] {
            // The build is read before the credential: this one is never opened.
            let r = try InProcess.apnsctl(command + ["--app", folder, "--cert", fixtures.directory.file("none.pem")])
            #expect(r.status == 66, "\(command): \(r.stderr)")
            #expect(
                r.stderr.contains("--app \(folder): is a directory, not a file, and not an app build")
                    && r.stderr.hasSuffix("give an .app, .xcarchive, .ipa or .mobileprovision\n"), "\(r.stderr)")
        }
        try FileManager.default.createDirectory(
            atPath: fixtures.directory.file("Empty.app"), withIntermediateDirectories: true)
        let app = try InProcess.apnsctl(["inspect", fixtures.directory.file("Empty.app")])
        #expect(app.status == 65 && app.stderr.contains("no Info.plist"), "\(app.stderr)")
    }

    /// Runs `inspect PATH` and expects exit 65 with `reason` in the message, and nothing new in the fixtures'
    /// folder or its parent.
    static func expectCorrupt(_ path: String, _ reason: String, in fixtures: AppBuildFixtures) throws {
        let parent = URL(fileURLWithPath: fixtures.directory.path).deletingLastPathComponent().path
        let before = try FileManager.default.contentsOfDirectory(atPath: fixtures.directory.path).sorted()
        let beforeParent = Set(try FileManager.default.contentsOfDirectory(atPath: parent))
        let r = try InProcess.apnsctl(["inspect", path], timeout: 30)
        #expect(r.status == 65, "\(path): \(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("not a readable app build") && r.stderr.contains(reason), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixtures.directory.path).sorted() == before)
        let added = Set(try FileManager.default.contentsOfDirectory(atPath: parent)).subtracting(beforeParent)
        #expect(!added.contains { $0.hasPrefix("evil") || $0 == "etc" }, "\(added)")
    }

    /// A build folder's files are read as an `.ipa`'s entries are: a FIFO where Info.plist or the profile belongs
    /// is refused at once (it was waited on for ever), an oversized Info.plist is 65 as in an `.ipa`, and a missing
    /// executable or Info.plist is named by its place in the build.
    @Test func aBuildFoldersFilesAreCheckedAsAnArchivesEntriesAre() throws {
        let fixtures = try AppBuildFixtures()
        for name in ["Info.plist", "embedded.mobileprovision"] {
            let app = try fixtures.app(profile: .development)
            try FileManager.default.removeItem(atPath: app + "/" + name)
            #expect(mkfifo(app + "/" + name, 0o600) == 0)
            try Self.expectCorrupt(app, "Demo.app/\(name): not a readable app build: not a regular file", in: fixtures)
            try FileManager.default.removeItem(atPath: app)
        }
        let big = try fixtures.app(profile: .development)
        let padded = try String(contentsOfFile: big + "/Info.plist", encoding: .utf8)
            .replacingOccurrences(of: "<dict>", with: "<dict>" + String(repeating: " ", count: 2 << 20))
        try padded.write(toFile: big + "/Info.plist", atomically: true, encoding: .utf8)
        try Self.expectCorrupt(big, "more than the 1048576 apnsctl reads", in: fixtures)
        try FileManager.default.removeItem(atPath: big)
        let app = try fixtures.app(profile: .development)
        try FileManager.default.removeItem(atPath: app + "/Demo")
        try Self.expectCorrupt(
            app, "Demo.app: not a readable app build: no Demo, the executable Info.plist names", in: fixtures)
        let whole = try fixtures.app("Whole.app", profile: .development)
        let archive = try fixtures.xcarchive(of: whole)
        try FileManager.default.removeItem(atPath: archive + "/Products/Applications/Whole.app/Info.plist")
        try Self.expectCorrupt(archive, "no Products/Applications/Whole.app/Info.plist", in: fixtures)
        // Xcode's archive of a framework: an Info.plist of its own, no app.
        let library = fixtures.directory.file("Library.xcarchive")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try fixtures.directory.write(
            "Library.xcarchive/Info.plist",
            #"<?xml version="1.0"?><plist version="1.0"><dict><key>Name</key><string>Kit</string></dict></plist>"#)
        try Self.expectCorrupt(library, "no Products/Applications: an archive of no app", in: fixtures)
    }

    /// An `.ipa` with two entries of one name (another app's Info.plist first): unzip tools disagree on which
    /// counts, so the build is refused rather than read as either.
    @Test func twoEntriesOfOneNameAreRefused() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development)
        let other = try fixtures.app("Other.app", profile: .development, bundle: "com.evil")
        try fixtures.zip(
            "dup.ipa",
            [
                ("Payload/Demo.app/Info.plist", other + "/Info.plist"),
                ("Payload/Demo.app/Info.plist", app + "/Info.plist"),
                ("Payload/Demo.app/Demo", app + "/Demo"),
            ])
        try Self.expectCorrupt(
            fixtures.directory.file("dup.ipa"), "two entries named Payload/Demo.app/Info.plist", in: fixtures)
    }

    @Test func aZipBombStopsAtTheCap() throws {
        let fixtures = try AppBuildFixtures()
        let zeros = try fixtures.directory.write("zeros", [UInt8](repeating: 0, count: 40 << 20))
        try fixtures.zip("bomb.ipa", [("Payload/Demo.app/Info.plist", zeros)])
        try Self.expectCorrupt(fixtures.directory.file("bomb.ipa"), "more than the 1048576 apnsctl reads", in: fixtures)
    }

    @Test func pathTraversalNamesNameNoApp() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development)
        try fixtures.zip(
            "traversal.ipa",
            [
                ("Payload/../../evil.app/Info.plist", app + "/Info.plist"),
                ("../../etc/evil", app + "/Info.plist"),
                ("/evil/Info.plist", app + "/Info.plist"),
                ("Payload/x/../../evil.app/Info.plist", app + "/Info.plist"),
            ])
        try Self.expectCorrupt(fixtures.directory.file("traversal.ipa"), "no Payload/NAME.app/Info.plist", in: fixtures)
    }

    @Test func anExecutableNamedOutsideTheAppIsRefused() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development)
        let info = try String(contentsOfFile: app + "/Info.plist", encoding: .utf8)
            .replacingOccurrences(of: "<string>Demo</string>", with: "<string>../../../etc/passwd</string>")
        try info.write(toFile: app + "/Info.plist", atomically: true, encoding: .utf8)
        try Self.expectCorrupt(app, "CFBundleExecutable is not a file name in the app", in: fixtures)
        try Self.expectCorrupt(try fixtures.ipa(of: app), "CFBundleExecutable is not a file name", in: fixtures)
    }

    /// Truncated, looping and out-of-bounds executables, thin and inside an `.ipa`.
    @Test(arguments: ["truncated", "header only", "zero-size command", "signature past the end", "superblob count"])
    func malformedExecutables(kind: String) throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: app + "/Demo")))
        let reason: String
        switch kind {
        case "truncated":
            bytes = Array(bytes[..<60])
            reason = "load commands run past the end of the file"
        case "header only":
            bytes = Array(bytes[..<20])
            reason = "too short for a Mach-O header"
        case "zero-size command":
            bytes.replaceSubrange(36..<40, with: MachOFixture.le(0))
            reason = "a load command of 0 bytes"
        case "signature past the end":
            bytes.replaceSubrange((32 + 24 + 8)..<(32 + 24 + 12), with: MachOFixture.le(0xFFFF_FFF0))
            reason = "the code signature lies outside the executable"
        default:
            bytes.replaceSubrange((4096 + 8)..<(4096 + 12), with: MachOFixture.be(0x7FFF_FFFF))
            reason = "a SuperBlob index past its end"
        }
        try Data(bytes).write(to: URL(fileURLWithPath: app + "/Demo"))
        try Self.expectCorrupt(app, reason, in: fixtures)
        try Self.expectCorrupt(try fixtures.ipa(of: app), reason, in: fixtures)
    }

    /// A property list nested 10,000 deep would run libplist off the stack: refused before it is parsed.
    @Test func deeplyNestedPropertyListsAreRefused() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development)
        try AppBuildFixtures.deepXMLPlist(depth: 10_000).write(
            toFile: app + "/Info.plist", atomically: true, encoding: .utf8)
        try Self.expectCorrupt(app, "nested more than 64 levels deep", in: fixtures)
        try fixtures.directory.write("Demo.app/Info.plist", AppBuildFixtures.deepBinaryPlist(depth: 10_000))
        try Self.expectCorrupt(app, "nested more than 64 levels deep", in: fixtures)
        try Self.expectCorrupt(try fixtures.ipa(of: app), "nested more than 64 levels deep", in: fixtures)
        let profile = try fixtures.signed(AppBuildFixtures.deepXMLPlist(depth: 10_000), as: "deep.mobileprovision")
        try Self.expectCorrupt(profile, "nested more than 64 levels deep", in: fixtures)
        // As an XML reader reads tags: a line break ends a tag's name (`<array\n>` was not counted), and a comment
        // full of closings closes nothing (it took the count below zero first). Either ran libplist off the stack.
        let deep = AppBuildFixtures.deepXMLPlist(depth: 10_000)
        let broken = deep.replacingOccurrences(of: "<array>", with: "<array\n>")
        let first = try #require(deep.range(of: "<array>"))
        let commented = deep.replacingCharacters(
            in: first.lowerBound..<first.lowerBound,
            with: "<!-- " + String(repeating: "</array>", count: 10_000) + " --><?pi </array>?>")
        for (text, name) in [(broken, "broken.mobileprovision"), (commented, "commented.mobileprovision")] {
            try Self.expectCorrupt(try fixtures.signed(text, as: name), "nested more than 64 levels deep", in: fixtures)
        }
    }

    /// A binary list that refers to one array from two places, forty levels over, is 300 bytes that libplist
    /// would copy into a trillion items (it ran out of memory): refused before it is parsed, quickly. A list just
    /// inside the count is read.
    @Test func aBinaryPropertyListThatExpandsPastItsCountIsRefused() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development)
        try fixtures.directory.write("Demo.app/Info.plist", AppBuildFixtures.sharedReferencesBinaryPlist(levels: 40))
        try Self.expectCorrupt(app, "shared entries expand to more than 100000 items", in: fixtures)
        try Self.expectCorrupt(
            try fixtures.ipa(of: app), "shared entries expand to more than 100000 items", in: fixtures)
        #expect(PropertyListShape.binaryProblem(AppBuildFixtures.sharedReferencesBinaryPlist(levels: 15)) == nil)
        #expect(PropertyListShape.binaryProblem(AppBuildFixtures.sharedReferencesBinaryPlist(levels: 16)) != nil)
    }

    /// A binary list whose arrays hold each other is refused by libplist itself; it ends, as an error.
    @Test func aLoopingBinaryPropertyListIsAnError() throws {
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development)
        try fixtures.directory.write("Demo.app/Info.plist", AppBuildFixtures.deepBinaryPlist(depth: 8, loop: true))
        try Self.expectCorrupt(app, "Info.plist", in: fixtures)
    }

    /// A key that decides pushes holding a value of another type is a malformed build, named with the key and the
    /// type: read as absent, an `aps-environment` array was "no aps-environment entitlement" with advice to enable
    /// a capability the app has, a `get-task-allow` string made a development profile an App Store one, and a
    /// string `ExpirationDate` dropped the expiry.
    @Test func aKeyOfTheWrongTypeIsAMalformedBuild() throws {
        let fixtures = try AppBuildFixtures()
        let profile = AppBuildFixtures.profileXML(.development)
        let cases: [(String, String, String)] = [
            (
                "<key>aps-environment</key><string>development</string>",
                "<key>aps-environment</key><array><string>development</string></array>",
                "aps-environment is an array, not a string"
            ),
            (
                "<key>get-task-allow</key><true/>", "<key>get-task-allow</key><string>true</string>",
                "get-task-allow is a string, not a Boolean"
            ),
            (
                "<key>ExpirationDate</key><date>", "<key>ExpirationDate</key><string>",
                "ExpirationDate is a string, not a date"
            ),
            (
                "<key>Entitlements</key>\n<dict>", "<key>Entitlements</key>\n<array/><key>X</key><dict>",
                "its entitlements are an array, not a dictionary"
            ),
        ]
        for (index, (original, replacement, reason)) in cases.enumerated() {
            var text = profile.replacingOccurrences(of: original, with: replacement)
            if original.hasPrefix("<key>ExpirationDate") {
                text = text.replacingOccurrences(of: "Z</date>\n<key>Name", with: "Z</string>\n<key>Name")
            }
            #expect(text != profile, "\(original)")
            try Self.expectCorrupt(try fixtures.signed(text, as: "wrong\(index).mobileprovision"), reason, in: fixtures)
        }
        // The executable's signature, and Info.plist, are read the same way.
        let app = try fixtures.app(profile: .development)
        let entitlements = AppBuildFixtures.entitlementsXML(
            aps: "development", team: AppBuildFixtures.team, bundle: AppBuildFixtures.bundle, getTaskAllow: true
        ).replacingOccurrences(
            of: "<key>aps-environment</key><string>development</string>",
            with: "<key>aps-environment</key><integer>1</integer>")
        try fixtures.directory.write("Demo.app/Demo", MachOFixture.thin(entitlements: entitlements), mode: 0o755)
        try Self.expectCorrupt(
            app, "Demo (entitlements): not a readable app build: aps-environment is an integer, not a string",
            in: fixtures)
        let other = try fixtures.app("Other.app", profile: .development)
        let info = try String(contentsOfFile: other + "/Info.plist", encoding: .utf8)
        try info.replacingOccurrences(
            of: "<key>CFBundleIdentifier</key><string>\(AppBuildFixtures.bundle)</string>",
            with: "<key>CFBundleIdentifier</key><array/>"
        ).write(toFile: other + "/Info.plist", atomically: true, encoding: .utf8)
        try Self.expectCorrupt(other, "CFBundleIdentifier is an array, not a string", in: fixtures)
    }

    @Test func notAProfileAndNotAnArchive() throws {
        let fixtures = try AppBuildFixtures()
        let garbage = try fixtures.directory.write("junk.mobileprovision", Array("not DER at all".utf8))
        try Self.expectCorrupt(garbage, "not a provisioning profile", in: fixtures)
        let unsigned = try fixtures.directory.write("plain.mobileprovision", AppBuildFixtures.profileXML(.development))
        try Self.expectCorrupt(unsigned, "not a provisioning profile", in: fixtures)
        let truncatedZip = try fixtures.directory.write("cut.ipa", Array("PK\u{3}\u{4}then nothing".utf8))
        try Self.expectCorrupt(truncatedZip, "not a zip archive", in: fixtures)
    }
}
