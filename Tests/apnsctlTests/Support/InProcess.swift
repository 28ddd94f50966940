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
    @discardableResult
    static func apnsctl(
        _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:],
        directory: String? = nil, timeout: Double = 60, host: CommandHost? = nil, onTerminal: Bool = false
    ) throws -> CommandResult {
        try Run(
            arguments, stdin: stdin, environment: environment, directory: directory, host: host,
            onTerminal: onTerminal
        ).result(within: timeout)
    }

    /// One command running in the background on a thread of its own: its output is read while it runs, and the
    /// test interrupts it through its world (`interrupts.deliver(SIGINT)`).
    final class Run: @unchecked Sendable {
        let interrupts: DeliveredInterrupts
        private let test: TestWorld
        private let input: InputDescriptor
        private let status = LockedValue<Int32?>(nil)
        private let done = DispatchSemaphore(value: 0)
        private let start = Date()

        /// `mockLog`: where a `mock` run writes its notification log (its standard output in the binary).
        init(
            _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:], directory: String? = nil,
            mockLog: Int32? = nil,
            host: CommandHost? = nil, onTerminal: Bool = false
        ) throws {
            let variables = CommandRunner.commandEnvironment(environment)
            interrupts = try DeliveredInterrupts()
            input = try InputDescriptor(stdin)
            test = TestWorld(
                variables: variables, home: InProcess.homeDirectory(variables),
                stdout: onTerminal ? .terminal : .file, stderr: onTerminal ? .terminal : .file,
                standardInput: input.fd, workingDirectory: directory, clock: .system, interrupts: interrupts,
                mockLog: mockLog)
            ProcessSignals.ignoreBrokenPipe()
            var configured = test.world
            if let host { configured.host = host }
            let world = configured
            let status = self.status
            let done = self.done
            Thread.detachNewThread {
                // Run outside the lock: `finish` reads the status while the command runs.
                let code = APNSCtl.execute(arguments, in: world)
                status.withLock { $0 = code }
                done.signal()
            }
        }

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
            if ended != nil { input.close() }
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

    /// The home directory the binary would find with `variables`: `$HOME` when absolute, else the password
    /// database's.
    static func homeDirectory(_ variables: [String: String]) -> String? {
        if let home = variables["HOME"], Environment.isHome(home) { return home }
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return nil }
        let text = String(cString: dir)
        return Environment.isHome(text) ? text : nil
    }

    /// What `-` reads: the bytes through a pipe (written from another thread, so a command that reads them slowly
    /// or not at all never blocks the test), or /dev/null when there are none, as the binary's runner gives.
    private final class InputDescriptor: Sendable {
        let fd: Int32
        private let closed = LockedValue(false)

        init(_ bytes: [UInt8]?) throws {
            guard let bytes else {
                fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw TestSupportError("opening /dev/null: \(FileSystem.errnoText())") }
                return
            }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                throw TestSupportError("no pipe for standard input: \(FileSystem.errnoText())")
            }
            fd = ends[0]
            let writeEnd = ends[1]
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
            Thread.detachNewThread {
                var offset = 0
                while offset < bytes.count {
                    let n = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { break }
                    offset += n
                }
                Glibc.close(writeEnd)
            }
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
