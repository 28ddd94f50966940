import APNSCore
import APNSPlatform

/// Reads an app build of any of the four shapes, found by content (a zip archive or a DER profile) and by
/// folder layout; never writes, extracts or executes anything.
public enum AppBuildReader {
    /// The most read from an `Info.plist` or an entitlements list: real ones are a few KB.
    static let maximumPropertyListSize = 1 << 20
    /// The largest main executable read from an `.ipa` (as a stream: only its headers and signature are kept).
    static let maximumExecutableSize: UInt64 = 512 << 20

    /// What a file's first bytes say it is, for a file given where another kind belongs: a zip archive (an `.ipa`),
    /// or a CMS signed-data structure holding a property list (a provisioning profile: a DER SEQUENCE whose first
    /// element is the signedData OID, where a PKCS#12 file starts with its version number).
    public enum Sniffed: Equatable, Sendable { case archive, profile }

    /// `Sniffed` of the file at `path`, nil for anything else or a file that cannot be read.
    public static func sniff(_ path: String) -> Sniffed? {
        // One read: a profile's property list is in its first 64 KB, and a credential is smaller than that.
        FileSystem.readStart(path, count: 1 << 16).flatMap { sniff(bytes: $0) }
    }

    /// `Sniffed` of bytes already read (a file's start, or standard input whole).
    public static func sniff<Bytes: RandomAccessCollection<UInt8>>(bytes start: Bytes) -> Sniffed? {
        guard start.count >= 4 else { return nil }
        if start.starts(with: [0x50, 0x4B, 0x03, 0x04]) || start.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return .archive
        }
        let (first, second) = (start[start.startIndex], start[start.index(after: start.startIndex)])
        guard first == 0x30, start.count >= 24 else { return nil }
        // The outer length: indefinite (0x80), short, or long form with 1 to 4 length bytes.
        let lengthBytes = second == 0x80 || second < 0x80 ? 0 : Int(second & 0x7F)
        guard lengthBytes <= 4 else { return nil }
        let oid: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        guard start.dropFirst(2 + lengthBytes).starts(with: oid) else { return nil }
        // A profile's content, a property list, comes before its certificates; a `.p7b` bundle of certificates is
        // signed data too, with no content.
        return start.firstRange(of: Array("<plist".utf8)) != nil || start.firstRange(of: Array("bplist00".utf8)) != nil
            ? .profile : nil
    }

    /// The build at `path`.
    public static func read(_ path: String) throws(AppBuildProblem) -> AppBuild {
        switch FileSystem.entryKind(path) {
        case .none: throw .missing(path: path)
        case .directory: return try readFolder(path)
        case .symbolicLink where FileSystem.isDirectory(path): return try readFolder(path)
        default: break
        }
        let file = try open(path)
        let magic = try wrap(path) { () throws(FileSystem.Failure) in try file.read(at: 0, count: 4) }
        if magic == [0x50, 0x4B, 0x03, 0x04] || magic == [0x50, 0x4B, 0x05, 0x06] { return try readIPA(path) }
        guard file.size <= UInt64(ProvisioningProfile.maximumSize) else {
            throw .corrupt(path: path, reason: "neither a zip archive (.ipa) nor a provisioning profile")
        }
        let der = try wrap(path) { () throws(FileSystem.Failure) in
            try file.read(at: 0, count: ProvisioningProfile.maximumSize)
        }
        return try readProfile(der: der, name: path)
    }

    /// The provisioning profile in `der`, read already (from a file, or standard input), `name` saying where from.
    public static func readProfile(der: [UInt8], name: String) throws(AppBuildProblem) -> AppBuild {
        guard der.count <= ProvisioningProfile.maximumSize else {
            throw .corrupt(path: name, reason: "larger than any provisioning profile")
        }
        let profile = try ProvisioningProfile(der: der, name: name)
        if let bundleID = profile.entitlements.bundleID {
            try checkBundleID(bundleID, name: name, key: "application-identifier", wildcard: true)
        }
        return AppBuild(
            path: name, kind: .provisioningProfile, appPath: nil, bundleID: profile.entitlements.bundleID,
            executableName: nil, profile: profile, executableEntitlements: nil)
    }

    // MARK: Folders

    /// An `.xcarchive` (its one app under `Products/Applications`) or an `.app`. A folder named as neither, and
    /// holding neither, is no build at all (an `.app` without its `Info.plist` is a broken one).
    private static func readFolder(_ path: String) throws(AppBuildProblem) -> AppBuild {
        let applications = path + "/Products/Applications"
        guard FileSystem.isDirectory(applications) else {
            let lower = path.lowercased()
            // Xcode's archive of a library or framework has its own Info.plist but no app: read as an app, it was
            // "no CFBundleExecutable" about a file the user never named.
            if lower.hasSuffix(".xcarchive") || lower.hasSuffix(".xcarchive/") {
                throw .corrupt(path: path, reason: "no Products/Applications: an archive of no app")
            }
            if lower.hasSuffix(".appex") || lower.hasSuffix(".appex/") {
                throw .appExtension(path: path, bundleID: nil)
            }
            let named = lower.hasSuffix(".app") || lower.hasSuffix(".app/")
            guard named || FileSystem.exists(path + "/Info.plist") else { throw .notABuild(path: path) }
            return try readApp(path, appPath: nil, buildPath: path)
        }
        let apps = try wrap(path) { () throws(FileSystem.Failure) in
            try FileSystem.directoryEntries(applications)
        }.filter { $0.hasSuffix(".app") }
        guard apps.count == 1, let app = apps.first else {
            throw .corrupt(
                path: path,
                reason: apps.isEmpty
                    ? "no .app in Products/Applications"
                    : "several apps in Products/Applications (\(apps.joined(separator: ", ")))")
        }
        return try readApp(applications + "/" + app, appPath: "Products/Applications/" + app, buildPath: path)
    }

    private static func readApp(_ folder: String, appPath: String?, buildPath: String) throws(AppBuildProblem)
        -> AppBuild
    {
        // Where each file is inside the build, as messages name it (`Products/Applications/Demo.app/Info.plist`).
        let inside = appPath.map { $0 + "/" } ?? ""
        let infoPath = folder + "/Info.plist"
        guard FileSystem.exists(infoPath) else { throw .corrupt(path: buildPath, reason: "no \(inside)Info.plist") }
        let info = try readWhole(infoPath, limit: maximumPropertyListSize)
        let (bundleID, executable) = try readInfo(info, name: infoPath)
        let profilePath = folder + "/embedded.mobileprovision"
        var profile: ProvisioningProfile? = nil
        if FileSystem.exists(profilePath) {
            profile = try ProvisioningProfile(
                der: try readWhole(profilePath, limit: ProvisioningProfile.maximumSize), name: profilePath)
        }
        let executablePath = folder + "/" + executable
        guard FileSystem.exists(executablePath) else {
            throw .corrupt(path: buildPath, reason: "no \(inside)\(executable), the executable Info.plist names")
        }
        let file = try open(executablePath)
        let xml = try MachOEntitlements.xml(size: file.size, name: executablePath) {
            (offset, count) throws(AppBuildProblem) in
            try wrap(executablePath) { () throws(FileSystem.Failure) in try file.read(at: offset, count: count) }
        }
        return AppBuild(
            path: buildPath, kind: .app, appPath: appPath, bundleID: bundleID, executableName: executable,
            profile: profile,
            executableEntitlements: try xml.map { (x) throws(AppBuildProblem) in
                try entitlements(x, name: executablePath)
            })
    }

    // MARK: Archives

    private static func readIPA(_ path: String) throws(AppBuildProblem) -> AppBuild {
        let archive = try ZipArchive(path: path)
        let names = try archive.names()
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated() where index[name] == nil { index[name] = i }
        // Payload/NAME.app/Info.plist, NAME a plain name: anything with `..` or more slashes names no app.
        let apps = names.compactMap { name -> String? in
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "Payload", parts[1].hasSuffix(".app"), parts[1] != ".app",
                parts[2] == "Info.plist"
            else { return nil }
            return "Payload/" + parts[1]
        }
        guard let app = apps.first, Set(apps).count == 1 else {
            throw .corrupt(
                path: path,
                reason: apps.isEmpty
                    ? "no Payload/NAME.app/Info.plist: not an .ipa" : "several apps under Payload/")
        }
        // Two entries of one name: unzip tools disagree on which one counts (the first, the last), so which app
        // this is cannot be told.
        var seen: Set<String> = []
        for name in names where name.hasPrefix(app + "/") && !seen.insert(name).inserted {
            throw .corrupt(path: path, reason: "two entries named \(name): which one counts is unclear")
        }
        func entry(_ name: String, limit: UInt64) throws(AppBuildProblem) -> ZipEntryStream? {
            guard let i = index[app + "/" + name] else { return nil }
            return try archive.open(i, name: app + "/" + name, limit: limit)
        }
        guard let infoEntry = try entry("Info.plist", limit: UInt64(maximumPropertyListSize)) else {
            throw .corrupt(path: path, reason: "no \(app)/Info.plist")
        }
        let (bundleID, executable) = try readInfo(try infoEntry.readAll(), name: "\(path): \(infoEntry.name)")
        var profile: ProvisioningProfile? = nil
        if let profileEntry = try entry("embedded.mobileprovision", limit: UInt64(ProvisioningProfile.maximumSize)) {
            profile = try ProvisioningProfile(der: try profileEntry.readAll(), name: "\(path): \(profileEntry.name)")
        }
        guard let executableEntry = try entry(executable, limit: maximumExecutableSize) else {
            throw .corrupt(path: path, reason: "no \(app)/\(executable), the executable Info.plist names")
        }
        let executableName = "\(path): \(executableEntry.name)"
        let xml = try MachOEntitlements.xml(size: executableEntry.size, name: executableName) {
            (offset, count) throws(AppBuildProblem) in try executableEntry.read(at: offset, count: count)
        }
        return AppBuild(
            path: path, kind: .app, appPath: app, bundleID: bundleID, executableName: executable, profile: profile,
            executableEntitlements: try xml.map { (x) throws(AppBuildProblem) in
                try entitlements(x, name: executableName)
            })
    }

    // MARK: Pieces

    /// `CFBundleIdentifier` and `CFBundleExecutable`; the executable must be a plain name in the app's folder.
    private static func readInfo(_ bytes: [UInt8], name: String) throws(AppBuildProblem) -> (String?, String) {
        let document = try PropertyListDocument(bytes: bytes, name: name)
        let top = document.top
        guard let executable = try top.string("CFBundleExecutable", in: name) else {
            throw .corrupt(path: name, reason: "no CFBundleExecutable: the main executable is not named")
        }
        guard !executable.isEmpty, !executable.contains("/"), executable != ".", executable != ".." else {
            throw .corrupt(path: name, reason: "CFBundleExecutable is not a file name in the app")
        }
        // An extension's Info.plist says what it is: read as the app, its pushes went to its own bundle id.
        if top["NSExtension"] != nil || top["CFBundlePackageType"]?.string == "XPC!" {
            throw .appExtension(path: name, bundleID: top["CFBundleIdentifier"]?.string)
        }
        let bundleID = try top.string("CFBundleIdentifier", in: name)
        if let bundleID { try checkBundleID(bundleID, name: name, key: "CFBundleIdentifier") }
        return (bundleID, executable)
    }

    /// A bundle id as the topic header carries it (`BundleIDShape`, the rule topics are checked with; a profile's
    /// may end in `*`). Anything else (a blank, a line break, a stray dot) would be sent as an illegal header,
    /// answered by a reset that reads as "may have been delivered": a malformed build, said as one.
    static func checkBundleID(_ id: String, name: String, key: String, wildcard: Bool = false)
        throws(AppBuildProblem)
    {
        guard BundleIDShape.problem(in: id, wildcard: wildcard) != nil else { return }
        throw .corrupt(
            path: name,
            reason:
                "\(key) \(PrintableText.quoted(id)) is not a bundle id (letters, digits, hyphens, underscores and dots, such as com.example.app), so no push can name it as its topic; correct it in the build"
        )
    }

    private static func entitlements(_ xml: [UInt8], name: String) throws(AppBuildProblem) -> Entitlements {
        let listName = name + " (entitlements)"
        return try Entitlements(PropertyListDocument(bytes: xml, name: listName).top, name: listName)
    }

    /// A file of a build folder, whole: a regular file only (a FIFO in an `.app` was waited on for ever), at most
    /// `limit` bytes, refused as the same entry of an `.ipa` is.
    private static func readWhole(_ path: String, limit: Int) throws(AppBuildProblem) -> [UInt8] {
        let file = try open(path)
        guard file.size <= UInt64(limit) else {
            throw .corrupt(path: path, reason: "\(file.size) bytes, more than the \(limit) apnsctl reads")
        }
        return try wrap(path) { () throws(FileSystem.Failure) in try file.read(at: 0, count: limit) }
    }

    private static func open(_ path: String) throws(AppBuildProblem) -> RandomAccessFile {
        try wrap(path) { () throws(FileSystem.Failure) in try RandomAccessFile(path: path) }
    }

    /// A file system failure as the build problem it is: gone or unreadable (66), or a FIFO or device where a
    /// file belongs (65).
    private static func wrap<T>(_ path: String, _ body: () throws(FileSystem.Failure) -> T) throws(AppBuildProblem)
        -> T
    {
        do {
            return try body()
        } catch {
            switch error {
            case .missing: throw .missing(path: path)
            case .unreadable(_, let reason): throw .unreadable(path: path, reason: reason)
            case .isDirectory: throw .corrupt(path: path, reason: "a folder where a file belongs")
            case .notARegularFile(_, let what): throw .corrupt(path: path, reason: "\(what) where a file belongs")
            default: throw .unreadable(path: path, reason: error.message)
            }
        }
    }
}
