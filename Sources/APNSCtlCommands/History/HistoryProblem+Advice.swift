import APNSCore
import APNSHistory

extension HistoryProblem {
    /// The problem and, when the history was refused for its place, is damaged, read-only or cannot be made, what
    /// to do about it: `PATH: why; what to run` (a damaged file is moved aside, and the next send starts a new one).
    var messageWithAdvice: String {
        switch self {
        case .untrusted(let path, _, let remedy):
            return message + "; " + remedy.advice(for: path, variable: "XDG_STATE_HOME")
        case .corrupt(let path):
            return message + "; move it aside (mv \(ShellWord.of(path)) \(ShellWord.of(path + ".broken")), with its "
                + "-wal and -shm files if there are any) and the next send starts a new history"
        case .readOnly(let path), .readOnlyFolder(let path, _):
            // Made so by a `chmod`, perhaps on purpose: how to undo it, for whoever did not mean it.
            return message + "; make it writable (chmod u+w \(ShellWord.of(path))) to record sends again"
        case .notCreatable:
            return message + "; set XDG_STATE_HOME to a folder you can write"
        default: return message
        }
    }
}
