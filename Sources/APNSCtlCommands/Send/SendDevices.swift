import APNSClient
import APNSCore
import APNSPlatform
import APNSSettings

/// The devices a `send` goes to: `-d` tokens in order (each once), then `--devices FILE` read lazily.
struct SendDevices {
    let source: DeviceSource
    /// How many devices, or nil when `--devices` is a stream (standard input, a FIFO) of unknown length.
    let count: Int?
    let first: DeviceToken
    /// Kept alive while sending: it owns the list's descriptor, and says whether a stream ended at a bad line.
    let file: DeviceFile?
    /// Token (hex) → the device name it was given by with `-d`, for the results.
    let names: [String: String]
    /// The same for names used in `--devices` lines, filled as the list is read.
    let fileNames: LockedValue<[String: String]>
    /// The tokens given by `-d` (or an entry replayed), each once; the list's are read as the run goes.
    var given: [DeviceToken] = []

    /// The one warning for a stream's lines that repeat a token (CLI.md), once it was read (a regular file's is said
    /// when it was checked, before sending).
    func reportRepeats(in world: CommandWorld) {
        guard let file else { return }
        if let warning = file.repeats?.summary?.message(file: file.displayName) { world.standardError.warning(warning) }
        if let warning = Self.shortTokensWarning(file) { world.standardError.warning(warning) }
    }

    /// Tokens of fewer than 64 hex digits in a list (CLI.md: each keeps its "cut short?" warning), said once.
    static func shortTokensWarning(_ file: DeviceFile) -> String? {
        guard file.shortTokenCount > 0 else { return nil }
        let lines = file.shortTokenLines.map(String.init).joined(separator: ", ")
        let more =
            file.shortTokenCount > file.shortTokenLines.count
            ? " and \(file.shortTokenCount - file.shortTokenLines.count) more" : ""
        let count = "\(file.shortTokenCount) token\(file.shortTokenCount == 1 ? " is" : "s are")"
        return "--devices \(file.displayName): \(count) shorter than 64 hex digits (line \(lines)\(more)); "
            + "were they cut short?"
    }
}

extension APNSCtl.Send {
    /// How much of a refused `-d` value its error quotes: 40 characters of a token's shapes (hex, tokens pasted
    /// together, a `Data` description, base64 of a token's 32 bytes) and of a mistyped device name, so it is found
    /// among the flags; 8 of anything else, which may be a line of a key file or another secret pasted here.
    static func quotedLength(of text: String, _ error: DeviceNames.Problem) -> Int {
        switch error {
        // A name near one the settings file has: a typo of it. Anything else may be a password of a name's shape.
        case .unknownName(let name, let known): return Suggestion.closest(to: name, among: known) != nil ? 40 : 8
        case .token(.base64(hex: .some)), .token(.elidedDescription), .token(.dataDescription), .token(.byteCount),
            .token(.abbreviated):
            return 40
        default:
            // Nine in ten hex digits: base64 (a key's lines) has about one in three.
            let shown = text.filter { !$0.isWhitespace && $0 != "<" && $0 != ">" }
            let hex = shown.filter(\.isHexDigit).count
            return !shown.isEmpty && hex * 10 >= shown.count * 9 ? 40 : 8
        }
    }

