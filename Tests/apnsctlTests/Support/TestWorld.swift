import APNSCrypto
import APNSPlatform
import APNSSettings
import APNSTestSupport

@testable import APNSCtlCommands

/// A `CommandWorld` for running commands in-process: the test's variables and home, a fixed wall clock and a
/// monotonic one the test advances, standard output and standard error in memory, and standard streams that
/// are whatever the test says (a terminal, a file, a pipe).
final class TestWorld: @unchecked Sendable {
    let stdout: MemoryOutput
    let stderr = MemoryMessages()
    /// The monotonic clock's reading, in nanoseconds; tests move it.
    let monotonic = LockedValue<UInt64>(1_000_000_000)
    var world: CommandWorld

    /// What descriptor 1 and 2 are connected to.
    enum Stream { case terminal, file, pipe }

    /// `standardInput`: the descriptor `-` reads (the test keeps it open); -1 (none) by default, so a command
    /// that reads it by mistake fails instead of waiting on the test runner's own standard input.
    /// `interrupts`: what a send or channel request is interrupted by (none by default: a run that asks for
    /// them gets none, as a binary that cannot make its pipe). `clock`: the real clocks instead of the fixed ones.
    /// `mockLog`: where a `mock` run here writes its notification log (none by default); `mockWarnings`: where it
    /// writes its warnings (this process's standard error by default).
    init(
        variables: [String: String] = [:], home: String? = nil, now: Int64 = 1_800_000_000,
        stdout: Stream = .pipe, stderr: Stream = .pipe, output: MemoryOutput = MemoryOutput(),
        standardInput: Int32 = -1,
        workingDirectory: String? = nil, clock: CommandClock? = nil, interrupts: DeliveredInterrupts? = nil,
        mockLog: Int32? = nil, mockWarnings: Int32 = 2
    ) {
        self.stdout = output
        let kinds: [Int32: Stream] = [1: stdout, 2: stderr]
        let monotonic = self.monotonic
        world = CommandWorld(
            settings: SettingsWorld(variables: variables, home: home), workingDirectory: { workingDirectory ?? home },
            clock: clock ?? CommandClock(now: { now }, monotonicNanoseconds: { monotonic.current }),
            standardInput: standardInput,
            standardOutput: output.sink(), standardError: self.stderr.stream,
            streams: StreamFacts(isTerminal: { kinds[$0] == .terminal }, isRegularFileOrNull: { kinds[$0] == .file }),
            interrupts: { interrupts?.source() }, terminal: .none,
            // A mock served here is stopped by the interrupts the test delivers, never by this process's signals.
            mockRun: MockRun(stopsOnProcessSignals: false, logDescriptor: mockLog, warningDescriptor: mockWarnings))
    }

    /// A world of `settings`' variables and home.
    convenience init(settings: SettingsWorld) { self.init(variables: settings.variables, home: settings.home) }

    /// Runs `apnsctl ARGUMENTS` in this world, as the binary would, and returns its exit status.
    func run(_ arguments: [String]) -> Int32 { APNSCtl.execute(arguments, in: world) }
}

extension CommandTerminal {
    /// No terminal, as for the binary run with its input from /dev/null and its output in files: nothing is
    /// asked, and a command that needs an answer says how else to give it.
    static let none = CommandTerminal(
        isAvailable: { false }, readLine: { _ in nil }, readSecret: { _ in nil },
        passphrasePrompt: NoTerminalPrompt())
}

/// The passphrase prompt without a terminal.
struct NoTerminalPrompt: PassphrasePrompt {
    func ask(_ prompt: String) -> PassphraseAnswer { .unavailable }
    func say(_ text: String) {}
}
