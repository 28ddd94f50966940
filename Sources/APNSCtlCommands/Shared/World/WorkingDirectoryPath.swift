/// A path as the user typed it, made absolute against the command's working directory: what the mock's state
/// dir and log are printed as, and what `config` offers for a relative path the shell completed.
enum WorkingDirectoryPath {
    /// `path` made absolute against `workingDirectory` (unchanged when it already is, or when the working
    /// directory could not be read).
    static func absolute(_ path: String, workingDirectory: String?) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let cwd = workingDirectory else { return path }
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        if relative == "." || relative.isEmpty { return cwd }
        return (cwd.hasSuffix("/") ? cwd : cwd + "/") + relative
    }
}
