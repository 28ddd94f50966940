import APNSClient
import APNSCore

/// One setting, declared once: its long name (the flag without dashes, the profile key, and `APNSCTL_<NAME>`),
/// its kind (how its text is checked), the commands that take it, and what `config show` says when it is
/// unset. The catalog lists the keys, the option declarations are named from them, the command line fills
/// them by property name, and `ResolvedSettings` is read through them (`settings[.timeout]` is a `Double`).
public struct SettingKey<Value: SettingValueReadable>: Sendable {
    public let setting: Setting

    init(
        _ name: String, _ kind: SettingKind, _ commands: Set<SettingCommand>, unset: String? = nil,
        unsetFor: [SettingCommand: String] = [:], default value: SettingValue? = nil
    ) {
        setting = Setting(name, kind, commands, unset: unset, unsetFor: unsetFor, default: value)
    }

    /// The long flag without dashes: `auth-key`.
    public var name: String { setting.name }
    /// `--auth-key`.
    public var flag: String { setting.flag }

    /// Whether `value` reads as this key's type (the declaration check: each kind reads as its key's type).
    public func reads(_ value: SettingValue) -> Bool { Value(setting: value) != nil }
}

/// A key of any type, for the catalog's list.
public struct AnySettingKey: Sendable {
    public let setting: Setting
    /// `SettingKey.reads`.
    public let reads: @Sendable (SettingValue) -> Bool

    public init<Value>(_ key: SettingKey<Value>) {
        setting = key.setting
        reads = { key.reads($0) }
    }
}

extension Setting {
    /// `key`'s setting: `Setting.of(.timeout).flag` is `--timeout`.
    public static func of<Value>(_ key: SettingKey<Value>) -> Setting { key.setting }
}

/// A type a setting's resolved value can be read as: the value a `SettingValue` case holds. Each case holds
/// one type, so a key whose type does not match its kind reads nothing, which the declaration check catches.
public protocol SettingValueReadable: Sendable, Equatable {}

extension SettingValueReadable {
    init?(setting value: SettingValue) {
        guard let held = value.held as? Self else { return nil }
        self = held
    }
}

extension SettingValue {
    /// The value this case holds (a duration's seconds, the parsed endpoints).
    var held: any Sendable {
        switch self {
        case .text(let s), .path(let s), .secret(let s), .proxy(let s), .expiration(let s), .storage(let s): return s
        case .credential(let c): return c
        case .boolean(let b): return b
        case .environment(let e): return e
        case .endpoints(let e, _): return e
        case .integer(let n): return n
        case .seconds(let d): return d
        case .pushType(let t): return t
        case .priority(let p): return p
        case .outputFormat(let f): return f
        case .color(let c): return c
        case .duration(let d, _): return d
        }
    }
}

extension Bool: SettingValueReadable {}
extension String: SettingValueReadable {}
extension Int: SettingValueReadable {}
/// Seconds.
extension Double: SettingValueReadable {}
/// A duration's seconds.
extension Int64: SettingValueReadable {}
extension CredentialSource: SettingValueReadable {}
extension EnvironmentChoice: SettingValueReadable {}
extension PushEndpoints: SettingValueReadable {}
extension PushType: SettingValueReadable {}
extension Priority: SettingValueReadable {}
extension OutputFormat: SettingValueReadable {}
extension ColorChoice: SettingValueReadable {}
