import APNSCore
import APNSPlatform

extension PrivateDirectory.Remedy {
    /// What to run about the refused entry at `path`, worded for a folder whose home is `variable`
    /// (`XDG_CACHE_HOME`, `XDG_STATE_HOME`).
    func advice(for path: String, variable: String) -> String {
        switch self {
        case .closeMode: return "close it (chmod 700 \(ShellWord.of(path)))"
        case .remove: return "remove it"
        case .moveAside: return "move it aside (mv \(ShellWord.of(path)) \(ShellWord.of(path + ".old")))"
        case .closeFolderAbove(let folder):
            return "close that folder (chmod go-w \(ShellWord.of(folder))) or set \(variable) to another of yours"
        case .chooseAnotherFolder: return "set \(variable) to a folder of yours"
        }
    }
}
