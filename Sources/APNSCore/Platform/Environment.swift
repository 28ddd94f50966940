/// Reads the process environment; injected as a dictionary in tests where it matters.
public enum Environment {
    /// The value of `name`, or nil when unset.
    public static func value(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        return String(cString: v)
    }

    /// The user's home directory: $HOME, else the password database.
    public static var home: String {
        if let h = value("HOME"), !h.isEmpty { return h }
        if let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir { return String(cString: dir) }
        return "/tmp"
    }

    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    public static var cacheHome: String { xdg("XDG_CACHE_HOME", fallback: ".cache") }
    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    public static var stateHome: String { xdg("XDG_STATE_HOME", fallback: ".local/state") }

    private static func xdg(_ name: String, fallback: String) -> String {
        if let v = value(name), v.hasPrefix("/") { return v }
        return home + "/" + fallback
    }

    /// Whether standard input/output/error (0/1/2) is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Colour is allowed only on a terminal and never with NO_COLOR set (any value).
    public static func colorAllowed(fd: Int32) -> Bool { isTerminal(fd) && value("NO_COLOR") == nil }
}
