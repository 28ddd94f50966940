import APNSCore

/// The parser's `error: Unexpected argument 'X'` where the slip is a common one, with what to type instead: a
/// device token after send's payload (the `-d` forgotten), and `mock start` (the mock starts as `apnsctl mock`).
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
        let prefix = "error: Unexpected argument '"
        guard line.hasPrefix(prefix), line.hasSuffix("'") else { return line }
        let word = String(line.dropFirst(prefix.count).dropLast())
        // A token's length (32 bytes and up): shorter hex is as likely a passphrase or an id.
        // The token as parsed (`<a1b2 …>` as Xcode prints it would paste as a redirection and split on its blanks).
        if command.first == "send", word.count >= 64, let token = try? DeviceToken(parsing: word) {
            return line + ". A device token goes with -d: -d \(token.hex)"
        }
        if Array(command) == ["mock", "start"], word == "start" {
            return line
                + ". apnsctl mock starts it (add --detach to have it run in the background); apnsctl mock stop ends it"
        }
        return line
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
