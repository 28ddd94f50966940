import APNSCore
import APNSPlatform

/// `--token VALUE`, from other push tools, means a device token in some and the `.p8` key in others: the value
/// says which (CLI.md, "flags users bring from other tools"), where a fixed spelling would be wrong half the time.
enum TokenFlagValue {
    /// The apnsctl flag for `value`: `--device` for hex, `--auth-key` for a key file, nil when it is neither.
    static func flag(for value: String) -> String? {
        let hex = value.filter { $0 != " " && $0 != "<" && $0 != ">" }
        if hex.count >= 64, hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) { return "--device" }
        let lowered = value.lowercased()
        if [".p8", ".pem", ".key"].contains(where: { lowered.hasSuffix($0) })
            || (FileSystem.exists(value) && !FileSystem.isDirectory(value))
        {
            return "--auth-key"
        }
        return nil
    }

    /// The parser's `error: Unknown option '--token'. …` line, advised by the value that followed `--token` in
    /// `arguments`, when the command has the flags named (`flags`, its long flags); any other line as it is.
    static func correcting(_ line: String, arguments: [String], flags: [String]) -> String {
        let prefix = "error: Unknown option '--token'"
        guard line.hasPrefix(prefix) else { return line }
        // Only a flag this command has is suggested (`jwt` takes a key file but no device).
        let value = Self.value(in: arguments)
        switch value.flatMap(flag(for:)) {
        case "--device"? where flags.contains("--device"):
            return "\(prefix). Did you mean '--device'?"
        case "--auth-key"? where flags.contains("--auth-key"):
            return "\(prefix). Did you mean '--auth-key'? (the value is a key file: a .p8 signing key goes in "
                + "--auth-key, with --key-id and --team-id)"
        case nil where flags.contains("--device") && flags.contains("--auth-key"):
            return "\(prefix). Did you mean '--device' (a device token, hex) or '--auth-key' (a .p8 key file)?"
        default:
            return line
        }
    }

    /// What followed the first `--token` (`--token VALUE` or `--token=VALUE`), if anything.
    static func value(in arguments: [String]) -> String? {
        for (i, word) in arguments.enumerated() {
            if word.hasPrefix("--token=") { return String(word.dropFirst("--token=".count)) }
            if word == "--token" { return i + 1 < arguments.count ? arguments[i + 1] : nil }
            if word == "--" { break }
        }
        return nil
    }
}
