/// Who a `PassphraseSource` asks when nothing else has the passphrase: the CLI passes the terminal (its
/// no-echo prompt on /dev/tty, which lives in APNSPlatform), tests pass a fake that answers from a list.
/// Crypto itself holds no terminal code.
public protocol PassphrasePrompt: Sendable {
    /// Shows `prompt` and returns what the user typed.
    func ask(_ prompt: String) -> PassphraseAnswer
    /// Tells the user something between prompts ("Wrong passphrase …; try again.").
    func say(_ text: String)
}

/// What a `PassphrasePrompt` got.
public enum PassphraseAnswer: Sendable {
    /// A line (maybe empty), wiped when the last owner lets go.
    case secret(SecretBytes)
    /// The user ended the input (Ctrl-D) before a line.
    case ended
    /// There is nobody to ask (no terminal).
    case unavailable
}
