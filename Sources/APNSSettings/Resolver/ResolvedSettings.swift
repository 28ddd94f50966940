import APNSClient
import APNSCore

/// One command's settings after precedence (flag, `APNSCTL_*` variable, profile, default): typed values,
/// each with its origin. What the commands build their plans from, what `-v` and `config show` print.
public struct ResolvedSettings: Sendable, Equatable {
    public let command: SettingCommand
    public let location: SettingsLocation
    /// The parsed settings file, when there is one.
    public let file: SettingsFile?
    /// The profile in use and where it was chosen (`-p`, `APNSCTL_PROFILE`, `default-profile`).
    public let profile: Sourced<String>?
    /// Setting name → value and origin, for the settings that have a value.
    public let values: [String: Sourced<SettingValue>]
    /// The device names this run knows.
    public let devices: DeviceNames
    /// A key id given above the layer that supplied the credentials (a key id belongs to its key).
    let strandedKeyID: Sourced<SettingValue>?

    init(command: SettingCommand, location: SettingsLocation, file: SettingsFile?, profile: Sourced<String>?,
         values: [String: Sourced<SettingValue>], devices: DeviceNames, strandedKeyID: Sourced<SettingValue>?) {
        self.command = command
        self.location = location
        self.file = file
        self.profile = profile
        self.values = values
        self.devices = devices
        self.strandedKeyID = strandedKeyID
    }

    /// The value of the setting called `name`.
    public subscript(name: String) -> Sourced<SettingValue>? { values[name] }

    // MARK: Typed access

    private func typed<T>(_ name: String, _ pick: (SettingValue) -> T?) -> Sourced<T>? {
        guard let s = values[name], let v = pick(s.value) else { return nil }
        return Sourced(v, from: s.origin)
    }

    public var cert: Sourced<CredentialSource>? { typed("cert") { if case .credential(let c) = $0 { c } else { nil } } }
    public var key: Sourced<CredentialSource>? { typed("key") { if case .credential(let c) = $0 { c } else { nil } } }
    public var authKey: Sourced<CredentialSource>? { typed("auth-key") { if case .credential(let c) = $0 { c } else { nil } } }
    public var keyID: Sourced<String>? { text("key-id") }
    public var teamID: Sourced<String>? { text("team-id") }
    /// `--passphrase` or `APNSCTL_PASSPHRASE`: the secret itself.
    public var passphrase: Sourced<String>? { typed("passphrase") { if case .secret(let s) = $0 { s } else { nil } } }
    public var passphraseFile: Sourced<String>? { text("passphrase-file") }
    public var environment: Sourced<EnvironmentChoice>? { typed("env") { if case .environment(let e) = $0 { e } else { nil } } }
    public var endpoints: Sourced<PushEndpoints>? { typed("endpoint") { if case .endpoints(let e, _) = $0 { e } else { nil } } }
    public var port: Sourced<Int>? { integer("port") }
    /// The proxy URL: a flag, a variable or a profile, else curl's variables (part of the default).
    public var proxy: Sourced<String>? { typed("proxy") { if case .proxy(let p) = $0 { p } else { nil } } }
    public var noProxy: Sourced<String>? { text("noproxy") }
    public var caFile: Sourced<String>? { text("ca-file") }
    public var concurrency: Sourced<Int>? { integer("concurrency") }
    /// Always present for the commands that connect: 30 by default.
    public var timeout: Sourced<Double>? { typed("timeout") { if case .seconds(let d) = $0 { d } else { nil } } }
    public var topic: Sourced<String>? { text("topic") }
    public var pushType: Sourced<PushType>? { typed("push-type") { if case .pushType(let t) = $0 { t } else { nil } } }
    public var priority: Sourced<Priority>? { typed("priority") { if case .priority(let p) = $0 { p } else { nil } } }
    /// As written (`1h`); `RequestDefaults.expiration(_:now:)` gives the time.
    public var expiration: Sourced<String>? { typed("expiration") { if case .expiration(let e) = $0 { e } else { nil } } }
    public var sizeLimit: Sourced<Int>? { integer("size-limit") }
    public var output: Sourced<OutputFormat>? { typed("output") { if case .outputFormat(let f) = $0 { f } else { nil } } }
    public var color: Sourced<ColorChoice>? { typed("color") { if case .color(let c) = $0 { c } else { nil } } }
    public var storage: Sourced<String>? { typed("storage") { if case .storage(let s) = $0 { s } else { nil } } }
    public var failWithin: Sourced<Int64>? { typed("fail-within") { if case .duration(let d, _) = $0 { d } else { nil } } }

    /// A boolean setting (`insecure`, `minify`, `quiet`, …): false unless set true somewhere.
    public func isOn(_ name: String) -> Bool {
        if case .boolean(true)? = values[name]?.value { return true }
        return false
    }

    private func text(_ name: String) -> Sourced<String>? {
        typed(name) { v in
            switch v {
            case .text(let s), .path(let s): return s
            default: return nil
            }
        }
    }

    private func integer(_ name: String) -> Sourced<Int>? { typed(name) { if case .integer(let n) = $0 { n } else { nil } } }

    /// Every setting of the command in catalog order, with its value if it has one: what `config show` lists.
    public var listing: [(setting: Setting, value: Sourced<SettingValue>?)] {
        SettingCatalog.settings(for: command).map { ($0, values[$0.name]) }
    }
}
