import APNSAppBuild
import APNSPlatform
import APNSSettings

/// Reading a build a command was given, with its problems as exit codes: 66 when it is missing or unreadable,
/// 65 when it is not a well-formed build.
enum AppBuildInput {
    /// Whether `path` names an app build rather than a credential: a folder (`.app`, `.xcarchive`), a file named
    /// as a build, or one whose content is a zip archive or a provisioning profile (a renamed `.ipa`, a profile
    /// saved as `.der`: `inspect` detects by content, as its help says).
    static func isBuild(_ path: String) -> Bool {
        let lower = path.lowercased()
        return FileSystem.isDirectory(path)
            || [".ipa", ".mobileprovision", ".provisionprofile", ".app", ".xcarchive"].contains { lower.hasSuffix($0) }
            || AppBuildReader.sniff(path) != nil
    }

    /// The build at `path`; `flag` (`--app`) prefixes the message when the path came from one. `otherwise`
    /// ends the message for a folder that is no build, when the command takes something else too.
    static func read(_ path: String, flag: String? = nil, otherwise: String? = nil) throws(CLIError) -> AppBuild {
        if let flag,
            let dash = CLIError.fileOnly(
                flag, path, what: "the app build",
                advice: "give the path of the .ipa, .app, .xcarchive or .mobileprovision the app was built as",
                anyName: true)
        {
            throw dash
        }
        do {
            return try AppBuildReader.read(path)
        } catch {
            var message = (flag.map { $0 + " " } ?? "") + error.message
            if case .notABuild = error, let otherwise { message += otherwise }
            // A file of another kind given where the build goes: said what it is, and what goes there.
            // (A zip archive or a signed profile is a build: its own fault is the message.)
            if case .corrupt = error, let flag, AppBuildReader.sniff(path) == nil,
                let other = Self.otherKind(Self.start(of: path))
            {
                message = "\(flag) \(path): \(other)"
            }
            throw error.isUnreadable ? .inputMissing(message) : .payloadInvalid(message)
        }
    }

    /// The provisioning profile in `der`, read from standard input (`name`), with `read`'s exit codes.
    static func profile(der: [UInt8], name: String) throws(CLIError) -> AppBuild {
        do { return try AppBuildReader.readProfile(der: der, name: name) } catch {
            throw error.isUnreadable ? .inputMissing(error.message) : .payloadInvalid(error.message)
        }
    }

    /// What a file that is no build holds, by its first bytes, and what to give instead; nil when unknown.
    static func otherKind(_ start: String) -> String? {
        let builds = ".ipa, .app, .xcarchive or .mobileprovision"
        if start.contains("-----BEGIN CMS-----") || start.contains("-----BEGIN PKCS7-----") {
            return "a provisioning profile in PEM form; apnsctl reads it as Apple gives it (DER): "
                + "openssl cms -inform PEM -outform DER -in FILE -out Profile.mobileprovision converts it"
        }
        if start.contains("-----BEGIN") {
            return "a certificate or key (PEM), not an app build; give it with --cert or --auth-key, and --app the "
                + builds
        }
        if start.contains("<plist") || start.hasPrefix("bplist00") {
            return "a property list (an Info.plist, entitlements, export options), not an app build; give the "
                + builds + " it belongs to"
        }
        return nil
    }

    /// The first bytes of `path` as text (for telling PEM), empty when unreadable.
    static func start(of path: String) -> String {
        String(decoding: FileSystem.readStart(path, count: 4096) ?? [], as: UTF8.self)
    }
}
