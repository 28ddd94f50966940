import APNSAppBuild
import APNSPlatform

/// Reading a build a command was given, with its problems as exit codes: 66 when it is missing or unreadable,
/// 65 when it is not a well-formed build.
enum AppBuildInput {
    /// Whether `path` names an app build rather than a credential: a folder (`.app`, `.xcarchive`) or a file
    /// named as a build is.
    static func isBuild(_ path: String) -> Bool {
        let lower = path.lowercased()
        return FileSystem.isDirectory(path)
            || [".ipa", ".mobileprovision", ".provisionprofile", ".app", ".xcarchive"].contains { lower.hasSuffix($0) }
    }

    /// A folder that is, or claims to be, an app build: named `.app` or `.xcarchive`, or holding what one holds
    /// (an `Info.plist`, or `Products/Applications`). Any other folder was given by mistake.
    static func isBuildFolder(_ path: String) -> Bool {
        let lower = path.lowercased()
        return [".app", ".app/", ".xcarchive", ".xcarchive/"].contains { lower.hasSuffix($0) }
            || FileSystem.exists(path + "/Info.plist") || FileSystem.isDirectory(path + "/Products/Applications")
    }

    /// The build at `path`; `flag` (`--app`) prefixes the message when the path came from one.
    static func read(_ path: String, flag: String? = nil) throws(CLIError) -> AppBuild {
        do {
            return try AppBuildReader.read(path)
        } catch {
            let message = (flag.map { $0 + " " } ?? "") + error.message
            throw error.isUnreadable ? .inputMissing(message) : .payloadInvalid(message)
        }
    }
}
