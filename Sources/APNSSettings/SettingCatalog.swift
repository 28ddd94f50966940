/// Every setting flag of `send`, `channel`, `doctor` and `jwt`, in one table: its long name (the profile key),
/// its kind, the commands that have it. The variable is derived from the name (`APNSCTL_<NAME>`), so a
/// setting cannot be added without one. The per-run inputs (payload, devices, ids…) are listed too, so a
/// profile naming one is told why it is refused. When the commands are rebuilt on the resolver, a test
/// compares this table with the flags the argument parser defines, in both directions.
public struct Setting: Sendable, Equatable, Hashable {
    /// The long flag without dashes: `auth-key`; also the profile key.
    public let name: String
    public let kind: SettingKind
    public let commands: Set<SettingCommand>

    public init(_ name: String, _ kind: SettingKind, _ commands: Set<SettingCommand>) {
        (self.name, self.kind, self.commands) = (name, kind, commands)
    }

    /// `--auth-key`.
    public var flag: String { "--" + name }

    /// `APNSCTL_AUTH_KEY`: the long flag's name in upper case with `-` as `_`.
    public var variable: String { Self.variableName(name) }

    static func variableName(_ name: String) -> String {
        "APNSCTL_" + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    public static func == (a: Setting, b: Setting) -> Bool { a.name == b.name }
    public func hash(into h: inout Hasher) { h.combine(name) }
}

/// The table itself.
public enum SettingCatalog {
    private static let connected: Set<SettingCommand> = [.send, .channel, .doctor]
    private static let tokenUsers: Set<SettingCommand> = [.send, .channel, .doctor, .jwt]

    /// Every setting, in the order `config show` lists them.
    public static let all: [Setting] = [
        Setting("cert", .credential, connected),
        Setting("key", .credential, connected),
        Setting("auth-key", .credential, tokenUsers),
        Setting("key-id", .word, tokenUsers),
        Setting("team-id", .word, tokenUsers),
        Setting("passphrase", .secret, connected),
        Setting("passphrase-file", .path, connected),
        Setting("no-token-cache", .boolean, [.send, .channel, .doctor]),
        Setting("env", .environment, connected),
        Setting("endpoint", .endpoints, connected),
        Setting("port", .port, connected),
        Setting("proxy", .proxy, connected),
        Setting("noproxy", .text, connected),
        Setting("ca-file", .path, connected),
        Setting("insecure", .boolean, connected),
        Setting("concurrency", .concurrency, [.send, .channel]),
        Setting("timeout", .seconds, connected),
        Setting("topic", .word, connected),
        Setting("push-type", .pushType, [.send]),
        Setting("priority", .priority, [.send]),
        Setting("expiration", .expiration, [.send]),
        Setting("size-limit", .sizeLimit, [.send]),
        Setting("minify", .boolean, [.send]),
        Setting("resend-unknown", .boolean, [.send]),
        Setting("storage", .storage, [.channel]),
        Setting("fail-within", .duration, [.doctor]),
        Setting("output", .outputFormat, connected),
        Setting("quiet", .boolean, [.send]),
        Setting("color", .color, [.send]),
        Setting("verbose", .boolean, [.send]),
    ]

    /// Flags that are inputs of one run, never settings (CLI.md): a profile naming one is refused with that
    /// reason. `devices` is absent: in a profile it is the profile's table of device names.
    public static let perRunInputs: [String] = [
        "payload", "device", "channel", "apns-id", "collapse-id", "request-id", "dry-run", "yes",
        "alert", "title", "badge", "sound", "live-activity", "content-state", "attributes-type", "attributes",
        "stale-date", "dismissal-date", "relevance-score", "input-push-token", "input-push-channel", "timestamp",
        "content-changed", "profile", "config",
    ]

    private static let byName: [String: Setting] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    /// The setting called `name`, if there is one.
    public static func setting(_ name: String) -> Setting? { byName[name] }

    /// The settings `command` has, in table order.
    public static func settings(for command: SettingCommand) -> [Setting] { all.filter { $0.commands.contains(command) } }

    /// The credential settings that travel as one unit (CLI.md: a key id belongs to its key).
    public static let credentialUnit = ["cert", "key", "auth-key", "key-id"]
}
