import APNSCrypto
import APNSPlatform

/// The CLI's passphrase prompt: APNSPlatform's no-echo prompt on the controlling terminal, whose line
/// becomes `SecretBytes` (the typed bytes are wiped once copied). What `PassphraseSource` asks when
/// neither a flag, a file nor a variable has the passphrase.
struct TerminalPassphrasePrompt: PassphrasePrompt {
    let terminal: TerminalPrompt

    func ask(_ prompt: String) -> PassphraseAnswer {
        switch terminal.ask(prompt: prompt, keep: SecretBytes.init) {
        case .secret(let secret): return .secret(secret)
        case .ended: return .ended
        case .unavailable: return .unavailable
        }
    }

    func say(_ text: String) { terminal.say(text) }
}
