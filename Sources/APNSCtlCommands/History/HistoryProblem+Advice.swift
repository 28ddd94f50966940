import APNSCore
import APNSHistory

extension HistoryProblem {
    /// The problem and, when the history was refused for its place or is damaged, what to do about it:
    /// `PATH: why; what to run` (a damaged file is moved aside, and the next send starts a new one).
    var messageWithAdvice: String {
        switch self {
        case .untrusted(let path, _, let remedy):
            return message + "; " + remedy.advice(for: path, variable: "XDG_STATE_HOME")
        case .corrupt(let path):
            return message + "; move it aside (mv \(ShellWord.of(path)) \(ShellWord.of(path + ".broken")), with its "
                + "-wal and -shm files if there are any) and the next send starts a new history"
        default: return message
        }
    }
}
