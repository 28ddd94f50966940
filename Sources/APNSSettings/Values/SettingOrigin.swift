/// Where a resolved setting came from: what `-v` and `config show` print beside it, and what an error about
/// its value names.
public enum SettingOrigin: Sendable, Equatable {
    /// The command line: `--topic`.
    case flag(String)
    /// An environment variable: `APNSCTL_TOPIC` (or one of curl's proxy variables).
    case variable(String)
    /// A profile of the settings file, with the key's line.
    case profile(name: String, file: String, line: Int)
    /// A built-in profile (`mock` or `mock-token`), read from the running mock's `mock.json`.
    case mock(profile: String, file: String)
    /// apnsctl's own default.
    case defaultValue

    /// `flag`, `variable`, `profile`, `mock` or `default`: `config show -o json`'s `origin`.
    public var kind: String {
        switch self {
        case .flag: return "flag"
        case .variable: return "variable"
        case .profile: return "profile"
        case .mock: return "mock"
        case .defaultValue: return "default"
        }
    }

    /// For text output: `--topic`, `APNSCTL_TOPIC`, `profile dev, /home/u/.config/apnsctl/config.toml:7`,
    /// `profile mock, /…/mock.json`, `default`.
    public var description: String {
        switch self {
        case .flag(let f): return f
        case .variable(let v): return v
        case .profile(let name, let file, let line): return "profile \(name), \(file):\(line)"
        case .mock(let profile, let file): return "profile \(profile), \(file)"
        case .defaultValue: return "default"
        }
    }
}
