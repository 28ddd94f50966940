import APNSPlatform

/// Why the history could not be read or written. `send` turns any of these into one warning and carries on;
/// `history` turns them into its exit codes.
public enum HistoryProblem: Error, Equatable, Sendable {
    /// A link, another user's file or a shared folder at the history's place, or a folder above it that others
    /// could swap: never used. `remedy` is what the user can do about `path`.
    case untrusted(path: String, reason: String, remedy: PrivateDirectory.Remedy)
    /// The file is not a database, or a damaged one.
    case corrupt(path: String)
    /// Another apnsctl held the database longer than the busy timeout.
    case busy(path: String)
    /// The file or its folder cannot be written (made read-only).
    case readOnly(path: String)
    /// The history's folder, which a send would write in, has lost its owner's write permission (a `chmod 500`):
    /// kept as the user made it, so nothing is recorded.
    case readOnlyFolder(path: String, mode: FileMode)
    /// The disk is full.
    case full(path: String)
    /// Written by a newer apnsctl, whose layout this one does not know.
    case newerSchema(path: String, version: Int64)
    /// The folder or the file could not be made or opened (the system's words, with the path).
    case unusable(String)
    /// The folder (or one above it) could not be made: a place the user cannot write (the system's words).
    case notCreatable(String)
    /// Anything else the system or SQLite said.
    case failed(path: String, reason: String)

    /// `PATH: what is wrong`.
    public var message: String {
        switch self {
        case .untrusted(let path, let reason, _): return "\(path): \(reason)"
        case .corrupt(let path): return "\(path): not a history database, or a damaged one"
        case .busy(let path):
            return "\(path): another program (a send, a history command) kept the database locked for more than 2 s"
        case .readOnly(let path): return "\(path): the database is read-only"
        case .readOnlyFolder(let path, let mode):
            return "\(path): the folder is read-only (mode 0\(String(mode, radix: 8)))"
        case .full(let path): return "\(path): no space left on the disk"
        case .newerSchema(let path, let version):
            return "\(path): written by a newer apnsctl (layout version \(version)); update apnsctl to read it"
        case .unusable(let text), .notCreatable(let text): return text
        case .failed(let path, let reason): return "\(path): \(reason)"
        }
    }

    init(_ error: SQLiteError, path: String) {
        if error.isCorrupt {
            self = .corrupt(path: path)
        } else if error.isBusy {
            self = .busy(path: path)
        } else if error.isReadOnly {
            self = .readOnly(path: path)
        } else if error.isFull {
            self = .full(path: path)
        } else {
            self = .failed(path: path, reason: error.message)
        }
    }

    init(_ failure: PrivateDirectory.Failure) {
        switch failure {
        case .untrusted(let path, let reason, let remedy): self = .untrusted(path: path, reason: reason, remedy: remedy)
        case .file(.cannotCreate(let path, let reason)):
            self = .notCreatable(FileSystem.Failure.cannotCreate(path: path, reason: reason).message)
        case .file(let file): self = .unusable(file.message)
        }
    }
}
