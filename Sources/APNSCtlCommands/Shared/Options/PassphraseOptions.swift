import APNSCrypto
import APNSPlatform
import ArgumentParser

/// `--passphrase` and `--passphrase-file` for an encrypted `--cert`/`--key`/`.p12` input; with neither,
/// `APNSCTL_PASSPHRASE`, then a no-echo prompt on a terminal. Shared by send, channel, doctor, inspect and convert;
/// the settings commands take them through the resolver (`ResolvedSettings.passphraseSource`).
struct PassphraseOptions: ParsableArguments {
    @Option(
        name: .setting(.passphrase),
        help: ArgumentHelp(
            "Passphrase of the encrypted key or .p12 (visible to other local users: prefer --passphrase-file or APNSCTL_PASSPHRASE).",
            valueName: "text"), completion: .none)
    var passphrase: String?

    @Option(
        name: .setting(.passphraseFile),
        help: ArgumentHelp("Read the passphrase from the first line of this file.", valueName: "file"),
        completion: .file())
    var passphraseFile: String?

    /// The lazily resolved source: `--passphrase`, `--passphrase-file`, then the world's `APNSCTL_PASSPHRASE`
    /// (empty counts as unset), then a terminal prompt. Both flags at once are refused, as `send` refuses them.
    func source(in world: CommandWorld) throws(CLIError) -> PassphraseSource {
        if passphrase != nil && passphraseFile != nil {
            throw .usage("--passphrase and --passphrase-file both given; pass only one")
        }
        let variable = passphrase == nil && passphraseFile == nil ? world.setting("APNSCTL_PASSPHRASE") : nil
        return PassphraseSource.given(text: passphrase ?? variable, file: passphraseFile, in: world)
    }

    /// The passphrase given as text and where, for the advice on a wrong one (`CLIError.init(_:…passphrase:)`).
    func given(in world: CommandWorld) -> (text: String, label: String)? {
        if let passphrase { return (passphrase, "--passphrase") }
        // The variable counts only where `source` reads it: with neither flag.
        guard passphraseFile == nil else { return nil }
        return world.setting("APNSCTL_PASSPHRASE").map { ($0, "APNSCTL_PASSPHRASE") }
    }
}

extension PassphraseSource {
    /// The passphrase given as text or as a file, else the prompt. `--passphrase-file -` with a terminal for standard
    /// input is typed, not piped: asked at the prompt, without echo (read as a file, the terminal showed it as it
    /// was typed and waited for Ctrl-D).
    static func given(text: String?, file: String?, in world: CommandWorld) -> PassphraseSource {
        let typed = file == "-" && world.streams.isTerminal(world.standardInput)
        return PassphraseSource(
            text: text, filePath: typed ? nil : file, environmentVariable: nil, prompt: world.terminal.passphrasePrompt)
    }
}
