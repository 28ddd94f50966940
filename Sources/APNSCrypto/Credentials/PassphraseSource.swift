import APNSCore
import APNSPlatform

/// Where a passphrase may come from, in CLI.md's order: `--passphrase`, `--passphrase-file` (first line),
/// an environment variable, then the prompt it was given (the CLI's is a no-echo prompt on the terminal). Nothing is read until an encrypted
/// input actually needs it, and the answer is kept so a certificate and key share one prompt.
public struct PassphraseSource: Sendable {
    public let text: String?
    public let filePath: String?
    /// What a `filePath` of `-` reads: the caller's world's standard input (nil: `-` is a file of that name).
    public let standardInput: Int32?
    /// The variable to consult (`APNSCTL_PASSPHRASE`), or nil.
    public let environmentVariable: String?
    /// Who to ask when no other source has it; nil asks nobody.
    public let prompt: (any PassphrasePrompt)?
    /// The answer once resolved, shared by copies of this source so a certificate and key share one prompt;
    /// `prompted` says it was typed at the terminal (so a wrong one may be typed again).
    private let memo = LockedValue<(secret: SecretBytes?, prompted: Bool)>((nil, false))

    /// All sources; any may be nil.
    public init(
        text: String? = nil, filePath: String? = nil, standardInput: Int32? = nil,
        environmentVariable: String? = "APNSCTL_PASSPHRASE", prompt: (any PassphrasePrompt)? = nil
    ) {
        self.text = text
        self.filePath = filePath
        self.standardInput = standardInput
        self.environmentVariable = environmentVariable
        self.prompt = prompt
    }

    /// No passphrase from anywhere (encrypted inputs fail with `.passphraseRequired`).
    public static var none: PassphraseSource {
        PassphraseSource(text: nil, filePath: nil, environmentVariable: nil, prompt: nil)
    }

    /// The passphrase, or nil when no source has one. `forFile` names the file in the prompt.
    /// An unreadable `filePath` is `.passphraseFileUnreadable`, a missing input (exit 66); Ctrl-D at the
    /// prompt is `.passphraseEntryEnded`. Threads that ask at once wait for the first answer rather than
    /// prompting twice.
    public func resolve(forFile path: String) throws(CredentialProblem) -> SecretBytes? {
        try memo.withLock {
            (cached: inout (secret: SecretBytes?, prompted: Bool)) throws(CredentialProblem) -> SecretBytes? in
            if let secret = cached.secret { return secret }
            let found = try lookUp(forFile: path)
            cached = (found.secret, found.prompted)
            return found.secret
        }
    }

    /// How many times a terminal user may type a passphrase, as ssh and openssl allow.
    public static let terminalTries = 3

    /// Runs `attempt` with the passphrase for `path`; `attempt` returns nil when the passphrase is wrong.
    /// A passphrase typed at the prompt may be typed again, up to `terminalTries` in all; one from a
    /// flag, file or the environment would be wrong again, so it fails at once with `.wrongPassphrase`.
    public func withPassphrase<T>(
        forFile path: String,
        _ attempt: (SecretBytes) throws(CredentialProblem) -> T?
    ) throws(CredentialProblem) -> T {
        var tries = 0
        while true {
            guard let secret = try resolve(forFile: path) else { throw .passphraseRequired(path: path) }
            tries += 1
            if let value = try attempt(secret) { return value }
            let prompted = memo.withLock { $0.prompted }
            guard prompted, tries < Self.terminalTries else { throw .wrongPassphrase(path: path) }
            prompt?.say("Wrong passphrase for \(Self.asked(path)); try again.\n")
            memo.withLock { $0 = (nil, false) }
        }
    }

    private func lookUp(forFile path: String) throws(CredentialProblem) -> (secret: SecretBytes?, prompted: Bool) {
        if let text { return (Self.secret(text: text), false) }
        if let filePath {
            var bytes: [UInt8]
            do { bytes = try FileSystem.readFirstLine(filePath, standardInput: standardInput) } catch {
                throw .passphraseFileUnreadable(path: filePath, failure: error)
            }
            defer { for i in bytes.indices { bytes[i] = 0 } }
            return (SecretBytes(Self.firstLine(bytes)), false)
        }
        if let name = environmentVariable, let value = Environment.setting(name) {
            return (Self.secret(text: value), false)
        }
        if let prompt {
            switch prompt.ask("Passphrase for \(Self.asked(path)): ") {
            case .secret(let secret): return (secret, true)
            case .ended: throw .passphraseEntryEnded(path: path)
            case .unavailable: return (nil, false)
            }
        }
        return (nil, false)
    }

    /// The credential a prompt asks about: its path, or for one read from standard input (`inspect -`, whose
    /// prompt is on the terminal while a pipe gives the file) what that is, not "-".
    static func asked(_ path: String) -> String {
        FileSystem.namesStandardInput(path) ? "the credential read from standard input" : path
    }

    /// A passphrase given as text, as every source of one reads it (`withoutLineEnd`): `convert`'s output password
    /// too, so a `.p12` it writes opens with the same text.
    public static func secret(text: String) -> SecretBytes { SecretBytes(withoutLineEnd(Array(text.utf8))) }

    /// A passphrase given as text (a flag, a variable) without the line end a copy from a Windows file leaves
    /// (`APNSCTL_PASSPHRASE=$(cat pass.txt)` keeps a CR): the file's first line is read the same way.
    static func withoutLineEnd(_ bytes: [UInt8]) -> [UInt8] {
        var text = bytes[...]
        while let last = text.last, last == 0x0A || last == 0x0D { text = text.dropLast() }
        return Array(text)
    }

    /// The bytes before the first line break: a trailing CR from Windows editors and a UTF-8 byte order mark
    /// from Notepad are dropped (no passphrase is typed with either).
    public static func firstLine(_ bytes: [UInt8]) -> [UInt8] {
        var line = bytes.prefix { $0 != 0x0A }
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        if line.last == 0x0D { line = line.dropLast() }
        return Array(line)
    }
}
