import APNSPlatform

/// The part of the outside world settings come from: the environment's variables and the home directory.
/// Everything else the edge needs (the settings file's default place, the mock's default state dir) is
/// derived from these two with the XDG rules, so a test that hands in its own world decides every path
/// and the commands resolve in-process exactly as they do in the binary.
public struct SettingsWorld: Sendable {
    public var variables: [String: String]
    /// nil with no home directory: no default settings file and no default mock state dir.
    public var home: String?

    /// `home` relative counts as none (`Environment.isHome`), as it does for this process's $HOME.
    public init(variables: [String: String], home: String?) {
        self.variables = variables
        self.home = home.flatMap { Environment.isHome($0) ? $0 : nil }
    }

    /// This process's environment and home directory.
    public static func process() -> SettingsWorld {
        let variables = Environment.all()
        return SettingsWorld(variables: variables, home: Environment.home(variables: variables))
    }

    /// The profile `APNSCTL_PROFILE` chooses for every command without `-p` (an empty one counts as unset): the
    /// resolver picks it, and `config list`, `set` and `unset` follow it.
    public var profileVariable: String? { Self.profileVariable(in: variables) }

    /// `profileVariable` of `variables`.
    public static func profileVariable(in variables: [String: String]) -> String? {
        guard let name = variables["APNSCTL_PROFILE"], !name.isEmpty else { return nil }
        return name
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public var configHome: String? { xdg("XDG_CONFIG_HOME", fallback: ".config") }

    /// The mock's state dir without `--state-dir` or `APNSCTL_MOCK_STATE_DIR`: `$XDG_STATE_HOME/apnsctl/mock`,
    /// else `~/.local/state/apnsctl/mock`: the one definition, for `-p mock` and for `apnsctl mock` itself.
    public var defaultMockStateDirectory: String? {
        xdg("XDG_STATE_HOME", fallback: ".local/state").map { $0 + "/apnsctl/mock" }
    }

    /// Why there is no home, for the parentheses after "no home directory" (`Environment.HomeAbsence.reason`):
    /// what $HOME held, and that `xdg`, the folder that would have stood in, is unset or relative.
    public func noHomeReason(xdg: String) -> String { Environment.HomeAbsence(variables: variables).reason(xdg: xdg) }

    /// How a settings file in `baseDirectory` reads its paths: `~/` from the home, and, with none, refused saying why.
    public func paths(baseDirectory: String) -> SettingParser.Paths {
        SettingParser.Paths(
            home: home ?? "~", baseDirectory: baseDirectory,
            noHome: home == nil ? Environment.HomeAbsence(variables: variables).homeReason : nil)
    }

    private func xdg(_ name: String, fallback: String) -> String? {
        Environment.xdgDirectory(variables[name], home: home, fallback: fallback)
    }
}
