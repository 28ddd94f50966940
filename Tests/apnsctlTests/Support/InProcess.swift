import APNSPlatform
import APNSSettings
import APNSTestSupport
import Foundation

@testable import APNSCtlCommands

/// `apnsctl` run in the test process, in the shape of `CommandRunner.apnsctl` (arguments, input bytes, extra
/// variables → status, stdout, stderr), so a test that is not about the process itself switches by changing one
/// call. Each run gets a world of its own, as the binary would see it: the test's variables plus `environment`
/// (with NO_COLOR, and without the machine's proxy variables), its home from them, standard output and error
/// captured as the regular files the binary's runner gives, input from a pipe (or /dev/null), the real clocks,
/// and interrupts only the test delivers. Nothing process-wide is touched, so runs go side by side.
enum InProcess {
    /// Runs `apnsctl ARGUMENTS` in-process. `directory`: the working directory the world reports (paths in
    /// `arguments` must be absolute: the process's own is shared). A run still going after `timeout` seconds is
    /// interrupted as by SIGTERM through its world and reported `timedOut` (a thread cannot be killed).
    /// `onTerminal`: standard output and error are a terminal to the command (their bytes still captured).
    /// `stdout`, `stderr`, `standardInput`: descriptors the test owns in place of the captured streams and the
    /// input pipe (see `Run`). `homeless`: run as a uid without a password entry would, with `HOME` and the XDG
    /// folders unset. `nameLookup`: what host names resolve to, in place of the system resolver.
    @discardableResult
    static func apnsctl(
        _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:],
        directory: String? = nil, timeout: Double = 60, host: CommandHost? = nil, onTerminal: Bool = false,
        stdout: Output = .captured, stderr: Int32? = nil, standardInput: Int32? = nil, homeless: Bool = false,
        nameLookup: NameLookup? = nil
    ) throws -> CommandResult {
        try Run(
            arguments, stdin: stdin, environment: environment, directory: directory, host: host,
            onTerminal: onTerminal, stdout: stdout, stderr: stderr, standardInput: standardInput, homeless: homeless,
            nameLookup: nameLookup
        ).result(within: timeout)
    }

    /// What standard output is to a command run in-process.
    enum Output {
        /// Captured in memory, a regular file to the command (what the binary's runner gives).
        case captured
        /// The test's open descriptor (a file, /dev/null, /dev/full, a pipe, a terminal), written through the same
        /// checked sink `main` writes descriptor 1 with; the test reads what reached it.
        case descriptor(Int32)
        /// Closed when the process started (`>&-`): as `main` leaves it, a read-only /dev/null in its place that
        /// every write fails on.
        case closedAtStart
    }

    /// One command running in the background on a thread of its own: its output is read while it runs, and the
    /// test interrupts it through its world (`interrupts.deliver(SIGINT)`).
    final class Run: @unchecked Sendable {
        let interrupts: DeliveredInterrupts
        private let test: TestWorld
        private let input: InputDescriptor
        /// The read-only /dev/null a stdout closed at start stands on, closed with the input.
        private let placeholder: InputDescriptor?
        private let status = LockedValue<Int32?>(nil)
        private let thread = LockedValue<Int32?>(nil)
        private let done = DispatchSemaphore(value: 0)
        private let start = Date()

        /// `mockLog`: where a `mock` run writes its notification log (its standard output in the binary);
        /// `mockWarnings`: where it writes its warnings (its standard error in the binary; this process's by default).
        /// `stdout`: what standard output is (captured by default). `stderr`: a descriptor messages go to as well
        /// (a terminal), which then also decides whether standard error is a terminal. `standardInput`: a
        /// descriptor the test owns and closes, read by `-` instead of `stdin`'s bytes. `terminal`: where the user
        /// is asked (none by default). `homeless`: no home directory, as for a uid without a password entry and
        /// with `HOME` and the XDG folders unset. `nameLookup`: the resolver's answers (the system's by default).
        init(
            _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:], directory: String? = nil,
            mockLog: Int32? = nil, mockWarnings: Int32 = 2,
            host: CommandHost? = nil, onTerminal: Bool = false, stdout: Output = .captured, stderr: Int32? = nil,
            standardInput: Int32? = nil, terminal: CommandTerminal? = nil, homeless: Bool = false,
            nameLookup: NameLookup? = nil
        ) throws {
            var variables = CommandRunner.commandEnvironment(environment)
            if homeless {
                for name in ["HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"] { variables[name] = nil }
            }
            interrupts = try DeliveredInterrupts()
            input = try standardInput.map(InputDescriptor.init(borrowing:)) ?? InputDescriptor(stdin)
            if case .closedAtStart = stdout { placeholder = try InputDescriptor(nil) } else { placeholder = nil }
            test = TestWorld(
                variables: variables, home: homeless ? nil : InProcess.homeDirectory(variables),
                stdout: onTerminal ? .terminal : .file, stderr: onTerminal ? .terminal : .file,
                standardInput: input.fd, workingDirectory: directory, clock: .system, interrupts: interrupts,
                mockLog: mockLog, mockWarnings: mockWarnings)
            ProcessSignals.ignoreBrokenPipe()
            var configured = test.world
            if let host { configured.host = host }
            if let terminal { configured.terminal = terminal }
            if let nameLookup { configured.nameLookup = nameLookup }
            let outputDescriptor: Int32?
            switch stdout {
            case .captured: outputDescriptor = nil
            case .descriptor(let fd):
                outputDescriptor = fd
                configured.standardOutput = OutputSink(fd: fd, name: "standard output")
            case .closedAtStart:
                outputDescriptor = placeholder?.fd
                configured.standardOutput = OutputSink(
                    fd: placeholder?.fd ?? -1, name: "standard output", closedAtStart: true)
            }
            if let stderr {
                let captured = test.stderr
                configured.standardError = MessageStream { bytes in
                    captured.append(bytes)
                    _ = posixWriteAll(stderr, bytes)
                }
            }
            configured.streams = Self.streams(output: outputDescriptor, error: stderr, otherwise: configured.streams)
            if let given = standardInput {
                // A standard input the test gives is asked what it is, as the binary asks its own.
                let streams = configured.streams
                configured.streams.isTerminal = { $0 == given ? Environment.isTerminal(given) : streams.isTerminal($0) }
            }
            let world = configured
            let status = self.status
            let thread = self.thread
            let done = self.done
            Thread.detachNewThread {
                // /proc/thread-self links to "PID/task/TID".
                let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
                thread.withLock { $0 = link.flatMap { Int32($0.split(separator: "/").last ?? "") } }
                // Run outside the lock: `finish` reads the status while the command runs.
                let code = APNSCtl.execute(arguments, in: world)
                status.withLock { $0 = code }
                done.signal()
            }
        }

        /// What the streams given as descriptors are connected to, asked of them as the binary asks its own; the
        /// captured ones are what `otherwise` says.
        private static func streams(output: Int32?, error: Int32?, otherwise: StreamFacts) -> StreamFacts {
            guard output != nil || error != nil else { return otherwise }
            let given = StreamFacts.descriptors(output: output ?? -1, error: error ?? -1)
            let isGiven: @Sendable (Int32) -> Bool = { ($0 == 1 ? output : $0 == 2 ? error : nil) != nil }
            return StreamFacts(
                isTerminal: { isGiven($0) ? given.isTerminal($0) : otherwise.isTerminal($0) },
                isRegularFileOrNull: { isGiven($0) ? given.isRegularFileOrNull($0) : otherwise.isRegularFileOrNull($0) }
            )
        }

        /// The kernel's id of the thread the command runs on (for /proc/self/task/ID), once it started.
        var threadID: Int32? { thread.current }

        /// Whether the command has ended.
        var hasEnded: Bool { status.current != nil }

        /// Standard output and standard error so far.
        var stdout: String { test.stdout.text }
        var stderr: String { test.stderr.text }

        /// Waits until `condition` holds, at most `seconds`; whether it held.
        func wait(seconds: Double, until condition: () -> Bool) -> Bool {
            Wait.until(seconds: seconds, interval: 0.02, condition)
        }

        /// Waits at most `seconds` for the command to end: its exit status and the seconds waited; nil status if it
        /// is still running.
        func finish(within seconds: Double) -> (status: Int32?, waited: Double) {
            let begun = Date()
            if status.current == nil {
                _ = done.wait(timeout: .now() + seconds)
            } else {
                _ = done.wait(timeout: .now())
            }
            let ended = status.current
            // A run that never ended keeps its descriptor: closing it could hand the number to another test.
            if ended != nil {
                input.close()
                placeholder?.close()
            }
            return (ended, Date().timeIntervalSince(begun))
        }

        /// Waits at most `seconds`; a command still running then is interrupted as by SIGTERM and given 10 s more.
        func result(within seconds: Double) -> CommandResult {
            var (ended, _) = finish(within: seconds)
            let timedOut = ended == nil
            if timedOut {
                interrupts.deliver(ProcessSignals.terminate)
                ended = finish(within: 10).status
            }
            return CommandResult(
                status: ended ?? 128 + ProcessSignals.terminate, stdout: test.stdout.text,
                stderr: test.stderr.text, stdoutBytes: test.stdout.bytes,
                seconds: Date().timeIntervalSince(start), timedOut: timedOut)
        }
    }

    /// The home directory the binary finds with `variables`, by the rule it uses: `$HOME` when absolute, else
    /// the password database's.
    static func homeDirectory(_ variables: [String: String]) -> String? { Environment.home(variables: variables) }

    /// What `-` reads: the bytes through a pipe (written from another thread, so a command that reads them slowly
    /// or not at all never blocks the test), or /dev/null when there are none, as the binary's runner gives.
    private final class InputDescriptor: Sendable {
        let fd: Int32
        private let closed = LockedValue(false)

        /// The test's own descriptor, which the test closes.
        init(borrowing fd: Int32) {
            self.fd = fd
            closed.withLock { $0 = true }
        }

        init(_ bytes: [UInt8]?) throws {
            guard let bytes else {
                fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw TestSupportError("opening /dev/null: \(FileSystem.errnoText())") }
                return
            }
            fd = try FedPipe.readEnd(feeding: bytes)
        }

        /// Closes the read end once (a second call would close whatever took the number meanwhile).
        func close() {
            closed.withLock { done in
                if !done { Glibc.close(fd) }
                done = true
            }
        }
    }
}
