import APNSCore
import APNSPlatform

extension Environment.HomeAbsence {
    /// Why there is no home directory, for the parentheses after "no home directory": `$HOME is /nonexistent,
    /// which does not exist, and $XDG_CACHE_HOME is unset or relative`, what the user set, so they see which of
    /// the two to fix. `variable` is the XDG folder that would have stood in for the home. $HOME is quoted as any
    /// variable is (a line break, a long value or a secret is described, not shown).
    public func reason(xdg variable: String) -> String { "\(homeReason), and $\(variable) is unset or relative" }

    /// What $HOME held, alone: for `~`, which no XDG folder stands in for.
    public var homeReason: String {
        switch self {
        case .missing(let path): "$HOME is \(VariableEcho.shown(path)), which does not exist"
        case .notADirectory(let path): "$HOME is \(VariableEcho.shown(path)), which is not a directory"
        case .relative(let path): "$HOME is \(VariableEcho.shown(path)), a relative path"
        case .unset: "$HOME is unset and the password database gives this user no existing directory"
        }
    }
}
