/// What a setting's value is, so one parser reads it from a flag, a variable and a profile alike.
public enum SettingKind: Sendable, Equatable {
    /// Free text with no whitespace or control character (a topic, a collapse id): header values.
    case word
    /// A team id or key id: 10 characters, `A-Z` and `0-9`.
    case identifier
    /// Free text as given (`noproxy` lists).
    case text
    /// A file path: `~/` expanded and relative to the settings file's folder when it comes from a profile.
    case path
    /// A credential file, or in its variable PEM text itself (CI secret stores hold text).
    case credential
    /// On or off: a bare flag, a TOML boolean, or `1/true/yes/on`, `0/false/no/off` in a variable.
    case boolean
    /// The spellings `APNSEnvironment` accepts, plus `auto` (send) or `both` (doctor).
    case environment
    /// Repeatable: a string or an array in a profile, comma-separated in a variable.
    case endpoints
    /// 443 or 2197.
    case port
    /// A proxy URL, or empty for none. Never echoed (it may hold a password).
    case proxy
    /// 1 to the sender's maximum.
    case concurrency
    /// Seconds above 0, at most a day.
    case seconds
    case pushType
    case priority
    /// 0, a UNIX time or a duration from now; kept as written and turned into a time when sent.
    case expiration
    /// A byte count, or 256, 2k, 4k, 5k.
    case sizeLimit
    /// Text or json.
    case outputFormat
    /// Auto, always or never.
    case color
    /// None or most-recent.
    case storage
    /// A duration such as 30d or 12h.
    case duration
    /// A whole number from 1 (how many days or entries the history keeps).
    case count
    /// A secret. Never read from the file, never echoed.
    case secret
}
