import APNSClient
import APNSCore

/// A setting as the catalog lists it: its long name (the profile key), its kind, the commands that have it,
/// what `config show` says when it is unset, and its built-in default when that is a plain value. Declared
/// only through a `SettingKey` (below), so the name, the variable, the catalog row and the typed accessor are
/// one declaration.
public struct Setting: Sendable, Equatable, Hashable {
    /// The long flag without dashes: `auth-key`; also the profile key.
    public let name: String
    public let kind: SettingKind
    public let commands: Set<SettingCommand>
    /// `config show`'s note for an unset setting (`the system trust store`); nil: `not set`.
    public let unsetNote: String?
    /// A command whose default differs from `unsetNote`'s (doctor checks both environments), and its note.
    public let unsetNoteFor: [SettingCommand: String]

    /// What the setting is when nothing sets it, for `command`.
    public func unsetNote(for command: SettingCommand) -> String? { unsetNoteFor[command] ?? unsetNote }
    /// The built-in default when it is a plain value (the others depend on the certificate or the payload and
    /// are settled when the request is planned).
    public let defaultValue: SettingValue?

    init(
        _ name: String, _ kind: SettingKind, _ commands: Set<SettingCommand>, unset: String? = nil,
        unsetFor: [SettingCommand: String] = [:], default value: SettingValue? = nil
    ) {
        (self.name, self.kind, self.commands, unsetNote, defaultValue) = (name, kind, commands, unset, value)
        unsetNoteFor = unsetFor
    }

    /// `--auth-key`.
    public var flag: String { "--" + name }

    /// `APNSCTL_AUTH_KEY`: the long flag's name in upper case with `-` as `_`.
    public var variable: String { Self.variableName(name) }

    /// Secret: never read from the settings file, never echoed.
    public var isSecret: Bool { kind == .secret }

    /// A path where a hurried user types the secret itself (`--passphrase-file S3cret`): a value naming no file is
    /// never shown, by `-v`, `config show` or `config set`.
    public var isSecretFile: Bool { self == Setting.of(.passphraseFile) }

    /// Repeatable on the command line (an array in a profile, a comma-separated list in its variable).
    public var isRepeatable: Bool { kind == .endpoints }

    /// The name a command's property for this setting has, compared without case: `ca-file` is `caFile`,
    /// `key-id` is `keyID`.
    public var propertyName: String { String(name.filter { $0 != "-" }) }

