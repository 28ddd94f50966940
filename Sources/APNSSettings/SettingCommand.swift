/// The commands whose settings come from flags, `APNSCTL_*` variables and profiles (CLI.md, "Settings").
public enum SettingCommand: String, Sendable, CaseIterable, Equatable {
    case send
    case channel
    case doctor
    case jwt
}
