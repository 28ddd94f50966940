import APNSCore

/// The parser's `error: Unexpected argument 'X'` where the slip is a common one, with what to type instead: a
/// device token after send's payload (the `-d` forgotten), `mock start` (the mock starts as `apnsctl mock`), and
/// `history rm` or `history replay` (`history clear`, `send --replay`), `config edit` (the user's editor).
enum UnexpectedArgumentAdvice {
    static func correcting(_ line: String, arguments: [String]) -> String {
        let command = arguments.prefix { !$0.hasPrefix("-") }.prefix(2)
        // A list pasted after one -d (`-d $(cat tokens.txt)`): the parser quoted every token (a line of hundreds of
        // kilobytes); said once, with the ways to give a list.
        if command.first == "send", line.hasPrefix("error: "), line.contains(" unexpected arguments: '") {
            let tokens = strayTokens(arguments)
            if tokens.count >= 2 {
                return "error: \(tokens.count) device tokens given as arguments (\(tokens[0]), \(tokens[1])"
                    + (tokens.count > 2 ? ", …" : "") + "); -d takes one token: give each its own -d, or put them "
                    + "in a file, one a line, and pass --devices FILE (--devices - reads them from a pipe)"
            }
        }
        // `history rm 3`, `history replay 3`: the words of other tools' histories, read as list's arguments.
        if command.first == "history", command.count == 2, line.hasPrefix("error: "),
            line.contains("'\(command[1])'"), let advice = historyAdvice(command[1], arguments: arguments)
        {
            return "error: history has no \(PrintableText.escapingControls(command[1])) command: \(advice)"
        }
        let prefix = "error: Unexpected argument '"
        guard line.hasPrefix(prefix), line.hasSuffix("'") else { return line }
        let word = String(line.dropFirst(prefix.count).dropLast())
        // A token's length (32 bytes and up): shorter hex is as likely a passphrase or an id.
        // The token as parsed (`<a1b2 …>` as Xcode prints it would paste as a redirection and split on its blanks).
        if command.first == "send", word.count >= 64, let token = try? DeviceToken(parsing: word) {
            return line + ". A device token goes with -d: -d \(token.hex)"
        }
        // `config edit`, as git and others have: the file is the user's to open; config path names it.
        if command.first == "config", command.count == 2, word == command[1],
            ["edit", "open", "vi", "vim", "nano", "emacs"].contains(word.lowercased())
        {
            return line
                + ". apnsctl has no editor of its own: open the file apnsctl config path names in yours, or change "
                + "one key with apnsctl config set, unset, add-device or remove-device"
        }
        if Array(command) == ["mock", "start"], word == "start" {
            return line
                + ". apnsctl mock starts it (add --detach to have it run in the background); apnsctl mock stop ends it"
        }
        return line
    }

    /// What `history WORD` meant, for the words other tools use to remove or resend an entry; nil for any other.
    private static func historyAdvice(_ word: String, arguments: [String]) -> String? {
        switch word.lowercased() {
        case "rm", "remove", "delete", "del", "drop", "prune", "purge", "clean", "erase", "reset":
            return "apnsctl history clear removes every entry, or with --before (7d, a date) the older ones"
        case "replay", "resend", "send", "retry", "again", "redo", "rerun":
            // The entry as typed after the word when it is an id or `last`, for a line to copy.
            let after = arguments.drop { $0 != word }.dropFirst().first
            let id = after.flatMap { $0 == "last" || Int($0) != nil ? $0 : nil } ?? "ID"
            return "apnsctl send --replay \(id) sends an entry again (with --cert or --auth-key: the history keeps "
                + "no credential)"
        default: return nil
        }
    }

    /// The words of a token's shape that no -d took, as parsed.
    private static func strayTokens(_ arguments: [String]) -> [String] {
        var out: [String] = []
        for (i, word) in arguments.enumerated() where word.count >= 64 {
            if i > 0, ["-d", "--device"].contains(arguments[i - 1]) { continue }
            if let token = try? DeviceToken(parsing: word) { out.append(token.hex) }
        }
        return out
    }
}
