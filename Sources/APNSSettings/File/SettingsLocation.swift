import APNSCore

/// Which settings file a run reads: `--config FILE`, else `APNSCTL_CONFIG`, else
/// `$XDG_CONFIG_HOME/apnsctl/config.toml` (default `~/.config/apnsctl/config.toml`). A missing default file
/// is no error (no settings); a missing named one is exit 66.
public struct SettingsLocation: Sendable, Equatable {
    public let path: String
    /// Where the choice came from: `--config`, `APNSCTL_CONFIG`, or the default.
    public let origin: SettingOrigin

    /// Whether the user named the file (then it must exist).
    public var isExplicit: Bool { origin != .defaultValue }

    public init(path: String, origin: SettingOrigin) { (self.path, self.origin) = (path, origin) }

    /// Pure: `configFlag` is `--config`'s value, `variables` the environment, `configHome` is the world's
    /// `SettingsWorld.configHome` (XDG's rule applied at the edge). An empty `APNSCTL_CONFIG` counts as unset.
    /// Without a home directory (and no `XDG_CONFIG_HOME`) there is no default file: the path is empty.
    public static func find(configFlag: String?, variables: [String: String], configHome: String?)
        throws(SettingsProblem) -> SettingsLocation
    {
        if let flag = configFlag {
            // `--config "$CONFIG"` with the variable unset: read as "no settings file", every profile and device
            // name of the default one vanished without a word.
            guard !flag.isEmpty else {
                throw .usage("--config is empty (is the variable meant to hold it set?); give the settings file's path")
            }
            try refuseStandardInput(flag, "--config")
            return SettingsLocation(path: flag, origin: .flag("--config"))
        }
        if let v = try PathVariable.value("APNSCTL_CONFIG", in: variables, naming: "the settings file") {
            try refuseStandardInput(v, "APNSCTL_CONFIG")
            return SettingsLocation(path: v, origin: .variable("APNSCTL_CONFIG"))
        }
        return SettingsLocation(path: configHome.map { $0 + "/apnsctl/config.toml" } ?? "", origin: .defaultValue)
    }

    /// `-` for the settings file: read and written by its path (`config set` rewrites it in place), so not standard
    /// input or output; taken as a path, it read or wrote a file called `-` in the working directory.
    private static func refuseStandardInput(_ path: String, _ label: String) throws(SettingsProblem) {
        guard path == "-" else { return }
        throw .usage(
            "\(label) -: the settings file is read and written by its path, not through standard input or output; "
                + "give its path (./- for a file named -)")
    }

    /// What a command printed for the user to paste needs to edit this same file: `--config FILE` when the file
    /// was named by that flag (the variable names it for every command), as shell words; else nothing.
    public var configFlagWords: [String] {
        guard case .flag = origin else { return [] }
        return Self.configFlagWords(for: path)
    }

    /// `--config FILE` as shell words (`--config=-x.toml` for a name that would read as a flag).
    public static func configFlagWords(for path: String) -> [String] {
        path.hasPrefix("-") ? [ShellWord.of("--config=" + path)] : ["--config", ShellWord.of(path)]
    }

    /// `apnsctl config SUBCOMMAND`, with `--config FILE` when that flag named this file: the start of a command a
    /// message suggests, which must edit the file that was read, not the default one.
    public func configCommand(_ subcommand: String) -> String {
        (["apnsctl", "config", subcommand] + configFlagWords).joined(separator: " ")
    }

    /// Whether there is no default file to look for (no home directory).
    public var isNone: Bool { path.isEmpty }

    /// The name to print with the origin: `--config FILE`, `APNSCTL_CONFIG=FILE` or `FILE`.
    public var label: String {
        switch origin {
        case .flag(let f): return "\(f) \(path)"
        case .variable(let v): return "\(v)=\(path)"
        default: return path
        }
    }

    /// The folder relative paths in the file are anchored to.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }
}
