import APNSSettings
import ArgumentParser

/// A setting flag's value typed by the argument parser: checked as it is parsed, by `SettingParser`, the
/// parser variables and profiles go through, so `--timeout x` gets the same message as
/// `APNSCTL_TIMEOUT=x` (naming the flag), and the resolver takes the value as checked.
enum SettingArgument {
    /// The argument parser's `transform:` for `key`'s flag in `command`.
    static func transform<Value>(_ key: SettingKey<Value>, _ command: SettingCommand)
        -> @Sendable (String) throws -> SettingValue
    {
        let setting = key.setting
        return { text throws in try SettingParser.parseFlag(text, for: setting, command: command) }
    }
}

extension SettingsProblem {
    /// The problem a setting flag's `transform:` threw, inside the argument parser's error (which wraps it in
    /// its own "The value … is invalid" text): its message is the one to print.
    static func thrown(in error: any Error, depth: Int = 0) -> SettingsProblem? {
        if let problem = error as? SettingsProblem { return problem }
        guard depth < 6 else { return nil }
        for child in Mirror(reflecting: error).children {
            if let problem = child.value as? SettingsProblem { return problem }
            if let nested = child.value as? any Error, let problem = thrown(in: nested, depth: depth + 1) {
                return problem
            }
            for grandchild in Mirror(reflecting: child.value).children {
                if let problem = grandchild.value as? SettingsProblem { return problem }
                if let nested = grandchild.value as? any Error, let problem = thrown(in: nested, depth: depth + 1) {
                    return problem
                }
            }
        }
        return nil
    }
}
