import APNSCore
import APNSCrypto
import APNSHTTP2
import ArgumentParser

/// The root command. It owns `main` so that every failure, including the argument
/// parser's usage errors, prints as `error: …` and exits with a code from CLI.md.
@main
struct APNSCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apnsctl",
        abstract: "Test and send Apple push notifications from the shell.",
        discussion: """
            Checks certificates, .p8 keys and payloads, sends over HTTP/2 to APNs (or to
            `apnsctl mock`, a local APNs), and explains every answer.

            Exit codes: 0 success, 1 APNs rejected a notification, 64 usage, 65 invalid
            payload, 66 missing input file, 69 transport failure, 70 internal error,
            73 output file exists, 77 credential problem.
            """,
        version: APNSCtl.versionText,
        subcommands: [Send.self, Validate.self, Inspect.self, Convert.self, JWT.self, Mock.self]
    )

    /// `apnsctl --version`: ours, plus the C libraries actually linked (they decide TLS and HTTP/2 behaviour).
    static var versionText: String {
        "apnsctl \(APNSCtlVersion.current) (OpenSSL: \(OpenSSLLibrary.version); nghttp2 \(NGHTTP2Library.version))"
    }

    static func main() {
        ignoreSIGPIPE()
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
        if !text.isEmpty {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                var l = String(line)
                if l.hasPrefix("Error: ") { l = "error: " + l.dropFirst(7) }
                if l.isEmpty { continue }
                StandardStreams.printErr(l.hasPrefix("error: ") ? l + "\n" : l + "\n")
            }
            if !text.hasPrefix("Error: ") && !text.hasPrefix("error: ") {
                StandardStreams.printErr("error: invalid command line; see apnsctl --help\n")
            }
        }
        exitProcess(code == 1 ? ExitStatus.usage : code)
    }
}

/// Our version string, bumped on release.
enum APNSCtlVersion {
    static let current = "0.1.0"
}

/// Writes to a closed socket must fail with EPIPE, not kill the process.
func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }

/// Exits without running Swift's atexit machinery twice; flushes nothing (we never use stdio buffers).
func exitProcess(_ code: Int32) -> Never { exit(code) }
