import APNSCore
import APNSPlatform
import APNSSettings

/// The state dir a mock command works in: `--state-dir`, else `APNSCTL_MOCK_STATE_DIR`, else the default under
/// the user's state home (where the `-p mock` profiles look); absolute, so `mock.json`'s paths work from any
/// directory (scripts read it from elsewhere).
struct MockStateDirectory {
    let path: String
    /// Whether the `-p mock` profiles find this one: it is the variable's, or the default.
    let isWhereProfilesLook: Bool

    /// Nil when no directory was given and there is no home for the default one.
    init?(given: String?, in world: CommandWorld) throws(CLIError) {
        // `--state-dir '~/mock'`: a folder named `~` would be made here, and a later `rm -rf ~` meant for it
        // would take the home directory.
        if let given, let problem = Self.unexpandedTilde(given, flag: "--state-dir") { throw .usage(problem) }
        var profiles: String? = nil
        do {
            profiles = try MockProfile.stateDirectory(
                variables: ["APNSCTL_MOCK_STATE_DIR": world.variable("APNSCTL_MOCK_STATE_DIR") ?? ""],
                defaultStateDirectory: world.settings.defaultMockStateDirectory)
        } catch {
            // A variable that is no path matters only when it would choose the directory.
            if given == nil { throw CLIError(error) }
        }
        guard let chosen = given ?? profiles else { return nil }
        path = WorkingDirectoryPath.absolute(chosen, workingDirectory: world.workingDirectory())
        isWhereProfilesLook =
            profiles.map { WorkingDirectoryPath.absolute($0, workingDirectory: world.workingDirectory()) } == path
    }

    /// `FLAG PATH: a ~ is expanded only by a shell…` for a directory or file to be made at a path starting with a
    /// `~` no shell expanded (quoted, or from a file); nil otherwise.
    static func unexpandedTilde(_ path: String, flag: String) -> String? {
        guard FileSystem.tildeUser(path) != nil else { return nil }
        return "\(flag) \(ShellWord.of(path.escapingControlsForOutput())): "
            + FileSystem.missingPathHint(path).dropFirst(2)
    }
}
