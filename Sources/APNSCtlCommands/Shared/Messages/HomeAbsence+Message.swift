import APNSPlatform

extension Environment.HomeAbsence {
    /// Why there is no home directory, for the parentheses after "no home directory": `$HOME is /nonexistent,
    /// which is not a directory, and $XDG_CACHE_HOME is unset or relative`, what the user set, so they see which of
    /// the two to fix. `variable` is the XDG folder that would have stood in for the home.
    func reason(xdg variable: String) -> String {
        let home =
            switch self {
            case .notADirectory(let path): "$HOME is \(path.escapingControlsForOutput()), which is not a directory"
            case .relative(let path): "$HOME is \(path.escapingControlsForOutput()), a relative path"
            case .unset: "$HOME is unset and the password database names no directory for this user"
            }
        return "\(home), and $\(variable) is unset or relative"
    }
}
