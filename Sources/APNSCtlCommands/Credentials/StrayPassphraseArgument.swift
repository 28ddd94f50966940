import APNSCore
import APNSPlatform

/// `apnsctl inspect push.p12 S3cret`: the passphrase typed after the file, as some tools take it. The parser
/// refuses the extra word by quoting it; a word that names no file is not repeated, and the message says where
/// a passphrase goes.
enum StrayPassphraseArgument {
    /// The commands that read a credential file and a passphrase: their extra word may be the passphrase.
    static let commands: Set<String> = ["inspect", "convert", "send", "doctor", "channel"]

    /// Whether an extra word may be a passphrase: any for inspect, convert and doctor (no word of theirs is
    /// missing); for send and channel, only beside a certificate or key flag, and unless the word is one their
    /// advice is about: a whole device token, JSON, text with a blank, a payload file's name. Hex or a `/` is no
    /// sign of a non-secret (`openssl rand -hex` makes passphrases too).
    static func mayBePassphrase(_ word: String, command: String, arguments: [String] = []) -> Bool {
        mayBePassphrase(word, command: command, credentialGiven: givesCredential(arguments))
    }

    /// Whether the command line names a certificate or its key.
    static func givesCredential(_ arguments: [String]) -> Bool {
        arguments.contains { ["--cert", "--key"].contains($0) || $0.hasPrefix("--cert=") || $0.hasPrefix("--key=") }
    }

    /// `mayBePassphrase`, with whether a credential flag was given worked out once for all the words.
    static func mayBePassphrase(_ word: String, command: String, credentialGiven: Bool) -> Bool {
        if ["inspect", "convert", "doctor"].contains(command) { return true }
        guard credentialGiven else { return false }
        let lower = word.lowercased()
        if word.hasPrefix("{") || word.hasPrefix("<") || word.contains(where: \.isWhitespace) { return false }
        if lower.hasSuffix(".json") || lower.hasSuffix(".apns") { return false }
        // A device token is 32 bytes: shorter hex (`openssl rand -hex 16`) may be the secret.
        guard let token = try? DeviceToken(parsing: word) else { return true }
        return token.hex.utf8.count < 64
    }

    /// `line` with an extra word that names no file described instead of quoted; other lines as they are.
    static func hiding(_ line: String, arguments: [String]) -> String {
        guard let command = arguments.first, commands.contains(command) else { return line }
        let advice =
            "\(command) takes the passphrase from --passphrase-file FILE, APNSCTL_PASSPHRASE, --passphrase or a prompt "
            + "on the terminal, never as a bare argument"
        let one = "error: Unexpected argument '"
        if line.hasPrefix(one), line.hasSuffix("'") {
            let word = String(line.dropFirst(one.count).dropLast())
            guard arguments.contains(word), !FileSystem.exists(word),
                mayBePassphrase(word, command: command, arguments: arguments)
            else {
                return line
            }
            return "error: Unexpected argument (not repeated, in case it is the passphrase): \(advice)"
        }
        // `inspect push.p12 my secret phrase`: the parser lists every word.
        let body = line.dropFirst("error: ".count)
        guard line.hasPrefix("error: "), let colon = body.firstIndex(of: ":"),
            body[..<colon].hasSuffix(" unexpected arguments")
        else { return line }
        // The quoted words, read once (thousands of tokens pasted after one -d made this quadratic).
        var listed = Set<Substring>()
        let list = body[body.index(after: colon)...].drop { $0 == " " }
        if list.hasPrefix("'"), list.hasSuffix("'"), list.count >= 2 {
            for word in list.dropFirst().dropLast().split(separator: "', '", omittingEmptySubsequences: false) {
                listed.insert(word)
            }
        }
        let words = arguments.dropFirst().filter {
            listed.contains(Substring($0)) || ($0.contains("', '") && line.contains("'\($0)'"))
        }
        let credentialGiven = givesCredential(arguments)
        let hidden = words.filter {
            !FileSystem.exists($0) && mayBePassphrase($0, command: command, credentialGiven: credentialGiven)
        }
        guard !hidden.isEmpty else { return line }
        // Files are named (`inspect cert.pem key.pem S3cret`); the other words are not repeated.
        let files = words.filter(FileSystem.exists).map { "'\($0)'" }
        let named = files.isEmpty ? "" : " \(files.joined(separator: ", ")) and"
        return
            "error: \(body[..<colon]):\(named) \(hidden.count == 1 ? "a word" : "\(hidden.count) words") not repeated, "
            + "in case \(hidden.count == 1 ? "it is" : "they are") the passphrase: \(advice)"
    }
}
