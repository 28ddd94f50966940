import Foundation

/// App builds made at test time, modelled on what Xcode 16 writes: provisioning profiles as CMS SignedData
/// (DER, content attached, signed by a test CA standing in for Apple's), `.app` folders with an XML or
/// binary `Info.plist`, an `embedded.mobileprovision` and a main executable signed with entitlements
/// (`MachOFixture`), and `.ipa` and `.xcarchive` around them. Python's zipfile and plistlib write the zip
/// archives and binary property lists, so apnsctl's readers meet files they did not make.
public final class AppBuildFixtures: @unchecked Sendable {
    public static let team = "TEAMID1234"
    public static let bundle = "com.example.app"

    /// The profile kinds Apple issues, and the two mistakes that matter for pushes.
    public enum Profile: String, CaseIterable, Sendable {
        case development, adHoc, appStore, enterprise
        /// A development profile that ended 10 days ago.
        case expired
        /// A development profile of an app without the Push Notifications capability.
        case withoutPush

        /// The `aps-environment` Xcode signs into a build with this profile.
        public var apsEnvironment: String? {
            switch self {
            case .development, .expired: return "development"
            case .adHoc, .appStore, .enterprise: return "production"
            case .withoutPush: return nil
            }
        }
    }

    public let directory: TemporaryDirectory

