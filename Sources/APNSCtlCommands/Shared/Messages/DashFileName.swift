import APNSCore
import APNSPlatform

/// `apnsctl validate -x.json`: a file whose name starts with `-` is read as flags, and the parser names an
/// unknown option or a missing argument, never the file. When such a word names an existing file, this says how to
/// give it.
enum DashFileName {
    /// The one line to show instead of the parser's `lines`, or nil when no word of `arguments` (before `--`)
    /// that the parser's first line is about, or that left an argument missing, names a file.
    /// `workingDirectory`: where relative names are looked up (the world's).
    static func advice(for lines: [String], arguments: [String], workingDirectory: String?) -> String? {
        guard let first = lines.first else { return nil }
        let missingArgument = first.hasPrefix("error: Missing expected argument")
        // A word that is one of the command's flags is that flag, whatever file shares its name (`-p` beside `-p ci`).
        var flags: Set<String>?
        for word in arguments.prefix(while: { $0 != "--" }) {
            guard word.count > 1, word.hasPrefix("-"), !word.hasPrefix("--"),
                FileSystem.isRegularFile(WorkingDirectoryPath.absolute(word, workingDirectory: workingDirectory))
            else {
                continue
            }
            let named = first.contains("'\(word)'") || first.contains("'\(word.prefix(2))'") || missingArgument
            guard named, VariableEcho.mayEchoArgument(word) else { continue }
            let known = flags ?? Set(OtherToolFlags.flagNames(of: arguments))
            flags = known
            if known.contains(word) { continue }
            return "error: \(ShellWord.of(word)): a file whose name starts with -, read as flags; give it as "
                + "\(ShellWord.of("./" + word)) (or put -- before it)"
        }
        return nil
    }
}
