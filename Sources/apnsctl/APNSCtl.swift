import APNSCore
import APNSCrypto
import APNSHTTP2
import ArgumentParser
import APNSPlatform

/// The root command. It owns `main` so that every failure, including the argument
/// parser's usage errors, prints as `error: …` and exits with a code from CLI.md.
@main
struct APNSCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apnsctl",
        abstract: "Test and send Apple push notifications from the shell.",
        discussion: """
            Checks certificates, .p8 keys and payloads, sends over HTTP/2 to APNs (or to apnsctl mock, \
            a local APNs), and explains every answer. apnsctl help COMMAND, or COMMAND --help, says more; \
            man apnsctl and man apnsctl.COMMAND hold the same text after make install.

            Exit codes: 0 success, 1 APNs rejected a notification, 64 usage, 65 invalid payload, 66 \
            missing input file, 69 transport failure, 70 internal error, 73 output file exists, 77 \
            credential problem.
            """,
        version: APNSCtl.versionText,
        subcommands: [Send.self, Validate.self, Inspect.self, Convert.self, JWT.self, Mock.self, Channel.self, Config.self]
    )

    /// `apnsctl --version`: ours, plus the C libraries actually linked (they decide TLS and HTTP/2 behaviour).
    static var versionText: String {
        "apnsctl \(APNSCtlVersion.current) (OpenSSL: \(OpenSSLLibrary.version); nghttp2 \(NGHTTP2Library.version))"
    }

    static func main() {
        ProcessSignals.ignoreBrokenPipe()
        rejectHelpForUnknownCommand(Array(CommandLine.arguments.dropFirst()))
        suggestForMistypedCommand(Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot()
            try command.run()
            exitProcess(0)
        } catch let failure as CLIError {
            failure.report()
            exitProcess(failure.exitCode)
        } catch {
            reportParserError(error)
        }
    }

    /// Help and `--version` go to stdout with exit 0; everything else becomes `error:` lines and exit 64
    /// (or the code the parser chose, e.g. a command's `ExitCode`).
    private static func reportParserError(_ error: Error) -> Never {
        let code = exitCode(for: error).rawValue
        let text = fullMessage(for: error)
        if code == 0 {
            if !text.isEmpty { StandardStreams.printOut(text + "\n") }
            exitProcess(0)
        }
        let lines = errorLines(parserText: text)
        for line in lines.isEmpty ? ["error: invalid command line; see apnsctl --help"] : lines {
            StandardStreams.printErr(line + "\n")
        }
        exitProcess(code == 1 ? ExitStatus.usage : code)
    }

    /// `apnsctl sned`, `apnsctl channel crate`: the parser says only "Unexpected argument"; like a mistyped
    /// flag (and like git), a mistyped command gets a "did you mean", in the parser's own three lines. It
    /// walks the command words as the parser does, so a command group's subcommands get the same help.
    private static func suggestForMistypedCommand(_ arguments: [String]) {
        var command: ParsableCommand.Type = APNSCtl.self
        var path = ["apnsctl"]
        for word in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-") else { return }
            if let next = subcommands.first(where: { $0._commandName == word }) {
                command = next
                path.append(word)
                continue
            }
            // `help` is the root's only: `apnsctl help send`.
            let names = subcommands.map { $0._commandName } + (path.count == 1 ? ["help"] : [])
            guard !names.contains(word), let near = Suggestion.closest(to: word, among: names) else { return }
            let usage = path.joined(separator: " ")
            StandardStreams.printErr("error: Unknown command '\(word)'. Did you mean '\(near)'?\n"
                + "error: usage: \(usage) <subcommand>\n"
                + "error: See '\(usage) --help' for more information.\n")
            exitProcess(ExitStatus.usage)
        }
    }

    /// `apnsctl help sned` would print the root help and exit 0 (the parser ignores names it does not
    /// know there), hiding the typo from the user and from scripts; like `git help`, it is an error.
    private static func rejectHelpForUnknownCommand(_ arguments: [String]) {
        guard arguments.first == "help", arguments.count > 1 else { return }
        let names = configuration.subcommands.map { $0._commandName }
        for name in arguments.dropFirst() where !name.hasPrefix("-") && !names.contains(name) {
            let near = Suggestion.closest(to: name, among: names).map { "did you mean \(JSONWriter.quoted($0))? " } ?? ""
            StandardStreams.printErr("error: help: unknown command \(JSONWriter.quoted(name)); \(near)"
                + "the commands are \(names.joined(separator: ", ")) (apnsctl --help lists them)\n")
            exitProcess(ExitStatus.usage)
        }
    }

    /// The parser's message as CLI.md's `error:` lines: every stderr line of an error starts with
    /// `error:` (scripts filter on it), so its `Usage:`, `Help:` and `See …` lines get the prefix too.
    static func errorLines(parserText text: String) -> [String] {
        var lines: [String] = []
        for raw in text.split(separator: "\n") {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            guard !line.isEmpty else { continue }
            if line.hasPrefix("Error: ") || line.hasPrefix("error: ") {
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
func exitProcess(_ code: Int32) -> Never { exit(code) }
