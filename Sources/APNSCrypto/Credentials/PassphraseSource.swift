import APNSCore

/// Where a passphrase may come from, in CLI.md's order: `--passphrase`, `--passphrase-file` (first line),
/// an environment variable, then a no-echo prompt on a terminal. Nothing is read until an encrypted
/// input actually needs it, and the answer is kept so a certificate and key share one prompt.
public struct PassphraseSource: Sendable {
    public let text: String?
    public let filePath: String?
    /// The variable to consult (`APNSCTL_PASSPHRASE`), or nil.
    public let environmentVariable: String?
    public let promptOnTerminal: Bool
    private let memo = Memo()

    /// All sources; any may be nil.
    public init(text: String? = nil, filePath: String? = nil,
                environmentVariable: String? = "APNSCTL_PASSPHRASE", promptOnTerminal: Bool = true) {
        self.text = text
        self.filePath = filePath
        self.environmentVariable = environmentVariable
        self.promptOnTerminal = promptOnTerminal
    }

    /// No passphrase from anywhere (encrypted inputs fail with `.passphraseRequired`).
    public static var none: PassphraseSource {
        PassphraseSource(text: nil, filePath: nil, environmentVariable: nil, promptOnTerminal: false)
    }

    /// A known passphrase (tests, generated credentials).
    public static func literal(_ text: String) -> PassphraseSource {
        PassphraseSource(text: text, filePath: nil, environmentVariable: nil, promptOnTerminal: false)
    }

    /// The passphrase, or nil when no source has one. `forFile` names the file in the prompt.
    /// A missing `--passphrase-file` is a missing input (exit 66); Ctrl-D at the prompt is
    /// `.passphraseEntryEnded`.
    public func resolve(forFile path: String) throws(CredentialProblem) -> SecretBytes? {
        if let cached = memo.value { return cached }
        let found = try lookUp(forFile: path)
        memo.value = found
        return found
    }

    /// How many times a terminal user may type a passphrase, as ssh and openssl allow.
    public static let terminalTries = 3

    /// Runs `attempt` with the passphrase for `path`; `attempt` returns nil when the passphrase is wrong.
    /// A passphrase typed at the prompt may be typed again, up to `terminalTries` in all; one from a
    /// flag, file or the environment would be wrong again, so it fails at once with `.wrongPassphrase`.
    public func withPassphrase<T>(forFile path: String,
                                  _ attempt: (SecretBytes) throws(CredentialProblem) -> T?) throws(CredentialProblem) -> T {
        var tries = 0
        while true {
            guard let secret = try resolve(forFile: path) else { throw .passphraseRequired(path: path) }
            tries += 1
            if let value = try attempt(secret) { return value }
            guard memo.prompted, tries < Self.terminalTries else { throw .wrongPassphrase(path: path) }
            TerminalPrompt.say("Wrong passphrase for \(path); try again.\n")
            memo.value = nil
        }
    }

    private func lookUp(forFile path: String) throws(CredentialProblem) -> SecretBytes? {
        if let text { return SecretBytes(Array(text.utf8)) }
        if let filePath {
            var bytes: [UInt8]
            do { bytes = try FileSystem.read(filePath) } catch { throw CredentialProblem(reading: error.relabelled("--passphrase-file \(filePath)")) }
            defer { TerminalPrompt.wipe(&bytes) }
            return SecretBytes(Self.firstLine(bytes))
        }
        if let name = environmentVariable, let value = Environment.value(name) {
            return SecretBytes(Array(value.utf8))
        }
        if promptOnTerminal {
            switch TerminalPrompt.ask(prompt: "Passphrase for \(path): ") {
            case .secret(let secret):
                memo.prompted = true
                return secret
            case .ended: throw .passphraseEntryEnded(path: path)
            case .unavailable: return nil
            }
        }
        return nil
    }

    /// The bytes before the first line break (a trailing CR from Windows editors is dropped).
    static func firstLine(_ bytes: [UInt8]) -> [UInt8] {
        var line = bytes.prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        return Array(line)
    }

    /// Holds the resolved secret for the life of the source.
    private final class Memo: @unchecked Sendable {
        var value: SecretBytes?
        /// The value was typed at the terminal prompt (so a wrong one may be typed again).
        var prompted = false
    }
}