    /// `-d` and `--devices` checked (64 for a bad token, 66 for a missing list); warnings for short or repeated
    /// tokens go to the world's standard error.
    func planDevices(_ settings: ResolvedSettings, in world: CommandWorld) throws(CLIError) -> SendDevices {
        // A token given twice is sent once (compared parsed: case and Xcode's <…> cannot hide a repeat).
        // A name from the settings file's device tables stands for its token (CLI.md, "Settings").
        var tokens: [DeviceToken] = []
        // Every name a token was given by: two names of one token are one device, sent once, and both are said.
        var namesGiven: [String: [String]] = [:]
        var timesGiven: [String: Int] = [:]
        // With a `--devices` list, repeats among the flags are counted in the list's one warning (CLI.md).
        var flagRepeatCount = 0
        var firstFlagRepeat: (flag: Int, repeats: Int)? = nil
        var firstGiven: [String: Int] = [:]
        for (i, text) in devices.enumerated() {
            let token: DeviceToken
            do {
                let device = try settings.devices.resolve(text)
                token = device.token
                if let name = device.name, namesGiven[token.hex]?.contains(name) != true {
                    namesGiven[token.hex, default: []].append(name)
                }
            } catch {
                let limit = Self.quotedLength(of: text, error)
                let shown = PrintableText.escapingControls(text.count > limit ? String(text.prefix(limit)) + "…" : text)
                // A list's file name given to -d: the flag for a list is --devices.
                // curl's `-d '{…}'` or `-d @payload.json`: here -d is a device, and the payload is an argument.
                let payload: Bool
                if case .token(.notHex(let c)) = error { payload = c == "{" || c == "@" } else { payload = false }
                let list =
                    FileSystem.isRegularFile(text)
                    ? "; that is a file: to send to the devices it lists, give --devices \(ShellWord.of(text))"
                    : payload
                        ? "; -d is --device here, not curl's --data: the payload is send's argument (a file, - for "
                            + "standard input, or inline JSON starting with {), without a flag" : ""
                // "Add them under [devices] in the settings file", with no home and so no settings file.
                var noFile = ""
                if case .unknownName(_, let known) = error, known.isEmpty, settings.location.path.isEmpty {
                    noFile =
                        "; there is no settings file to add them to (no home directory: "
                        + "\(world.settings.noHomeReason(xdg: "XDG_CONFIG_HOME"))): name one with --config FILE"
                }
                throw CLIError.usage(
                    "--device \"\(shown)\" (device \(i + 1)): \(error.cliMessage(value: text))\(list)\(noFile)")
            }
            timesGiven[token.hex, default: 0] += 1
            guard timesGiven[token.hex] == 1 else {
                flagRepeatCount += 1
                if firstFlagRepeat == nil, let earlier = firstGiven[token.hex] { firstFlagRepeat = (i + 1, earlier) }
                continue
            }
            firstGiven[token.hex] = i + 1
            tokens.append(token)
            if token.looksTruncated {
                world.standardError.warning(
                    "--device \(token.abbreviated): only \(token.hex.utf8.count) hex digits (tokens are usually 64); was the copy cut short?"
                )
            }
        }
        // One warning, as for a list (CLI.md): the token itself when one was repeated, else how many and the first.
        let repeated = devicesFile == nil ? tokens.filter { (timesGiven[$0.hex] ?? 0) > 1 } : []
        if repeated.count == 1, let token = repeated.first, let times = timesGiven[token.hex] {
            let given = namesGiven[token.hex] ?? []
            let named =
                given.count > 1
                ? " (\(given.joined(separator: ", ")): names of the same token)"
                : given.first.map { " (\($0))" } ?? ""
            world.standardError.warning(
                "--device \(token.hex)\(named) was given \(times) times; it \(dryRun ? "would be" : "is") sent once")
        } else if repeated.count > 1, let first = firstFlagRepeat {
            let summary = DeviceRepeatSummary(
                total: flagRepeatCount, first: .flag(first.flag, repeatsFlag: first.repeats))
            world.standardError.warning(summary.message(file: "", dryRun: dryRun))
        }
        var file: DeviceFile? = nil
        let fileNames = LockedValue<[String: String]>([:])
        if let devicesFile {
            if FileSystem.namesStandardInput(devicesFile) {
                world.sayWhenReadingTheTerminal("send", "the device tokens", "type or paste them, one a line")
            }
            let lookup = settings.devices.lookup(recording: fileNames)
            do {
                file = try DeviceFile(
                    path: devicesFile, names: lookup, standardInput: world.standardInput,
                    repeats: DeviceRepeats(
                        after: tokens,
                        flagRepeats: firstFlagRepeat.map { (flagRepeatCount, $0.flag, $0.repeats) }),
                    skipInvalid: settings.isOn(.skipInvalid),
                    // A FIFO's writer is waited for below, with the interrupts, as a pipe's first line is (asked for
                    // only then: a signal before the run starts otherwise keeps its default action).
                    pollsFirst: FileSystem.opensFIFOsWithoutWaiting && FileSystem.isFIFO(devicesFile)
                        && world.interrupts() != nil)
            } catch {
                throw Self.devicesError(error)
            }
            if let file, !file.isStreamed, let skipped = file.skippedLines { Self.reportSkipped(skipped, in: world) }
            // A regular file's repeats are known once it was checked (reading it again to send counts them anew).
            if let file, !file.isStreamed,
                let warning = file.repeats?.summary?.message(file: file.displayName, dryRun: dryRun)
            {
                world.standardError.warning(warning)
            }
            // A stream's are known once it was read: said after the results, with its repeats.
            if let file, !file.isStreamed, let warning = SendDevices.shortTokensWarning(file) {
                world.standardError.warning(warning)
            }
        }
        let count: Int? = file?.isStreamed == true ? nil : tokens.count + (file?.count ?? 0)
        // The first token (the dry run shows it): from a stream, this reads up to it, and a bad first line
        // (`yes | apnsctl send --devices -`) is exit 64 here, before anything connects.
        let fileFirst: DeviceToken?
        if let file, let devicesFile, file.isStreamed {
            try Self.waitForFirstToken(file, named: devicesFile, in: world)
        }
        do { fileFirst = try file?.firstToken() } catch { throw Self.devicesError(error) }
        guard let first = tokens.first ?? fileFirst else {
            let name = devicesFile ?? ""
            if let file, !file.isStreamed, let left = UnsentDevices.commentedOut(in: name) {
                throw CLIError.usage("--devices \(name): no device to send: \(left)")
            }
            // Only bad lines with --skip-invalid: a pipe's are listed as a file's were (above), and counted.
            if let file, file.skippedCount > 0 {
                if file.isStreamed, let skipped = file.skippedLines { Self.reportSkipped(skipped, in: world) }
                let n = file.skippedCount
                throw CLIError.usage(
                    "--devices \(name): no device tokens in it: \(n == 1 ? "its 1 line was" : "its \(n) lines were") invalid and skipped (--skip-invalid)"
                )
            }
            let place = FileSystem.namesStandardInput(name) ? "on standard input" : "in the file"
            throw CLIError.usage(
                "--devices \(name): no device tokens \(place) (blank lines and # comments are skipped)")
        }
        var sources: [DeviceSource] = [DeviceArraySource(tokens)]
        if let file {
            do { sources.append(try file.makeSource()) } catch { throw Self.devicesError(error) }
        }
        return SendDevices(
            source: DeviceChainSource(sources), count: count, first: first, file: file,
            names: namesGiven.compactMapValues(\.first),
            fileNames: fileNames, given: tokens)
    }

    /// Waits until a streamed list's first token (or its end) can be read without waiting, watching the world's
    /// interrupts meanwhile: Ctrl-C before anything came is CLI.md's interrupted line, not a silent death.
    static func waitForFirstToken(_ file: DeviceFile, named path: String, in world: CommandWorld) throws(CLIError) {
        guard file.descriptorToWaitFor() != nil, let interrupts = world.interrupts() else { return }
        var waits = PollSet()
        while let fd = file.descriptorToWaitFor() {
            waits.removeAll()
            waits.add(fd, .readable)
            if waits.wait(until: nil, interrupt: interrupts.fd) == .interrupted {
                throw interrupted(interrupts, reading: "--devices \(path)")
            }
        }
    }

    /// A device list's problem as CLI.md's exit code: an unreadable file 66, bad lines 64.
    static func devicesError(_ error: DeviceFile.Problem) -> CLIError {
        if case .file(let f) = error, f.isReadProblem { return .inputMissing(error.cliLines.joined()) }
        return .usageLines(error.cliLines)
    }
}
