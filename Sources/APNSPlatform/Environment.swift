#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Reads the process environment; injected as a dictionary in tests where it matters.
public enum Environment {
    /// The value of `name`, or nil when unset.
    public static func value(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        return String(cString: v)
    }

    /// Every variable of the process, for code that takes the environment as a dictionary (the settings
    /// resolver reads `APNSCTL_*` and curl's proxy variables from it). A name set twice keeps its first value,
    /// as getenv(3) does.
    public static func all() -> [String: String] {
        var out: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "="), out[String(text[..<eq])] == nil {
                out[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            cursor += 1
        }
        return out
    }

    /// An `APNSCTL_*` setting: nil when unset or empty (CLI.md, Settings: "an empty variable counts as
    /// unset", the passphrase ones included; an empty password needs an empty passphrase file). The one
    /// accessor for every such variable.
    public static func setting(_ name: String) -> String? {
        guard let v = value(name), !v.isEmpty else { return nil }
        return v
    }

    /// The user's home directory with `variables` as the environment: $HOME when set, else the password database;
    /// nil when neither names an existing directory. Never a shared fallback such as /tmp, where another user could
    /// prepare the files we would then trust. A $HOME that is set but relative (it would put the settings file and
    /// the token cache wherever the command happens to run) or names no directory (`/nonexistent`, Debian's for
    /// service users) counts as none, without the password database: nothing is made there, as curl and git make
    /// nothing at a missing $HOME, and the account's entry is not taken instead of what the caller set.
    /// `passwordDatabase` is this user's entry's home (asked only when $HOME is unset or empty), so the rule can be
    /// tried for a user without an entry; `isDirectory`, so it can be tried for paths this machine does not have.
    public static func home(
        variables: [String: String], passwordDatabase: () -> String? = passwordDatabaseHome,
        isDirectory: (String) -> Bool = FileSystem.isDirectory
    ) -> String? {
        if let h = variables["HOME"], !h.isEmpty { return isHome(h) && isDirectory(h) ? h : nil }
        if let text = passwordDatabase(), isHome(text), isDirectory(text) { return text }
        return nil
    }

    /// Why `home(variables:)` found none, for the message that says so: what $HOME held, or that it was unset
    /// (the password database then named no existing directory either).
    public enum HomeAbsence: Sendable, Equatable {
        /// $HOME is an absolute path to nothing.
        case missing(String)
        /// $HOME is an absolute path to something not a directory.
        case notADirectory(String)
        /// $HOME is a relative path.
        case relative(String)
        /// $HOME is unset or empty.
        case unset

        /// `exists` follows links: a link to nothing is a $HOME that does not exist.
        public init(
            variables: [String: String],
            exists: (String) -> Bool = { path in
                var st = stat()
                return stat(path, &st) == 0
            }
        ) {
            if let h = variables["HOME"], !h.isEmpty {
                self = !Environment.isHome(h) ? .relative(h) : exists(h) ? .notADirectory(h) : .missing(h)
            } else {
                self = .unset
            }
        }
    }

    /// The home directory in the password database's entry for this process's user; nil without an entry.
    public static func passwordDatabaseHome() -> String? {
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    /// Whether `path` can be a home directory: an absolute path (an empty or relative one counts as no home).
    public static func isHome(_ path: String) -> Bool { path.hasPrefix("/") }

    /// The XDG rule on given values (so callers holding an injected environment apply it too): the
    /// variable when it is an absolute path (the spec says relative ones are ignored), else `home/fallback`;
    /// nil without a home.
    public static func xdgDirectory(_ variable: String?, home: String?, fallback: String) -> String? {
        if let v = variable, v.hasPrefix("/") { return v }
        return home.map { $0 + "/" + fallback }
    }

    /// Whether standard input/output/error (0/1/2) is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Whether `fd` is a regular file or /dev/null: output nobody reads on this terminal while we run.
    public static func isRegularFileOrNull(_ fd: Int32) -> Bool {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return false }
        let type = st.st_mode & S_IFMT
        if type == S_IFREG { return true }
        guard type == S_IFCHR else { return false }
        var null = stat()
        return stat("/dev/null", &null) == 0 && null.st_rdev == st.st_rdev
    }
}

extension Environment {
    /// The working directory, nil when it cannot be read (removed, or longer than the system allows).
    public static var currentDirectory: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        return buffer.withUnsafeMutableBufferPointer { raw -> String? in
            guard let base = raw.baseAddress, getcwd(base, raw.count) != nil else { return nil }
            return String(cString: base)
        }
    }

    /// The process's arguments after its name, as the bytes it was given: `CommandLine.arguments` replaces bytes
    /// that are not UTF-8 with U+FFFD, which a command could not tell from the text typed.
    public static func argumentBytes() -> [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { i in
            guard let p = CommandLine.unsafeArgv[i] else { return [] }
            return Array(
                UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
        }
    }

    /// Ends the process with `code` through exit(3), which runs atexit handlers and flushes C stdio.
    public static func exit(_ code: Int32) -> Never {
        #if canImport(Darwin)
            Darwin.exit(code)
        #elseif canImport(Musl)
            Musl.exit(code)
        #else
            Glibc.exit(code)
        #endif
    }
}
