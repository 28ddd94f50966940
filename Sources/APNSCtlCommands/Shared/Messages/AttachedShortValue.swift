import APNSCore

/// `-d$TOKEN`, `-pmock`: a value written against its short flag, as many tools allow. The parser reads the word
/// as a cluster of short flags and says `Unknown option '-0'` or `Missing value for '-o'`, naming neither the
/// flag nor the fix; this says both.
enum AttachedShortValue {
    /// The one line to show instead of the parser's `lines` when they are about such a word in `arguments`
    /// (a short flag of the command that takes a value, `valueFlags`, with text after it); nil otherwise. A word
    /// that is a group of the command's short flags (`shortFlags`) of which one at most takes a value (`-dq`, its
    /// token left out) is the parser's to explain; `-pdev` is no such group. A value that may be a secret (a
    /// pasted key) is never repeated.
    static func advice(
        for lines: [String], arguments: [String], valueFlags: Set<String>, shortFlags: Set<String>
    ) -> String? {
        guard let first = lines.first,
            first.hasPrefix("error: Unknown option '") || first.hasPrefix("error: Missing value for '")
        else { return nil }
        for word in arguments.prefix(while: { $0 != "--" }) {
            guard word.count > 2, word.hasPrefix("-"), !word.hasPrefix("--"), !word.contains("="),
                valueFlags.contains(String(word.prefix(2)))
            else { continue }
            // The parser's line is about this word: the whole of it, or one of its letters read as a flag.
            let named =
                first.contains("'\(word)'") || first.contains("in '\(word)'")
                || word.dropFirst(2).contains { first.hasPrefix("error: Unknown option '-\($0)'") }
            let letters = word.dropFirst().map { "-\($0)" }
            let isGroup = letters.allSatisfy(shortFlags.contains) && letters.filter(valueFlags.contains).count <= 1
            guard named, !isGroup, VariableEcho.mayEchoArgument(word) else { continue }
            let flag = String(word.prefix(2))
            let value = String(word.dropFirst(2))
            return "error: \(ShellWord.of(word)): write the value after a space, \(flag) \(ShellWord.of(value)) "
                + "(or \(ShellWord.of("\(flag)=\(value)"))); joined to \(flag) it reads as more flags"
        }
        return nil
    }
}
