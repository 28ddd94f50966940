import APNSMock
import APNSPlatform

/// `apnsctl mock --detach`: starts this program again as the mock, in the background with its log in a file,
/// and returns once the mock says it is ready (over a pipe, so nothing waits on a timer): exit 0 with the
/// ready lines, the pid and the log file; or, when the mock ended first, its own error and exit code.
enum MockDetach {
    static func start(
        directory: String, named label: String, stateDirGiven: Bool, log: String?, world: CommandWorld
    ) throws(CLIError) {
        guard let executable = world.executablePath() else {
            throw .internalError("mock --detach: cannot tell which file this program is")
        }
        // The state dir is checked (ours alone, no link) before the log file is made in it.
        do { _ = try PrivateDirectory.openOrCreate(directory) } catch {
            throw .outputExists(
                "\(label) \(error.message); the mock keeps keys there, so it must be a directory only you can write; use a fresh one, e.g. --state-dir \"$(mktemp -d)\""
            )
        }
        let logPath = WorkingDirectoryPath.absolute(
            log ?? directory + "/mock.log", workingDirectory: world.workingDirectory())
        // Its size, not its content: a long log is not read, and a FIFO there is not waited on.
        let before = FileSystem.regularFileSize(logPath) ?? 0
        let process: DetachedProcess
        do {
            process = try DetachedProcess.start(
                executable: executable, arguments: childArguments(world.commandLine), logPath: logPath)
        } catch {
            // The log is the one file made here: named by its flag when the user gave it.
            let aboutTheLog = log != nil && error.message.hasPrefix(logPath + ":")
            throw .outputExists((aboutTheLog ? "--log " : "mock --detach: ") + error.message)
        }
        let (message, failure, status) = process.waitUntilReady()
        if let failure {
            // Said over the pipe, not in the log, which belongs to the mock that holds the state dir.
            world.standardError.print(String(decoding: failure, as: UTF8.self))
            throw .checksFailed(code: status ?? ExitStatus.internalError, message: nil)
        }
        guard let message else {
            // What the mock said before it ended (its error line) is in the log: shown here, where the user looks.
            let said =
                FileSystem.regularFileSize(logPath) == nil
                ? [] : (try? FileSystem.read(logPath)).map { Array($0.dropFirst(before)) } ?? []
            world.standardError.print(String(decoding: said, as: UTF8.self))
            throw .checksFailed(code: status ?? ExitStatus.internalError, message: nil)
        }
        let (endpoint, lines) = readyParts(message)
        world.standardError.print(String(decoding: lines, as: UTF8.self))
        let stop = "apnsctl mock stop" + (stateDirGiven ? " --state-dir \(MockCommandText.shellQuote(directory))" : "")
        world.standardError.print(
            "apnsctl mock: running in the background as pid \(process.pid), logging to \(logPath); stop it with: \(stop)\n"
        )
        // The endpoint is the command's result, so `endpoint=$(apnsctl mock --detach --port 0)` catches it.
        guard let endpoint else { return }
        world.standardOutput.write(Array((endpoint + "\n").utf8))
        if let failure = world.standardOutput.failure {
            throw .outputFailed(
                "writing standard output: \(FileSystem.errnoText(failure.code)); the mock runs on as pid \(process.pid) (stop it with: \(stop))"
            )
        }
    }

    /// What the background mock says over the pipe once ready: its endpoint on the first line, then the ready
    /// lines for stderr.
    static func readyMessage(endpoint: String, lines: [UInt8]) -> [UInt8] { Array((endpoint + "\n").utf8) + lines }

    /// The endpoint and the ready lines of `readyMessage`'s bytes.
    static func readyParts(_ message: [UInt8]) -> (endpoint: String?, lines: [UInt8]) {
        guard let newline = message.firstIndex(of: UInt8(ascii: "\n")) else { return (nil, message) }
        return (String(decoding: message[..<newline], as: UTF8.self), Array(message[(newline + 1)...]))
    }

    /// The command line for the background mock: this one without `--detach` and `--log`, saying ready on the
    /// pipe.
    static func childArguments(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
                continue
            }
            if argument == "--detach" || argument.hasPrefix("--log=") { continue }
            if argument == "--log" {
                skipNext = true
                continue
            }
            out.append(argument)
        }
        return out + ["--ready-fd", String(DetachedProcess.readyDescriptor)]
    }
}
