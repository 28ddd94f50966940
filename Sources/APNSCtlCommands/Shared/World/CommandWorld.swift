import APNSCrypto
import APNSPlatform
import APNSSettings

/// Everything a command takes from outside the process's code: the environment's variables and the home
/// directory (and the XDG roots derived from them, and the system trust store they point at), the working
/// directory, the clock, the standard streams and what they are connected to, where interrupts come from, and
/// how host names are looked up. `APNSCtl.main` builds it once from the process (`process()`) and every
/// command runs in it (`run(in:)`), so tests run a command in-process with a world of their own: their
/// variables and roots, a fixed clock, input from a pipe, output captured in memory, and the resolver's answers.
struct CommandWorld: Sendable {
    /// Variables and home, as the settings resolver takes them.
    var settings: SettingsWorld
    /// The working directory, asked when needed (only `mock` needs it); nil when it cannot be read (removed, or
    /// too long).
    var workingDirectory: @Sendable () -> String?
    var clock: CommandClock
    /// What `-` reads (a payload, `--devices -`, `@-`): descriptor 0 in the binary, a test's pipe or file.
    var standardInput: Int32
    /// Results: checked writes, the first failure kept for exit 74.
    var standardOutput: OutputSink
    /// Messages, progress and `-v` lines.
    var standardError: MessageStream
    var streams: StreamFacts
    /// Where a send's or a channel request's interrupts come from, asked once the requests are about to go out:
    /// in the binary, SIGINT and SIGTERM (a handler is installed on that first ask); nil when none can be watched.
    var interrupts: @Sendable () -> (any InterruptSource)?
    /// Where the user is asked (passphrases, passwords, confirmations).
    var terminal: CommandTerminal
    /// How `send`, `channel` and `doctor` look host names up: the system resolver; a test gives the answers.
    var nameLookup = NameLookup.system
    /// How `mock` is stopped and where its notification log goes: in the binary, this process's SIGINT/SIGTERM
    /// and descriptor 1; in a test serving it in-process, the world's interrupts and a descriptor of the test's.
    var mockRun = MockRun.process
    /// What the machine can run: simulators only on macOS (tests say otherwise to reach both paths).
    var host: CommandHost = .current
    /// The command line being run, without the program name (`mock --detach` starts itself again with it).
    var commandLine: [String] = []
    /// This program's file, to start a copy of it (`mock --detach`); nil when it cannot be told.
    var executablePath: @Sendable () -> String? = { DetachedProcess.executablePath }
    /// The command line as the bytes it was given (`commandLine` has U+FFFD where they were not UTF-8); nil when
    /// the arguments came as text (in-process tests).
    var argumentBytes: @Sendable () -> [[UInt8]]? = { nil }

    /// This process's world. Reads the whole environment once; the working directory and the streams' kinds are
    /// asked only when needed.
    static func process() -> CommandWorld {
        CommandWorld(
            settings: .process(), workingDirectory: { Environment.currentDirectory }, clock: .system, standardInput: 0,
            standardOutput: .standardOutput, standardError: .standardError, streams: .process,
            interrupts: { InterruptSignals.install() }, terminal: .process,
            argumentBytes: { Environment.argumentBytes() })
    }

    /// A variable's value, nil when unset.
    func variable(_ name: String) -> String? { settings.variables[name] }

