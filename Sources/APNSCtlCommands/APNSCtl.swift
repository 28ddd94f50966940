import APNSCore
import APNSCrypto
import APNSHTTP2
import APNSPlatform
import APNSSettings
import ArgumentParser

/// The root command. It owns `main` so that every failure, including the argument
/// parser's usage errors, prints as `error: …` and exits with a code from CLI.md. Public only for the
/// executable's one line (`Sources/apnsctl/main.swift`); everything else stays internal to this module.
public struct APNSCtl: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "apnsctl",
        abstract: "Test and send Apple push notifications from the shell.",
        discussion: """
            Checks certificates, .p8 keys and payloads, sends over HTTP/2 to APNs (or to apnsctl mock, \
            a local APNs), and explains every answer. apnsctl help COMMAND, or COMMAND --help, says more; \
            man apnsctl and man apnsctl.COMMAND hold the same text after make install.

            Exit codes: 0 success, 1 APNs rejected a notification, 64 usage, 65 invalid payload, 66 \
            missing input file, 69 transport failure, 70 internal error, 73 output file exists or is not a \
            regular file, 74 output could not be written (disk full, closed pipe), 77 credential problem; \
            130/143 after SIGINT/SIGTERM.
            """,
        version: APNSCtl.versionText,
        subcommands: [
            Send.self, Validate.self, Inspect.self, Convert.self, JWT.self, Mock.self, Channel.self, Doctor.self,
            Config.self, History.self,
        ]
    )

    /// `apnsctl --version`: ours, plus the C libraries actually linked (they decide TLS and HTTP/2 behaviour).
    static var versionText: String {
        "apnsctl \(APNSCtlVersion.current) (OpenSSL: \(OpenSSLLibrary.version); nghttp2 \(NGHTTP2Library.version))"
    }

    public static func main() {
        // Before anything reads a credential: no core file may hold a key.
        CoreDumps.disable()
        // Before anything touches OpenSSL: no clean-up of it at exit (the kernel frees the memory anyway).
        OpenSSLLifetime.skipCleanupAtExit()
        // Before anything opens a descriptor: a closed stdout must not be taken by a socket or file.
        OutputSink.reserveStandardDescriptors()
        ProcessSignals.ignoreBrokenPipe()
        ProcessSignals.ignoreFileSizeLimit()
        exitProcess(execute(Array(CommandLine.arguments.dropFirst()), in: .process()))
    }

    /// An argument that is not UTF-8 (a Latin-1 terminal's `Café`): refused, naming it by the flag before it, as
    /// read it would go out with U+FFFD in place of its letters (a payload file of the same bytes is refused too).
    static func notUTF8(_ arguments: [[UInt8]]) -> String? {
        guard let i = arguments.firstIndex(where: { String(validating: $0, as: UTF8.self) == nil }) else { return nil }
        let which = argumentName(at: i, in: arguments.map { String(decoding: $0, as: UTF8.self) })
        return
            "\(which) is not UTF-8 text (bytes of another encoding, Latin-1 say); set the terminal to UTF-8, or put the text in a UTF-8 file"
    }

    /// A key's or certificate's text pasted into the command line (`--auth-key="$(cat AuthKey.p8)"`, any flag or
    /// argument): refused before parsing, never printed (every message quoting the "path" printed the key), and
    /// in the arguments other users of the machine can read. A file's path, or a variable, is the way.
    static func pastedPEM(_ arguments: [String]) -> String? {
        guard let i = arguments.firstIndex(where: { $0.contains("-----BEGIN") && !VariableEcho.mayEchoArgument($0) })
        else { return nil }
        let name = argumentName(at: i, in: arguments)
        // inspect's and convert's file, which `-` reads from standard input; they read no APNSCTL_* credential.
        let fileArgument = ["inspect", "convert"].contains(arguments.first ?? "") && name.hasPrefix("argument")
        let way =
            fileArgument
            ? "or - with the text on standard input (printf '%s\\n' \"$CERT_PEM\" | apnsctl \(arguments[0]) -)"
            : "(where a secret store holds the text, as in CI, put it in APNSCTL_AUTH_KEY, APNSCTL_CERT or APNSCTL_KEY)"
        return "\(name) holds PEM text (\(VariableEcho.description(of: arguments[i])), not shown), not a file's path: "
            + "apnsctl reads keys and certificates from files, so give the file's path \(way)"
    }

    /// How a message names argument `i`: `the value of --alert` (after its flag, or joined with `=`), else
    /// `argument 3` (counted from the command's name).
    private static func argumentName(at i: Int, in arguments: [String]) -> String {
        // A flag's name: one short word of ASCII after one or two dashes (PEM text starts with five, and may hold
        // `=`: never taken for `--flag=value`, whose name part would print it).
        func isFlag(_ word: Substring) -> Bool {
            word.hasPrefix("-") && !word.hasPrefix("---") && word != "--" && word.count <= 40
                && word.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        }
        let own = arguments[i]
        if own.hasPrefix("--"), let equals = own.firstIndex(of: "="), isFlag(own[..<equals]) {
            return "the value of \(own[..<equals])"
        }
        // After a flag that takes a value (`jwt --decode "$(cat key.p8)"`: --decode takes none, the word is the token).
        if i > 0, isFlag(Substring(arguments[i - 1])), !arguments[i - 1].contains("="),
            !OtherToolFlags.takesNoValue(arguments[i - 1], of: arguments)
        {
            return "the value of \(arguments[i - 1])"
        }
        // `config set [-p NAME] KEY VALUE`: the value is named by its key.
        let key = i > 0 && arguments[i - 1] == "--" ? i - 2 : i - 1
        if key > 1,
            arguments[..<key].indices.contains(where: {
                $0 + 1 < key && arguments[$0] == "config" && arguments[$0 + 1] == "set"
            }),
            SettingCatalog.setting(arguments[key]) != nil
        {
            return "the value of \(arguments[key].escapingControlsForOutput())"
        }
        return "argument \(i + 1)"
    }

    /// Runs one command line in `world` and returns its exit status: everything `main` does but set up the
    /// process and exit, so tests run the commands in-process with their own world and see every message,
    /// output byte and exit code the binary would give.
    static func execute(_ arguments: [String], in world: CommandWorld) -> Int32 {
        let arguments = SimulatorArgument.withDefaultDevice(arguments)
        var world = world
        world.commandLine = arguments
        // No message quotes a key's body or a provider token typed on the command line, whichever check refused it.
        let typedSecrets = arguments.flatMap { argument in
            [argument]
                + (argument.hasPrefix("-")
                    ? argument.split(separator: "=", maxSplits: 1).dropFirst().map(String.init) : [])
        }.compactMap(VariableEcho.secretCore(of:))
        world.standardError = world.standardError.hiding(Set(typedSecrets))
        if let raw = world.argumentBytes(), let problem = notUTF8(raw) {
            world.standardError.error(problem)
            return ExitStatus.usage
        }
        if let problem = pastedPEM(arguments) {
            world.standardError.error(problem)
            return ExitStatus.usage
        }
        if let code = rejectHelpForUnknownCommand(arguments, in: world) { return code }
        if let code = suggestForMistypedCommand(arguments, in: world) { return code }
        do {
            var command = try parseSend(arguments) ?? parseAsRoot(arguments)
            // `send` by its type: a cast to a protocol is a conformance lookup in the runtime (near 1% of one
            // send), which send's path otherwise never makes.
            if let send = command as? Send {
                try send.run(in: world)
            } else if let command = command as? any WorldCommand {
                try command.run(in: world)
            } else {
                try command.run()
            }
            return finish(exitCode: ExitStatus.success, in: world)
        } catch let failure as CLIError {
            failure.report(to: world.standardError)
            return finish(
                exitCode: failure.exitCode, outputReported: failure.exitCode == ExitStatus.outputFailed, in: world)
        } catch {
            return reportParserError(error, arguments: arguments, in: world)
        }
    }

    /// `send`, the command users time, parsed as the root of its own tree: the parser then skips matching the
    /// subcommand, which builds `send`'s whole argument set once more only to ask whether it takes
    /// pass-through arguments (about half of the parse). Any failure, `--help` included, returns nil and the
    /// whole tree parses again, so every message and exit code is the parser's own.
    private static func parseSend(_ arguments: [String]) -> ParsableCommand? {
        guard arguments.first == Send._commandName else { return nil }
        return try? Send.parseAsRoot(Array(arguments.dropFirst()))
    }

    /// Help and `--version` go to stdout with exit 0; everything else becomes `error:` lines and exit 64
    /// (or the code the parser chose, e.g. a command's `ExitCode`).
    private static func reportParserError(_ error: Error, arguments: [String], in world: CommandWorld) -> Int32 {
        // A setting flag's value refused by the settings' parser: its own message, as for a variable or profile.
        if let problem = SettingsProblem.thrown(in: error) {
            let failure = CLIError(problem)
            failure.report(to: world.standardError)
            return finish(exitCode: failure.exitCode, in: world)
        }
        let code = exitCode(for: error).rawValue
        let text = hidingPasted(fullMessage(for: error), arguments: arguments)
        if code == 0 {
            // `config set expiration -1h` is no request for help: its `h` read as -h.
            if !arguments.contains(where: { ["-h", "--help", "help"].contains($0) }),
                let word = DashValueAdvice.positionalWord(in: arguments), word.contains("h"),
                let advice = DashValueAdvice.positionalAdvice(word, arguments: arguments)
            {
                world.standardError.print(
                    PrintableText.escapingControls(hidingPasted(advice, arguments: arguments)) + "\n")
                return finish(exitCode: ExitStatus.usage, in: world)
            }
            if !text.isEmpty { world.standardOutput.print(BashCompletionScript.adjusted(text) + "\n") }
            return finish(exitCode: ExitStatus.success, in: world)
        }
        var parserLines = errorLines(parserText: text)
        // `convert a.p12 --out z.pem`, `channel delete --all`: the missing argument is the unknown flag's doing, which
        // the parser leaves unsaid; the unknown flag is the line to mend (and gets its "did you mean" below).
        if let first = parserLines.first, first.hasPrefix("error: Missing expected argument '"),
            let unknown = OtherToolFlags.unknownLongFlag(in: arguments)
        {
            parserLines[0] = "error: Unknown option '\(unknown)'"
        }
        if let advice = DashFileName.advice(
            for: parserLines, arguments: arguments, workingDirectory: world.workingDirectory())
        {
            world.standardError.print(PrintableText.escapingControls(advice) + "\n")
            return finish(exitCode: ExitStatus.usage, in: world)
        }
        let shortFlags = OtherToolFlags.shortFlags(of: arguments)
        if let advice = AttachedShortValue.advice(
            for: parserLines, arguments: arguments, valueFlags: shortFlags.takingValues, shortFlags: shortFlags.all)
        {
            world.standardError.print(PrintableText.escapingControls(hidingPasted(advice, arguments: arguments)) + "\n")
            return finish(exitCode: ExitStatus.usage, in: world)
        }
        if let first = parserLines.first,
            let advice = OtherToolFlags.misplacedBeforeSubcommand(first, arguments: arguments)
        {
            world.standardError.print(PrintableText.escapingControls(hidingPasted(advice, arguments: arguments)) + "\n")
            return finish(exitCode: ExitStatus.usage, in: world)
        }
        // The command's long flags are read from its help text, built again: only an unknown option needs them.
        let unknownOption = parserLines.contains { $0.hasPrefix("error: Unknown option '") }
        let flags = unknownOption ? OtherToolFlags.longFlags(of: arguments) : []
        // `-x` after a flag that takes a value: a value when the command has no such flag. Its names come from its
        // help text, built again, and only for such a word.
        var names: Set<String>?
        let isFlag = { (word: String) -> Bool in
            let known = names ?? Set(OtherToolFlags.flagNames(of: arguments))
            names = known
            let name = String(word.prefix { $0 != "=" })
            return known.contains(name) || word.dropFirst().allSatisfy { known.contains("-\($0)") }
        }
        var positionalRefusal = false
        let lines = parserLines.map {
            OtherToolFlags.correcting($0, flags: flags, arguments: arguments)
        }
        .map { TokenFlagValue.correcting($0, arguments: arguments, flags: flags) }
        .map { Convert.missingOutputAdvice($0, arguments: arguments) }
        .map { StrayPassphraseArgument.hiding($0, arguments: arguments) }
        // After the passphrase's hiding: a word that may be the passphrase (hex, as a token is) is never repeated.
        .map { UnexpectedArgumentAdvice.correcting($0, arguments: arguments) }
        .map { SplitDateTime.correcting($0, arguments: arguments) }
        .map { line in
            // `Unknown option '-30m'`: a value where the command takes values; `history show -1`, where the
            // value read as a flag leaves the argument missing.
            // Only a missing positional (`'<id|last>'`, not `'--output <file>'`), and a word before any `--`.
            guard let word = DashValueAdvice.positionalWord(in: Array(arguments.prefix { $0 != "--" })),
                line.hasPrefix("error: Unknown option '\(word)'")
                    || line.hasPrefix("error: Missing expected argument '<")
            else { return line }
            guard let advice = DashValueAdvice.positionalAdvice(word, arguments: arguments) else { return line }
            // `config set timeout -5`: the value read and refused, not a command line to mend.
            if DashValueAdvice.isRefusal(advice) { positionalRefusal = true }
            return advice
        }
        .map { DashValueAdvice.correcting($0, arguments: arguments, reparse: firstParseError, isCommandFlag: isFlag) }
        // A value refused by its flag is one line, as when given with `=`: the parser's help and usage lines were
        // for the value it thought missing.
        let refused =
            positionalRefusal
            || (parserLines.first?.hasPrefix("error: Missing value for '") == true
                && lines.first.map(DashValueAdvice.isRefusal) == true)
        let shown = refused ? Array(lines.prefix(1)) : lines
        for line in shown.isEmpty ? ["error: invalid command line; see apnsctl --help"] : shown {
            // The parser quotes arguments as given: escaped, so none can drive the terminal, and the advice's
            // second parse is hidden from as the first was.
            world.standardError.print(PrintableText.escapingControls(hidingPasted(line, arguments: arguments)) + "\n")
        }
        return finish(exitCode: code == 1 ? ExitStatus.usage : code, in: world)
    }

    /// The parser quotes an argument it refuses as given: a file pasted into one (a key, a certificate) is said,
    /// never shown.
    private static func hidingPasted(_ text: String, arguments: [String]) -> String {
        var text = text
        for argument in Set(arguments) where !VariableEcho.mayEchoArgument(argument) && text.contains(argument) {
            text = text.replacing(argument, with: VariableEcho.shown(argument))
        }
        return text
    }

    /// The first `error:` line parsing `arguments` gives, worded as a failed parse is; nil when they parse.
    private static func firstParseError(_ arguments: [String]) -> String? {
        do {
            _ = try parseAsRoot(arguments)
            return nil
        } catch {
            if let problem = SettingsProblem.thrown(in: error) { return "error: " + problem.message }
            return errorLines(parserText: fullMessage(for: error)).first
        }
    }

    /// Every command's end: writes what standard output still buffers and asks it whether a write failed.
    /// A failed write is exit 74 with CLI.md's message, whatever the command chose (0, 1, 69, …), except
    /// a signal's 130/143, which wins (CLI.md, "Exit codes"). `outputReported`: the command already said
    /// what was not written (`send`'s counts).
    static func finish(exitCode code: Int32, outputReported: Bool = false, in world: CommandWorld) -> Int32 {
        let out = world.standardOutput
        out.flush()
        guard let failure = out.failure, code != 128 + ProcessSignals.interrupt, code != 128 + ProcessSignals.terminate
        else { return code }
        if !outputReported { world.standardError.error(failure.message) }
        return ExitStatus.outputFailed
    }

    /// `apnsctl sned`, `apnsctl channel crate`: the parser says only "Unexpected argument"; like a mistyped
    /// flag (and like git), a mistyped command gets a "did you mean", in the parser's own three lines. It
    /// walks the command words as the parser does, so a command group's subcommands get the same help.
    private static func suggestForMistypedCommand(_ arguments: [String], in world: CommandWorld) -> Int32? {
        var command: ParsableCommand.Type = APNSCtl.self
        var path = ["apnsctl"]
        for (index, word) in arguments.enumerated() {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-") else { return nil }
            if let next = subcommands.first(where: { $0._commandName == word }) {
                command = next
                path.append(word)
                continue
            }
            // `help` is the root's only: `apnsctl help send`.
            let names = subcommands.map { $0._commandName } + (path.count == 1 ? ["help"] : [])
            // `apnsctl history 5`, `history last`, `history '#5'` (as `history` lists it): an entry's id where its
            // command goes means `show` (`last` is nearer to `list` by spelling, not by meaning). The advice
            // drops the `#`, which a shell would take for a comment.
            let id = word.hasPrefix("#") ? String(word.dropFirst()) : word
            let isEntryID = id == "last" || (!id.isEmpty && id.allSatisfy(\.isASCII) && Int64(id) != nil)
            if isEntryID, ObjectIdentifier(command) == ObjectIdentifier(History.self) {
                let usage = (path + ["show"]).joined(separator: " ")
                world.standardError.print(
                    "error: Unexpected argument '\(PrintableText.escapingControls(word))'. Did you mean '\(usage) \(id)'?\n"
                        + "error: See '\(usage) --help' for more information.\n")
                return ExitStatus.usage
            }
            // The word after the command, past its options and their values (`config remove --profile dev topic`).
            var rest = arguments.dropFirst(index + 1)
            while let first = rest.first, first.hasPrefix("-") {
                rest = rest.dropFirst(first.contains("=") ? 1 : 2)
            }
            let next = rest.first
            guard !names.contains(word),
                let near = nearestCommand(to: word, among: subcommands, names: names, next: next)
            else { return nil }
            let usage = path.joined(separator: " ")
            world.standardError.print(
                "error: Unknown command '\(PrintableText.escapingControls(word))'. Did you mean '\(near)'?\n"
                    + "error: usage: \(usage) <subcommand>\n"
                    + "error: See '\(usage) --help' for more information.\n")
            return ExitStatus.usage
        }
        return nil
    }

    /// The command `word` was meant as: the closest name, else the one name it starts (`config add` is
    /// `add-device`), else a subcommand of one of these commands by that very name (`remove-device` is
    /// `config remove-device`).
    private static func nearestCommand(
        to word: String, among subcommands: [ParsableCommand.Type], names: [String], next: String? = nil
    ) -> String? {
        // Another tool's word for a command (`config get`, `config remove`, `ls`): the command it means here,
        // before any spelling that is merely near. To remove from the settings is to unset a key, or to remove a
        // device's name.
        // A key (or one near a key's spelling, or default-profile) is unset; any other word is a device's name.
        let isKey = { (word: String) in
            SettingCatalog.setting(word) != nil || word == "default-profile"
                || Suggestion.closest(to: word, among: SettingCatalog.all.map(\.name)) != nil
        }
        let removes = next.map { !isKey($0) } == true ? "remove-device" : "unset"
        let meanings = [
            "get": ["show"], "show": ["get"], "remove": [removes, "delete"], "rm": [removes, "delete"], "ls": ["list"],
        ]
        if let meant = meanings[word]?.first(where: names.contains) { return meant }
        if let near = Suggestion.closest(to: word, among: names) { return near }
        let starting = names.filter { $0.hasPrefix(word) }
        if word.count >= 3, starting.count == 1 { return starting[0] }
        let groups = subcommands.filter { $0.configuration.subcommands.contains { $0._commandName == word } }
        return groups.count == 1 ? "\(groups[0]._commandName) \(word)" : nil
    }

    /// `apnsctl help sned` would print the root help and exit 0 (the parser ignores names it does not
    /// know there), hiding the typo from the user and from scripts; like `git help`, it is an error.
    /// The words are walked down the command tree, so `apnsctl help channel create` is the help of
    /// `channel create`, and a typo at any level is named with that level's commands.
    private static func rejectHelpForUnknownCommand(_ arguments: [String], in world: CommandWorld) -> Int32? {
        guard arguments.first == "help", arguments.count > 1 else { return nil }
        var command: ParsableCommand.Type = APNSCtl.self
        var path = ["apnsctl"]
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            let subcommands = command.configuration.subcommands
            if let next = subcommands.first(where: { $0._commandName == name }) {
                command = next
                path.append(name)
                continue
            }
            let names = subcommands.map { $0._commandName }
            let shown = PrintableText.quoted(PrintableText.escapingControls(name))
            guard !names.isEmpty else {
                world.standardError.print("error: help: \(path.joined(separator: " ")) has no subcommand \(shown)\n")
                return ExitStatus.usage
            }
            let near =
                Suggestion.closest(to: name, among: names).map { "did you mean \(PrintableText.quoted($0))? " } ?? ""
            world.standardError.print(
                "error: help: unknown command \(shown); \(near)"
                    + "the commands are \(names.joined(separator: ", ")) (\(path.joined(separator: " ")) --help lists them)\n"
            )
            return ExitStatus.usage
        }
        return nil
    }

    /// The parser's message as CLI.md's `error:` lines: every stderr line of an error starts with
    /// `error:` (scripts filter on it), so its `Usage:`, `Help:` and `See …` lines get the prefix too.
    static func errorLines(parserText text: String) -> [String] {
        var lines: [String] = []
        for raw in text.split(separator: "\n") {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            guard !line.isEmpty else { continue }
            if line.hasPrefix("apnsctl "), lines.last?.hasPrefix("error: usage: ") == true {
                // A command's second form (`mock` and `mock stop`), under the first: a usage line too.
                lines.append("error: usage: " + line)
            } else if line.hasPrefix("Error: ") || line.hasPrefix("error: ") {
                lines.append("error: " + line.dropFirst(7))
            } else if line.hasPrefix("Usage: ") || line.hasPrefix("Help: ") {
                let colon = line.firstIndex(of: ":") ?? line.startIndex
                let label = line[..<colon].lowercased()
                let rest = line[line.index(after: colon)...].drop { $0 == " " }
                lines.append("error: \(label): \(rest)")
            } else {
                lines.append("error: " + line)
            }
        }
        return lines
    }
}

/// Our version string, bumped on release.
enum APNSCtlVersion {
    static let current = "0.1.0"
}

/// Ends the process with `code` through exit(3), which runs atexit handlers and flushes C stdio; apnsctl
/// writes straight to the descriptors, so nothing is left in a buffer either way. One name for every exit.
func exitProcess(_ code: Int32) -> Never { Environment.exit(code) }
