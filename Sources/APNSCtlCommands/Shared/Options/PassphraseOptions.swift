import APNSCrypto
import APNSPlatform
import APNSSettings
import ArgumentParser

/// `--passphrase` and `--passphrase-file` for an encrypted `--cert`/`--key`/`.p12` input; with neither,
/// `APNSCTL_PASSPHRASE` or `APNSCTL_PASSPHRASE_FILE`, then a no-echo prompt on a terminal. Shared by send, channel, doctor, inspect and convert;
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
        help: ArgumentHelp(
            "Read the passphrase from the first line of this file; - reads that line from standard input.",
            valueName: "file"),
        completion: .file())
    var passphraseFile: String?

    /// The lazily resolved source: `--passphrase`, `--passphrase-file`, else the variables `send` reads too
    /// (`APNSCTL_PASSPHRASE`, `APNSCTL_PASSPHRASE_FILE`), then a terminal prompt. Two of them at once are refused,
    /// as `send` refuses them.
    func source(in world: CommandWorld) throws(CLIError) -> PassphraseSource {
        let chosen = try choice(in: world)
        return PassphraseSource.given(text: chosen.text?.value, file: chosen.file?.value, in: world)
    }

    /// The passphrase given as text and where, for the advice on a wrong one (`CLIError.init(_:…passphrase:)`).
    func given(in world: CommandWorld) -> (text: String, label: String)? {
        (try? choice(in: world))?.text.map { ($0.value, $0.label) }
    }

    /// The passphrase file's path (`-` is standard input) and the name that gave it, for its messages.
    func file(in world: CommandWorld) -> (value: String, label: String)? { (try? choice(in: world))?.file }

    /// A flag beats the variables (so a CI job's `APNSCTL_PASSPHRASE_FILE` does not hide a typed
    /// `--passphrase`); each pair is refused only within its own kind. Empty variables count as unset.
    private func choice(in world: CommandWorld) throws(CLIError) -> (
        text: (value: String, label: String)?, file: (value: String, label: String)?
    ) {
        if passphrase != nil && passphraseFile != nil {
            throw .usage("--passphrase and --passphrase-file both given; pass only one")
        }
        if passphrase != nil || passphraseFile != nil {
            return (passphrase.map { ($0, "--passphrase") }, passphraseFile.map { ($0, "--passphrase-file") })
        }
        // The variables `send` resolves these settings from, named by the catalog.
        let (textName, fileName) = (Setting.of(.passphrase).variable, Setting.of(.passphraseFile).variable)
        let text = world.setting(textName)
        let file = world.setting(fileName)
        if text != nil && file != nil {
            throw .usage("\(textName) and \(fileName) both given; pass only one")
        }
        return (text.map { ($0, textName) }, file.map { ($0, fileName) })
    }
}

extension PassphraseSource {
    /// The passphrase given as text or as a file, else the prompt. `--passphrase-file -` (or `/dev/stdin`) with a terminal for standard
    /// input is typed, not piped: asked at the prompt, without echo (read as a file, the terminal showed it as it
    /// was typed and waited for Ctrl-D).
    static func given(text: String?, file: String?, in world: CommandWorld) -> PassphraseSource {
        let typed = file.map(FileSystem.namesStandardInput) == true && world.streams.isTerminal(world.standardInput)
        return PassphraseSource(
            text: text, filePath: typed ? nil : file, standardInput: world.standardInput, environmentVariable: nil,
            prompt: world.terminal.passphrasePrompt)
    }
}
