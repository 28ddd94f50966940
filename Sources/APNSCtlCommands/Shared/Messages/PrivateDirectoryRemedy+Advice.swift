import APNSCore
import APNSPlatform

extension PrivateDirectory.Remedy {
    /// What to run about the refused entry at `path`, worded for a folder whose home is `variable`
    /// (`XDG_CACHE_HOME`, `XDG_STATE_HOME`); `disposable`: its contents are worth nothing (the token cache), so
    /// removing it is said rather than moving it aside.
    func advice(for path: String, variable: String, disposable: Bool) -> String {
        switch self {
        case .closeMode: return "close it (chmod 700 \(ShellWord.of(path)))"
        case .moveAside:
            return disposable ? "remove it" : "move it aside (mv \(ShellWord.of(path)) \(ShellWord.of(path + ".old")))"
        case .chooseAnotherFolder: return "set \(variable) to a folder of yours"
        }
    }
}
