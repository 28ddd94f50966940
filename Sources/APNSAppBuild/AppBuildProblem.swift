import APNSCore

/// Why an app build could not be read. A build is untrusted input: every malformed or hostile shape is one of
/// these, never a crash.
public enum AppBuildProblem: Error, Equatable, Sendable {
    /// Nothing at the path (exit 66).
    case missing(path: String)
    /// There, but it cannot be read (permissions, an I/O error, a FIFO; exit 66).
    case unreadable(path: String, reason: String)
    /// Read, but not a well-formed build of a kind apnsctl knows (exit 65).
    case corrupt(path: String, reason: String)
    /// A folder that neither is named as a build nor holds what one holds: given by mistake, as a folder where
    /// a file belongs is elsewhere (exit 66).
    case notABuild(path: String)
    /// An app extension (`.appex`: a notification service extension, a widget): its pushes go to the app that
    /// holds it, under that app's bundle id (exit 65).
    case appExtension(path: String, bundleID: String?)

    /// One line for the user: what, where, and what to do.
    public var message: String {
        switch self {
        case .missing(let path):
            return
                "\(VariableEcho.shownPath(path)): no such file or folder; pass the .ipa, .app, .xcarchive or .mobileprovision the app was built as"
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .corrupt(let path, let reason): return "\(path): not a readable app build: \(reason)"
        case .appExtension(let path, let bundleID):
            return
                "\(path): an app extension\(bundleID.map { " (\(PrintableText.quoted($0)))" } ?? ""), not an app: pushes go to the app that holds it, under that app's bundle id; give that app's .ipa, .app or .xcarchive"
        case .notABuild(let path):
            return
                "\(path): is a directory, not a file, and not an app build (no Info.plist or Products/Applications in it); give an .app, .xcarchive, .ipa or .mobileprovision"
        }
    }

    /// Whether the build was there but could not be read (66) rather than malformed (65).
    public var isUnreadable: Bool {
        switch self {
        case .missing, .unreadable, .notABuild: return true
        case .corrupt, .appExtension: return false
        }
    }
}
