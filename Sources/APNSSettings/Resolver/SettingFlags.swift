/// The setting flags as the argument parser left them: only those given (a default never looks like a
/// choice), by setting. The commands fill it from their option groups without naming a flag
/// (`SettingFlags.commandLine(of:for:)`, in the commands' module); the resolver reads it by setting. A value is text,
/// checked by the one parser variables and profiles go through, or one the argument parser already checked
/// with that parser (a timeout arrives as seconds, its error naming the flag either way).
public struct SettingFlags: Sendable, Equatable {
    /// A flag's value as given.
    public enum Given: Sendable, Equatable {
        /// The text of each occurrence (a repeatable flag's in order; a boolean flag given is `["true"]`).
        case text([String])
        /// A value the argument parser converted with `SettingParser.parseFlag`.
        case value(SettingValue)
    }

    public var profile: String?
    /// What messages call `profile`: the flag, or `profile` where the command takes it as an argument
    /// (`config show dve`).
    public var profileLabel = "--profile"
    public var config: String?
    private var values: [String: Given] = [:]

    public init() {}

    /// What was given for `setting`, if anything.
    public func given(_ setting: Setting) -> Given? { values[setting.name] }

    /// Records `value` for `setting`; nil leaves it as not given.
    public mutating func set(_ setting: Setting, _ value: Given?) { values[setting.name] = value }

    /// A single-value flag's text.
    public subscript<Value>(key: SettingKey<Value>) -> String? {
        get { if case .text(let texts)? = values[key.name] { texts.last } else { nil } }
        set { values[key.name] = newValue.map { .text([$0]) } }
    }

    /// A repeatable flag's texts (empty: not given).
    public subscript<Value>(list key: SettingKey<Value>) -> [String] {
        get { if case .text(let texts)? = values[key.name] { texts } else { [] } }
        set { values[key.name] = newValue.isEmpty ? nil : .text(newValue) }
    }

    /// A boolean flag: given (true) or not.
    public subscript(key: SettingKey<Bool>) -> Bool {
        get { values[key.name] != nil }
        set { values[key.name] = newValue ? .text(["true"]) : nil }
    }
}