    /// A test CA and the signer it certifies.
    public init() throws {
        directory = try TemporaryDirectory(prefix: "app-builds")
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
            "-out", "ca.pem", "-days", "2", "-subj", "/CN=apnsctl test Apple Root CA",
        ])
        try openssl([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "signer.key",
            "-out", "signer.csr", "-subj", "/CN=apnsctl test iPhone OS Provisioning Profile Signing",
        ])
        try openssl([
            "x509", "-req", "-in", "signer.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "signer.pem", "-days", "2",
        ])
    }

    private func openssl(_ args: [String]) throws {
        let r = try CommandRunner.run("openssl", args, directory: directory.path)
        guard r.status == 0 else { throw TestSupportError("openssl \(args.joined(separator: " ")): \(r.stderr)") }
    }

    // MARK: Property lists

    /// An entitlements dictionary's XML, as codesign embeds it.
    public static func entitlementsXML(
        aps: String?, team: String = team, bundle: String = bundle, getTaskAllow: Bool = true
    ) -> String {
        plist(entitlementsBody(aps: aps, team: team, bundle: bundle, getTaskAllow: getTaskAllow))
    }

    static func entitlementsBody(aps: String?, team: String, bundle: String, getTaskAllow: Bool) -> String {
        var body = """
            <key>application-identifier</key><string>\(team).\(bundle)</string>
            <key>com.apple.developer.team-identifier</key><string>\(team)</string>
            <key>get-task-allow</key><\(getTaskAllow)/>
            <key>keychain-access-groups</key><array><string>\(team).*</string></array>

            """
        if let aps { body += "<key>aps-environment</key><string>\(aps)</string>\n" }
        return "<dict>\n" + body + "</dict>"
    }

    static func plist(_ top: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(top)
        </plist>

        """
    }

    /// A profile's property list, with the keys Xcode's profiles have.
    public static func profileXML(_ kind: Profile, team: String = team, bundle: String = bundle, now: Date = Date())
        -> String
    {
        let expires = now.addingTimeInterval(kind == .expired ? -10 * 86_400 : 300 * 86_400)
        let created = now.addingTimeInterval(-65 * 86_400)
        let format = ISO8601DateFormatter()
        let devices = ["00008110-001A2C3E4F5A601E", "00008030-000C1D2E3F4A5B6C"]
        var extra = ""
        switch kind {
        case .development, .expired, .withoutPush, .adHoc:
            extra =
                "<key>ProvisionedDevices</key><array>"
                + devices.map { "<string>\($0)</string>" }.joined() + "</array>\n"
        case .enterprise: extra = "<key>ProvisionsAllDevices</key><true/>\n"
        case .appStore: extra = ""
        }
        let name: String =
            switch kind {
            case .development, .expired, .withoutPush: "iOS Team Provisioning Profile: \(bundle)"
            case .adHoc: "\(bundle) AdHoc"
            case .appStore: "\(bundle) AppStore"
            case .enterprise: "\(bundle) InHouse"
            }
        let getTaskAllow = [.development, .expired, .withoutPush].contains(kind)
        return plist(
            """
            <dict>
            <key>AppIDName</key><string>Example</string>
            <key>ApplicationIdentifierPrefix</key><array><string>\(team)</string></array>
            <key>CreationDate</key><date>\(format.string(from: created))</date>
            <key>Platform</key><array><string>iOS</string></array>
            <key>DeveloperCertificates</key><array><data>MIIB</data></array>
            <key>Entitlements</key>
            \(entitlementsBody(aps: kind.apsEnvironment, team: team, bundle: bundle, getTaskAllow: getTaskAllow))
            <key>ExpirationDate</key><date>\(format.string(from: expires))</date>
            <key>Name</key><string>\(name)</string>
            \(extra)<key>TeamIdentifier</key><array><string>\(team)</string></array>
            <key>TeamName</key><string>Example Ltd</string>
            <key>TimeToLive</key><integer>365</integer>
            <key>UUID</key><string>6B1C4F3E-2D5A-4E8B-9C7D-1A2B3C4D5E6F</string>
            <key>Version</key><integer>1</integer>
            </dict>
            """)
    }

    // MARK: Files

    /// `content` signed as CMS SignedData (DER, content attached), as Apple signs a profile; returns its path.
    @discardableResult
    public func signed(_ content: String, as name: String) throws -> String {
        let source = try directory.write(name + ".content", content)
        try openssl([
            "cms", "-sign", "-binary", "-nodetach", "-outform", "DER", "-in", source, "-signer", "signer.pem",
            "-inkey", "signer.key", "-out", name,
        ])
        return directory.file(name)
    }

    /// A `.mobileprovision` of `kind`; returns its path.
    @discardableResult
    public func profile(
        _ kind: Profile, team: String = team, bundle: String = bundle, name: String? = nil
    ) throws -> String {
        try signed(Self.profileXML(kind, team: team, bundle: bundle), as: name ?? "\(kind.rawValue).mobileprovision")
    }

    /// An `.app` folder: `Info.plist` (binary when `binaryInfo`), the profile of `profile` (none: an App Store
    /// download), and an executable signed with `executableAPS` as its `aps-environment` (by default the
    /// profile's; `.some(nil)` leaves it out), fat (x86_64 and arm64, the x86_64 slice signed for the other
    /// environment) when `fat`. Returns the folder's path.
    @discardableResult
    public func app(
        _ name: String = "Demo.app", profile: Profile?, executableAPS: String?? = .none, binaryInfo: Bool = false,
        fat: Bool = false, bundle: String = bundle, team: String = team, signed: Bool = true
    ) throws -> String {
        let folder = directory.file(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let info = Self.plist(
            """
            <dict>
            <key>CFBundleDevelopmentRegion</key><string>en</string>
            <key>CFBundleExecutable</key><string>Demo</string>
            <key>CFBundleIdentifier</key><string>\(bundle)</string>
            <key>CFBundleName</key><string>Demo</string>
            <key>CFBundlePackageType</key><string>APPL</string>
            <key>CFBundleShortVersionString</key><string>1.0</string>
            <key>CFBundleSupportedPlatforms</key><array><string>iPhoneOS</string></array>
            <key>CFBundleVersion</key><string>1</string>
            <key>MinimumOSVersion</key><string>17.0</string>
            <key>UIDeviceFamily</key><array><integer>1</integer></array>
            </dict>
            """)
        try Data(info.utf8).write(to: URL(fileURLWithPath: folder + "/Info.plist"))
        if binaryInfo { try Self.python(Self.toBinaryPlist, [folder + "/Info.plist"]) }
        if let profile {
            let made = try self.profile(profile, team: team, bundle: bundle, name: "\(name).profile")
            try FileManager.default.copyItem(atPath: made, toPath: folder + "/embedded.mobileprovision")
        }
        let aps: String? =
            switch executableAPS {
            case .none: profile.map(\.apsEnvironment) ?? "production"
            case .some(let value): value
            }
        let getTaskAllow = profile.map { [.development, .expired, .withoutPush].contains($0) } ?? false
        let xml = signed ? Self.entitlementsXML(aps: aps, team: team, bundle: bundle, getTaskAllow: getTaskAllow) : nil
        var executable = MachOFixture.thin(entitlements: xml)
        if fat {
            let other = aps == "production" ? "development" : "production"
            let intel = MachOFixture.thin(
                cpu: MachOFixture.x86,
                entitlements: Self.entitlementsXML(aps: other, team: team, bundle: bundle, getTaskAllow: getTaskAllow))
            executable = MachOFixture.fat([(MachOFixture.x86, intel), (MachOFixture.arm64, executable)])
        }
        try directory.write(name + "/Demo", executable, mode: 0o755)
        return folder
    }

    /// An `.ipa` holding the `.app` at `app` under `Payload/`; returns its path.
    @discardableResult
    public func ipa(of app: String, as name: String = "Demo.ipa") throws -> String {
        let appName = URL(fileURLWithPath: app).lastPathComponent
        let files = try FileManager.default.contentsOfDirectory(atPath: app).sorted()
        try zip(name, files.map { ("Payload/\(appName)/\($0)", app + "/" + $0) })
        return directory.file(name)
    }

    /// A zip archive `name` of (entry name, file to store) pairs, names written as given (`../x` included).
    public func zip(_ name: String, _ entries: [(name: String, file: String)]) throws {
        try Self.python(Self.writeZip, [directory.file(name)] + entries.flatMap { [$0.name, $0.file] })
    }

    /// An `.xcarchive` holding the `.app` at `app` under `Products/Applications`; returns its path.
    @discardableResult
    public func xcarchive(of app: String, as name: String = "Demo.xcarchive") throws -> String {
        let archive = directory.file(name)
        let applications = archive + "/Products/Applications"
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: app, toPath: applications + "/" + URL(fileURLWithPath: app).lastPathComponent)
        try Data(Self.plist("<dict><key>Name</key><string>Demo</string></dict>").utf8).write(
            to: URL(fileURLWithPath: archive + "/Info.plist"))
        return archive
    }

    static func python(_ script: String, _ arguments: [String]) throws {
        let r = try CommandRunner.run(try TestPython.plain(), ["-c", script] + arguments)
        guard r.status == 0 else { throw TestSupportError("python3: \(r.stderr)") }
    }

    static let toBinaryPlist = """
        import plistlib, sys
        p = sys.argv[1]
        with open(p, 'rb') as f: v = plistlib.load(f)
        with open(p, 'wb') as f: plistlib.dump(v, f, fmt=plistlib.FMT_BINARY)
        """

    static let writeZip = """
        import sys, zipfile
        out, rest = sys.argv[1], sys.argv[2:]
        with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
            for name, path in zip(rest[0::2], rest[1::2]):
                with open(path, 'rb') as f: z.writestr(name, f.read())
        """
}

/// Hostile pieces of builds: what a crafted `.ipa` could hold.
extension AppBuildFixtures {
    /// An XML property list of arrays nested `depth` deep.
    public static func deepXMLPlist(depth: Int) -> String {
        plist(String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth))
    }

    /// A binary property list of arrays nested `depth` deep, each holding the next (4-byte offsets and
    /// references), or each holding the first again when `loop`.
    public static func deepBinaryPlist(depth: Int, loop: Bool = false) -> [UInt8] {
        var data = Array("bplist00".utf8)
        var offsets: [Int] = []
        for i in 0..<depth {
            offsets.append(data.count)
            if i == depth - 1 && !loop {
                data.append(0xA0)
            } else {
                data.append(0xA1)
                data += MachOFixture.be(UInt32(i == depth - 1 ? 0 : i + 1))
            }
        }
        let table = data.count
        for o in offsets { data += MachOFixture.be(UInt32(o)) }
        data += [UInt8](repeating: 0, count: 6) + [4, 4]
        data += [UInt8](repeating: 0, count: 4) + MachOFixture.be(UInt32(depth))
        data += [UInt8](repeating: 0, count: 8)
        data += [UInt8](repeating: 0, count: 4) + MachOFixture.be(UInt32(table))
        return data
    }

    /// A binary property list of `levels` arrays, each holding the one below twice (the same object, by
    /// reference), over one `false`: a few hundred bytes that expand to 2^levels items.
    public static func sharedReferencesBinaryPlist(levels: Int) -> [UInt8] {
        var data = Array("bplist00".utf8)
        var offsets = [data.count]
        data.append(0x08)
        for level in 1...levels {
            offsets.append(data.count)
            data.append(0xA2)
            data += MachOFixture.be(UInt32(level - 1)) + MachOFixture.be(UInt32(level - 1))
        }
        let table = data.count
        for o in offsets { data += MachOFixture.be(UInt32(o)) }
        data += [UInt8](repeating: 0, count: 6) + [4, 4]
        data += [UInt8](repeating: 0, count: 4) + MachOFixture.be(UInt32(levels + 1))
        data += [UInt8](repeating: 0, count: 4) + MachOFixture.be(UInt32(levels))
        data += [UInt8](repeating: 0, count: 4) + MachOFixture.be(UInt32(table))
        return data
    }
}
