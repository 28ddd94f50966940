import APNSPlatform

/// `apnsctl inspect push.p12 S3cret`: the passphrase typed after the file, as some tools take it. The parser
/// refuses the extra word by quoting it; a word that names no file is not repeated, and the message says where
/// a passphrase goes.
enum StrayPassphraseArgument {
    /// The commands that read one credential file and a passphrase: their extra word may be the passphrase.
    static let commands: Set<String> = ["inspect", "convert"]

    /// `line` with an extra word that names no file described instead of quoted; other lines as they are.
    static func hiding(_ line: String, arguments: [String]) -> String {
        let prefix = "error: Unexpected argument '"
        guard let command = arguments.first, commands.contains(command), line.hasPrefix(prefix), line.hasSuffix("'")
        else { return line }
        let word = String(line.dropFirst(prefix.count).dropLast())
        guard arguments.contains(word), !FileSystem.exists(word) else { return line }
        return "error: Unexpected argument (not repeated, in case it is the passphrase): \(command) takes the "
            + "passphrase from --passphrase-file FILE, APNSCTL_PASSPHRASE or a prompt on the terminal, never as an argument"
    }
}
