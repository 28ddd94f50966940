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
}
