import APNSHistory

extension HistoryProblem {
    /// The problem and, when the history was refused for its place, what to do about it: `PATH: why; what to run`.
    var messageWithAdvice: String {
        guard case .untrusted(let path, _, let remedy) = self else { return message }
        return message + "; " + remedy.advice(for: path, variable: "XDG_STATE_HOME")
    }
}
