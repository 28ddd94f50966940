import APNSCore

/// The parser's `error: Unexpected argument 'X'` where the slip is a common one, with what to type instead: a
/// device token after send's payload (the `-d` forgotten), and `mock start` (the mock starts as `apnsctl mock`).
enum UnexpectedArgumentAdvice {
    static func correcting(_ line: String, arguments: [String]) -> String {
        let prefix = "error: Unexpected argument '"
        guard line.hasPrefix(prefix), line.hasSuffix("'") else { return line }
        let word = String(line.dropFirst(prefix.count).dropLast())
        let command = arguments.prefix { !$0.hasPrefix("-") }.prefix(2)
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
}