    static func variableName(_ name: String) -> String {
        "APNSCTL_" + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    public static func == (a: Setting, b: Setting) -> Bool { a.name == b.name }
    public func hash(into h: inout Hasher) { h.combine(name) }
}

private let connected: Set<SettingCommand> = [.send, .channel, .doctor]
private let tokenUsers: Set<SettingCommand> = [.send, .channel, .doctor, .jwt]

/// Every setting of `send`, `channel`, `doctor` and `jwt`, declared once, grouped by the type it reads as.
extension SettingKey where Value == CredentialSource {
    public static var cert: Self { Self("cert", .credential, connected) }
    public static var key: Self { Self("key", .credential, connected) }
    public static var authKey: Self { Self("auth-key", .credential, tokenUsers) }
}

extension SettingKey where Value == String {
    public static var keyID: Self {
        Self("key-id", .identifier, tokenUsers, unset: "from a file named AuthKey_<KEYID>.p8")
    }
    public static var teamID: Self { Self("team-id", .identifier, tokenUsers) }
    /// The secret itself.
    public static var passphrase: Self { Self("passphrase", .secret, connected, unset: "a prompt on a terminal") }
    public static var passphraseFile: Self { Self("passphrase-file", .path, connected) }
    /// A flag, a variable or a profile, else curl's variables (part of the default).
    public static var proxy: Self { Self("proxy", .proxy, connected, unset: "none: no proxy variable is set") }
    public static var noproxy: Self { Self("noproxy", .text, connected, unset: "none") }
    public static var caFile: Self { Self("ca-file", .path, connected, unset: "the system trust store") }
    public static var topic: Self {
        Self("topic", .word, connected, unset: "the certificate's bundle id (required with auth-key)")
    }
    /// As written (`1h`); `RequestDefaults.expiration(_:now:)` gives the time.
    public static var expiration: Self {
        Self("expiration", .expiration, [.send], unset: "none: no apns-expiration header")
    }
    /// The app build the tokens come from: its bundle id and token environment are defaults.
    public static var app: Self {
        Self("app", .path, [.send, .doctor], unset: "none: the topic and environment come from the credentials")
    }
    public static var storage: Self { Self("storage", .storage, [.channel], default: .storage("none")) }
}

extension SettingKey where Value == Bool {
    public static var noTokenCache: Self { Self("no-token-cache", .boolean, connected) }
    public static var insecure: Self { Self("insecure", .boolean, connected) }
    public static var minify: Self { Self("minify", .boolean, [.send]) }
    public static var resendUnknown: Self { Self("resend-unknown", .boolean, [.send]) }
    public static var skipInvalid: Self { Self("skip-invalid", .boolean, [.send]) }
    public static var quiet: Self { Self("quiet", .boolean, [.send]) }
    public static var verbose: Self { Self("verbose", .boolean, [.send]) }
    /// Off switch of the send history (a profile may also say `history = false`).
    public static var noHistory: Self { Self("no-history", .boolean, [.send]) }
}

extension SettingKey where Value == EnvironmentChoice {
    public static var env: Self {
        Self(
            "env", .environment, connected, unset: "the certificate's only environment, else sandbox",
            unsetFor: [.doctor: "the certificate's environments (both for a universal one); both with token auth"])
    }
}

extension SettingKey where Value == PushEndpoints {
    public static var endpoint: Self {
        Self("endpoint", .endpoints, connected, unset: "Apple's host for the environment")
    }
}

extension SettingKey where Value == Int {
    public static var port: Self { Self("port", .port, connected, unset: "443") }
    public static var concurrency: Self {
        Self("concurrency", .concurrency, [.send, .channel], unset: "the server's limit, at most 1000")
    }
    public static var sizeLimit: Self { Self("size-limit", .sizeLimit, [.send], unset: "4096, 5120 for voip") }
    /// How long the send history keeps an entry, and how many it keeps.
    public static var historyDays: Self { Self("history-days", .count, [.send], default: .integer(30)) }
    public static var historyEntries: Self { Self("history-entries", .count, [.send], default: .integer(1000)) }
}

extension SettingKey where Value == Double {
    public static var timeout: Self { Self("timeout", .seconds, connected, default: .seconds(30)) }
}

extension SettingKey where Value == PushType {
    public static var pushType: Self {
        Self("push-type", .pushType, [.send], unset: "from the topic suffix, else from the payload")
    }
}

extension SettingKey where Value == Priority {
    public static var priority: Self { Self("priority", .priority, [.send], unset: "10, or 5 for background") }
}

extension SettingKey where Value == Int64 {
    public static var failWithin: Self { Self("fail-within", .duration, [.doctor]) }
}

extension SettingKey where Value == OutputFormat {
    public static var output: Self { Self("output", .outputFormat, connected, default: .outputFormat(.text)) }
}

extension SettingKey where Value == ColorChoice {
    public static var color: Self { Self("color", .color, [.send], default: .color(.auto)) }
}

/// The table itself.
public enum SettingCatalog {
    /// Every setting's key, in the order `config show` lists them.
    public static let keys: [AnySettingKey] = [
        AnySettingKey(.cert),
        AnySettingKey(.key),
        AnySettingKey(.authKey),
        AnySettingKey(.keyID),
        AnySettingKey(.teamID),
        AnySettingKey(.passphrase),
        AnySettingKey(.passphraseFile),
        AnySettingKey(.noTokenCache),
        AnySettingKey(.env),
        AnySettingKey(.endpoint),
        AnySettingKey(.port),
        AnySettingKey(.proxy),
        AnySettingKey(.noproxy),
        AnySettingKey(.caFile),
        AnySettingKey(.insecure),
        AnySettingKey(.concurrency),
        AnySettingKey(.timeout),
        AnySettingKey(.topic),
        AnySettingKey(.app),
        AnySettingKey(.pushType),
        AnySettingKey(.priority),
        AnySettingKey(.expiration),
        AnySettingKey(.sizeLimit),
        AnySettingKey(.minify),
        AnySettingKey(.resendUnknown),
        AnySettingKey(.skipInvalid),
        AnySettingKey(.storage),
        AnySettingKey(.failWithin),
        AnySettingKey(.output),
        AnySettingKey(.quiet),
        AnySettingKey(.color),
        AnySettingKey(.verbose),
        AnySettingKey(.noHistory),
        AnySettingKey(.historyDays),
        AnySettingKey(.historyEntries),
    ]

    /// Every setting, in the order `config show` lists them.
    public static let all: [Setting] = keys.map(\.setting)

    /// CLI.md's profile spelling of the history's switch: `history = false` is `no-history = true`. The settings
    /// file reads it so, and `config set`/`unset` take it as the key it is written as.
    public static let historyKey = "history"

    /// The other spelling of the history's switch, for `key` that is one of them.
    public static func otherHistorySpelling(_ key: String) -> String? {
        let spellings = [historyKey, Setting.of(.noHistory).name]
        guard spellings.contains(key) else { return nil }
        return spellings.first { $0 != key }
    }

    /// Flags that are inputs of one run, never settings (CLI.md): a profile naming one is refused with that
    /// reason. `devices` is absent: in a profile it is the profile's table of device names.
    public static let perRunInputs: [String] = [
        "payload", "device", "channel", "apns-id", "collapse-id", "request-id", "dry-run", "yes",
        "alert", "title", "badge", "sound", "live-activity", "content-state", "attributes-type", "attributes",
        "stale-date", "dismissal-date", "relevance-score", "input-push-token", "input-push-channel", "timestamp",
        "content-changed", "profile", "config", "unsent", "simulator", "replay", "decode",
        "subtitle", "category", "thread-id", "mutable-content", "content-available",
    ]

    private static let byName: [String: Setting] = Dictionary(
        all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    /// The setting called `name`, if there is one.
    public static func setting(_ name: String) -> Setting? { byName[name] }

    /// The settings `command` has, in table order.
    public static func settings(for command: SettingCommand) -> [Setting] {
        all.filter { $0.commands.contains(command) }
    }

    /// The credential settings that travel as one unit (CLI.md: a key id belongs to its key).
    public static let credentialUnit: [Setting] = [
        Setting.of(.cert), Setting.of(.key), Setting.of(.authKey), Setting.of(.keyID),
    ]

    /// The passphrase settings: the first layer naming either supplies it.
    public static let passphraseUnit: [Setting] = [Setting.of(.passphrase), Setting.of(.passphraseFile)]
}
