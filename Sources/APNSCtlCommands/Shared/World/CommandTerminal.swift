import APNSCrypto
import APNSPlatform

/// The controlling terminal a command may ask the user on (a passphrase, a new password, a yes/no before an
/// irreversible step): in the binary, `/dev/tty` when standard input or standard error is a terminal
/// (`TerminalPrompt`). Part of the world, so a command run in-process never asks on the terminal of whoever runs
/// the tests.
struct CommandTerminal: Sendable {
    /// Whether a user can be asked at all.
    var isAvailable: @Sendable () -> Bool
    /// One line, echoed; nil without a terminal or at end of input.
    var readLine: @Sendable (_ prompt: String) -> String?
    /// One line without echo; nil without a terminal or at end of input.
    var readSecret: @Sendable (_ prompt: String) -> SecretBytes?
    /// What a passphrase source asks when no flag, file or variable has the passphrase.
    var passphrasePrompt: any PassphrasePrompt

    /// This process's controlling terminal.
    static let process = on(.controlling)

    /// The terminal `prompt` asks on: the controlling one, or a terminal a test gives a command it runs in-process.
    static func on(_ prompt: TerminalPrompt) -> CommandTerminal {
        CommandTerminal(
            isAvailable: { prompt.isAvailable },
            readLine: { prompt.readLine(prompt: $0) },
            readSecret: { prompt.readSecret(prompt: $0, keep: SecretBytes.init) },
            passphrasePrompt: TerminalPassphrasePrompt(terminal: prompt))
    }
}
