/// CLI.md's rules for the credential flags of every command that connects (`send`, `channel`, `doctor`), in
/// one place so their messages cannot drift apart: token auth needs a topic (the kinds of credential are checked by the
/// settings resolver's `checkCombinations`).
enum CredentialChoice {
    /// Token auth without `--topic` (a key knows no bundle id): 64.
    static var topicRequired: CLIError {
        .usage(
            "--topic is required with --auth-key (token auth knows no bundle id); pass --topic with the app's bundle id"
        )
    }

    /// A certificate that names no bundle id, and no topic given (`topic`: the setting as the user would give
    /// it): 64.
    static func noBundleID(topic: String = "--topic") -> CLIError {
        .usage("\(topic): the certificate names no bundle id; pass --topic with the app's bundle id")
    }
}