    /// An `APNSCTL_*` setting: nil when unset or empty (CLI.md: an empty variable counts as unset).
    func setting(_ name: String) -> String? {
        guard let value = settings.variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// Where the system trust store is, as `SSL_CERT_FILE` and `SSL_CERT_DIR` among the world's variables say
    /// (asked when a connection is about to be set up: it looks into the certificate directories).
    func systemTrust() -> SystemTrust { SystemTrust.current(variables: variable) }

    /// `$XDG_CACHE_HOME`, else `~/.cache`; nil without either.
    var cacheHome: String? {
        Environment.xdgDirectory(settings.variables["XDG_CACHE_HOME"], home: settings.home, fallback: ".cache")
    }

    /// Where signed provider tokens are kept: `$XDG_CACHE_HOME/apnsctl`; nil with no home directory (the cache is
    /// then skipped, never put in a shared place such as /tmp).
    var tokenCacheDirectory: String? { cacheHome.map { $0 + "/apnsctl" } }

    /// `$XDG_STATE_HOME`, else `~/.local/state`; nil without either.
    var stateHome: String? {
        Environment.xdgDirectory(settings.variables["XDG_STATE_HOME"], home: settings.home, fallback: ".local/state")
    }

    /// Where the send history is kept: `$XDG_STATE_HOME/apnsctl`; nil with no home directory.
    var historyDirectory: String? { stateHome.map { $0 + "/apnsctl" } }
}

/// The wall clock (certificate dates, token times, Live Activity timestamps) and the monotonic one (timings,
/// progress, deadlines).
struct CommandClock: Sendable {
    /// Seconds since the UNIX epoch.
    var now: @Sendable () -> Int64
    /// Monotonic nanoseconds.
    var monotonicNanoseconds: @Sendable () -> UInt64

    static let system = CommandClock(
        now: { SystemClock.now() }, monotonicNanoseconds: { SystemClock.monotonicNanoseconds() })
}

/// What standard output and standard error are connected to: colour and the progress line depend on it.
struct StreamFacts: Sendable {
    /// Whether descriptor `fd` (1 or 2, or another the command holds, such as its standard input) is a terminal.
    var isTerminal: @Sendable (Int32) -> Bool
    /// Whether descriptor `fd` is a regular file or /dev/null: output nobody reads on this terminal while we run.
    var isRegularFileOrNull: @Sendable (Int32) -> Bool

    /// Asked of the process's descriptors, each time (a question costs a system call, asked only when needed).
    static let process = descriptors(output: 1, error: 2)

    /// Asked of `output` for standard output (1) and of `error` for standard error (2): the process's own, or
    /// the descriptors a test gives a command it runs in-process (a file, /dev/null, a pipe, a terminal).
    static func descriptors(output: Int32, error: Int32) -> StreamFacts {
        let descriptor: @Sendable (Int32) -> Int32 = { $0 == 1 ? output : $0 == 2 ? error : $0 }
        return StreamFacts(
            isTerminal: { Environment.isTerminal(descriptor($0)) },
            isRegularFileOrNull: { Environment.isRegularFileOrNull(descriptor($0)) })
    }
}

/// How a running `mock` meets the outside: what stops it, and where its notification log and warnings are written.
struct MockRun: Sendable {
    /// True: this process's SIGINT/SIGTERM stop it (within a second, whatever it waits on); false: the world's
    /// interrupts do.
    var stopsOnProcessSignals: Bool
    /// The notification log's descriptor; nil for none.
    var logDescriptor: Int32?
    /// Where its warnings go, each only if it can be written at once.
    var warningDescriptor: Int32

    static let process = MockRun(stopsOnProcessSignals: true, logDescriptor: 1, warningDescriptor: 2)
}

extension CommandWorld {
    /// `APNSCTL_*` variables set that no setting reads (misspelt, another tool's name, or a per-run flag's), said
    /// before the settings they should have set are resolved: every command that reads settings says them.
    func warnAboutUnreadVariables(command: [String], given: Set<String> = []) {
        for warning in UnreadVariables.warnings(
            settings.variables, commandFlags: { OtherToolFlags.longFlags(of: command) }, given: given)
        {
            standardError.warning(warning)
        }
    }
}

extension CommandWorld {
    /// Says on standard error that `what` is read from the terminal, when standard input is one: such a read ends at
    /// Ctrl-D, not at Enter, and nothing else says why nothing happens (a command waiting for it looks hung).
    /// `command`: the command's name (`send`), or nil for a credential, read by several.
    func sayWhenReadingTheTerminal(_ command: String?, _ what: String, _ how: String) {
        guard streams.isTerminal(standardInput) else { return }
        standardError.print(
            "apnsctl\(command.map { " " + $0 } ?? ""): reading \(what) from the terminal: \(how), then press Ctrl-D on a line of its own\n"
        )
    }
}
