import APNSCore
import APNSMock
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl.Mock {
    /// `apnsctl mock stop`: stops the mock holding a state dir, and returns once it has exited.
    struct Stop: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "stop",
            abstract: "Stop the mock of a state dir (SIGTERM), and wait for it to exit.",
            discussion: """
                Finds the mock holding the state dir's lock (mock.lock), sends it SIGTERM (and SIGCONT, for a \
                mock stopped with Ctrl-Z) and returns once it has exited and released the lock (exit 0); one \
                still holding it 15 seconds later is said, exit 73, and so is a pid in mock.lock that does not \
                hold the lock (nothing is signalled). With no mock running there, it says so \
                and exits 0. \
                A mock started with --detach whose log could not be written says so here, and this command \
                exits 74 (its status) with the number of lost log lines.
                """)

        @Option(
            name: .customLong("state-dir"),
            help: ArgumentHelp(
                "The mock's state dir (default $APNSCTL_MOCK_STATE_DIR, else the mock's default).", valueName: "dir"),
            completion: .directory)
        var stateDir: String?

        /// `mock`'s own --state-dir: the parser gives the flag to the parent command, which declares it too.
        @ParentCommand var mock: APNSCtl.Mock

        /// The first of `mock`'s other flags on the command line: the parser gives them to the parent command, where
        /// stop would ignore them (`mock stop --port 2198` stopped the default state dir's mock, not that port's).
        static func strayFlag(in arguments: [String]) -> String? {
            var valueNext = false
            for word in arguments {
                if valueNext {
                    valueNext = false
                    continue
                }
                if word == "--" { return nil }
                if word == "--state-dir" {
                    valueNext = true
                } else if word.hasPrefix("-") && word != "-" && !word.hasPrefix("--state-dir=")
                    && !["-h", "--help"].contains(word)
                {
                    return word
                }
            }
            return nil
        }

        func run(in world: CommandWorld) throws {
            if let flag = Self.strayFlag(in: world.commandLine) {
                let name = flag.split(separator: "=", maxSplits: 1).first.map(String.init) ?? flag
                throw CLIError.usage(
                    "\(name) is the mock's own flag, and mock stop takes only --state-dir: it stops the mock of a state "
                        + "dir, whatever its port; pass the --state-dir the mock was started with")
            }
            // Nothing is made here, so no home is a usage error (64) with the mock's own flag as the way out.
            let label = (stateDir ?? mock.stateDir) == nil ? "the mock's state dir" : "--state-dir"
            guard let directory = try MockStateDirectory(given: stateDir ?? mock.stateDir, in: world)?.path else {
                throw CLIError.usage(
                    "no home directory for the default state dir (\(world.settings.noHomeReason(xdg: "XDG_STATE_HOME"))); "
                        + "pass the one the mock was started with, --state-dir DIR"
                )
            }
            let noMock = "apnsctl mock: no mock is running with state dir \(directory)"
            guard FileSystem.isDirectory(directory) else {
                let what = FileSystem.exists(directory) ? "not a directory" : "no such directory"
                world.standardError.print("\(noMock) (\(what))\n")
                return
            }
            let storage: PrivateDirectory
            do { storage = try PrivateDirectory.open(directory) } catch {
                throw CLIError.outputExists("\(label) \(error.message)")
            }
            // A mock makes mock.lock as it starts and mock.json when ready: with neither, none ran here, and a stop
            // writes nothing (taking the lock made one in any folder it was pointed at, /etc included).
            guard storage.contains(MockState.lockName) || storage.contains(MockReadyFields.fileName) else {
                world.standardError.print(noMock + "\n")
                return
            }
            switch FileLock.acquire(MockState.lockName, in: storage) {
            case .acquired(let lock):
                // Held here, so no mock runs: a mock.json is a killed mock's, and would send `-p mock` to a
                // port nobody listens on.
                let leftover = storage.contains(MockReadyFields.fileName)
                if leftover { storage.remove(MockReadyFields.fileName) }
                // A detached mock stopped by a signal of someone else's still left what it had to say: said here,
                // where a script asks for it.
                let report = MockStopReport.take(from: storage)
                withExtendedLifetime(lock) {}
                world.standardError.print(
                    noMock
                        + (leftover ? " (removed the mock.json a killed mock left there)" : "")
                        + (report != nil ? "; the detached mock that ran there stopped with:" : "") + "\n")
                try Self.passOn(report, world: world)
            case .failed(let failure):
                throw CLIError.outputExists("\(label) \(failure.message)")
            case .held(let pid):
                guard let pid else {
                    throw CLIError.outputExists(
                        "\(directory)/\(MockState.lockName) is held, but names no process; stop the mock where it runs")
                }
                // Signalled only when it holds the lock: a pid written by a mock in a container names some other
                // process here.
                if FileLock.isHeld(MockState.lockName, in: storage, by: pid) == false {
                    throw CLIError.outputExists(
                        "\(directory)/\(MockState.lockName) names pid \(pid), which does not hold it here (a mock in a "
                            + "container, or another pid namespace?); nothing was signalled: stop the mock where it runs"
                    )
                }
                if let problem = ProcessSignals.sendTerminate(to: pid) {
                    throw CLIError.outputExists("cannot stop the mock of \(directory) (pid \(pid)): \(problem)")
                }
                // The kernel releases the lock when the mock exits: waiting for the lock is waiting for the exit. A
                // mock stops within a second; one that has not after 15 (or a pid in mock.lock that is no mock's)
                // is said, not waited for forever.
                guard FileLock.waitUntilFree(MockState.lockName, in: storage, seconds: 15) else {
                    throw CLIError.outputExists(
                        "the mock of \(directory) (pid \(pid) in \(MockState.lockName)) was sent SIGTERM and still "
                            + "holds the state dir 15 s later; check what pid \(pid) is (ps -p \(pid)), and stop the "
                            + "mock where it runs")
                }
                world.standardError.print("apnsctl mock: stopped the mock of \(directory) (pid \(pid))\n")
                // A detached mock's last words (a log it could not write) and its exit status, passed on.
                try Self.passOn(MockStopReport.take(from: storage), world: world)
            }
        }

        /// Says a detached mock's last words and ends with its exit status, so a script that runs `mock stop` learns
        /// what the mock could not write to its log.
        private static func passOn(_ report: MockStopReport?, world: CommandWorld) throws {
            guard let report else { return }
            world.standardError.print(report.message + "\n")
            if report.exitStatus != ExitStatus.success {
                throw CLIError.checksFailed(code: report.exitStatus, message: nil)
            }
        }
    }
}
