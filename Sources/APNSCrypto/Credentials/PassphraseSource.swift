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
    /// The answer once resolved, shared by copies of this source so a certificate and key share one prompt.
    private let memo = LockedValue<SecretBytes?>(nil)

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
    /// An unreadable `filePath` is `.passphraseFileUnreadable`, a missing input (exit 66). Threads that ask at once wait for the
    /// first answer rather than prompting twice.
    public func resolve(forFile path: String) throws(CredentialProblem) -> SecretBytes? {
        try memo.withLock { (cached: inout SecretBytes?) throws(CredentialProblem) -> SecretBytes? in
            if let cached { return cached }
            cached = try lookUp(forFile: path)
            return cached
        }
    }

    private func lookUp(forFile path: String) throws(CredentialProblem) -> SecretBytes? {
        if let text { return SecretBytes(Array(text.utf8)) }
        if let filePath {
            var bytes: [UInt8]
            do { bytes = try FileSystem.read(filePath) } catch { throw .passphraseFileUnreadable(path: filePath, failure: error) }
            defer { TerminalPrompt.wipe(&bytes) }
            return SecretBytes(Self.firstLine(bytes))
        }
        if let name = environmentVariable, let value = Environment.value(name) {
            return SecretBytes(Array(value.utf8))
        }
        if promptOnTerminal {
            return TerminalPrompt.readSecret(prompt: "Passphrase for \(path): ")
        }
        return nil
    }

    /// The bytes before the first line break (a trailing CR from Windows editors is dropped).
    static func firstLine(_ bytes: [UInt8]) -> [UInt8] {
        var line = bytes.prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        return Array(line)
    }
}
