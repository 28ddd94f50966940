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

    /// The build at `path`; `flag` (`--app`) prefixes the message when the path came from one. `otherwise`
    /// ends the message for a folder that is no build, when the command takes something else too.
    static func read(_ path: String, flag: String? = nil, otherwise: String? = nil) throws(CLIError) -> AppBuild {
        do {
            return try AppBuildReader.read(path)
        } catch {
            var message = (flag.map { $0 + " " } ?? "") + error.message
            if case .notABuild = error, let otherwise { message += otherwise }
            throw error.isUnreadable ? .inputMissing(message) : .payloadInvalid(message)
        }
    }
}
