import APNSTestSupport
import Testing

/// The root command's contract: help, version and usage errors.
@Suite struct VersionAndHelpTests {
    /// Through the binary: the libraries `main` links, and its exit status.
    @Test func versionNamesTheLinkedLibraries() throws {
        let r = try CommandRunner.apnsctl(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("apnsctl "))
        #expect(r.stdout.contains("OpenSSL 3"))
        #expect(r.stdout.contains("nghttp2 1."))
    }

    @Test func helpListsEverySubcommand() throws {
        let r = try InProcess.apnsctl(["--help"])
        #expect(r.status == 0)
        for name in ["send", "validate", "inspect", "convert", "jwt", "mock"] {
            #expect(r.stdout.contains(name), "help lacks \(name)")
        }
    }

    /// Through the binary: a usage error is `main`'s exit status 64.
    @Test func unknownFlagIsUsageErrorWithPrefix() throws {
        let r = try CommandRunner.apnsctl(["--no-such-flag"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("error: "))
        #expect(r.stdout.isEmpty)
    }

    @Test func unknownSubcommandIsUsageError() throws {
        let r = try InProcess.apnsctl(["frobnicate"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("error: "))
    }

    /// CLI.md: a mistyped subcommand gets a "did you mean" like a mistyped flag, on `error:` lines, exit 64.
    @Test(arguments: [("sned", "send"), ("valdiate", "validate"), ("inpsect", "inspect"), ("mokc", "mock")])
    func mistypedCommandGetsASuggestion(typed: String, meant: String) throws {
        let r = try InProcess.apnsctl([typed, "x.json"])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.errorLines.first == "error: Unknown command '\(typed)'. Did you mean '\(meant)'?", "\(r.stderr)")
        #expect(r.errorLines.allSatisfy { $0.hasPrefix("error: ") })
        let help = try InProcess.apnsctl(["help", typed])
        #expect(help.status == 64 && help.stderr.contains("did you mean \"\(meant)\"?"), "\(help.stderr)")
    }

    /// The start of a command's name (`config add`) names it, and a group's subcommand typed at the top
    /// (`apnsctl remove-device`) names it with its group.
    @Test(arguments: [
        (["config", "add", "my-iphone"], "add-device"), (["remove-device", "my-iphone"], "config remove-device"),
        (["create", "--topic", "com.example.app"], "channel create"),
    ])
    func aCommandsStartOrAGroupsSubcommandGetsASuggestion(typed: [String], meant: String) throws {
        // A subcommand of several groups (list: config, history, channel) is no guess.
        #expect(try InProcess.apnsctl(["list"]).errorLines.first == "error: Unexpected argument 'list'")
        let r = try InProcess.apnsctl(typed)
        #expect(r.status == 64)
        let word = typed[typed.count > 2 && typed[0] == "config" ? 1 : 0]
        #expect(r.errorLines.first == "error: Unknown command '\(word)'. Did you mean '\(meant)'?", "\(r.stderr)")
    }

    /// Another tool's word for a command is the command it means here, not the one nearest in spelling
    /// (`config get` is show, not set; `config remove` is unset, not remove-device).
    @Test(arguments: [
        (["config", "get", "topic"], "get", "show"), (["config", "remove", "topic"], "remove", "unset"),
        (["channel", "rm", "x"], "rm", "delete"), (["history", "ls"], "ls", "list"),
        (["config", "remove", "my-phone"], "remove", "remove-device"),
        (["config", "remove", "--profile", "dev", "topic"], "remove", "unset"),
        (["config", "rm", "default-profile"], "rm", "unset"), (["config", "remove", "topik"], "remove", "unset"),
        (["channel", "show", "x"], "show", "get"),
    ])
    func anotherToolsWordForACommandGetsItsMeaning(typed: [String], word: String, meant: String) throws {
        let r = try InProcess.apnsctl(typed)
        #expect(r.status == 64)
        #expect(r.errorLines.first == "error: Unknown command '\(word)'. Did you mean '\(meant)'?", "\(r.stderr)")
    }

    /// The same for a command group's subcommands: `apnsctl channel crate` names `create` and the group.
    @Test(arguments: [("crate", "create"), ("lsit", "list"), ("delte", "delete")])
    func mistypedNestedCommandGetsASuggestion(typed: String, meant: String) throws {
        let r = try InProcess.apnsctl(["channel", typed, "--topic", "com.example.app"])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(
            r.errorLines == [
                "error: Unknown command '\(typed)'. Did you mean '\(meant)'?",
                "error: usage: apnsctl channel <subcommand>",
                "error: See 'apnsctl channel --help' for more information.",
            ], "\(r.stderr)")
    }

    /// A subcommand's flag typed before the subcommand's name (`apnsctl -o json validate x.json`) gets the command
    /// line with the flag after the name, which the parser only called an unknown option of the group.
    @Test(arguments: [
        (
            ["-o", "json", "validate", "x.json"],
            "error: -o is an option of validate and goes after its name: apnsctl validate -o json x.json"
        ),
        (
            ["channel", "-o", "json", "list", "--topic", "com.example.app"],
            "error: -o is an option of channel list and goes after its name: apnsctl channel list -o json --topic com.example.app"
        ),
        (["-v", "send"], "error: -v is an option of send and goes after its name: apnsctl send -v"),
    ])
    func aSubcommandsFlagBeforeItsNameIsMovedAfterIt(typed: [String], said: String) throws {
        let r = try InProcess.apnsctl(typed)
        #expect(r.status == 64)
        #expect(r.errorLines == [said], "\(r.stderr)")
        // The advice runs: the moved command line parses (it may then fail for what it does, not for its words).
        let moved = said.components(separatedBy: ": apnsctl ")[1].split(separator: " ").map(String.init)
        #expect(!(try InProcess.apnsctl(moved)).stderr.contains("Unknown option"))
        // A flag no subcommand after it has is still the parser's unknown option.
        #expect(
            try InProcess.apnsctl(["--frob", "validate", "x.json"]).errorLines.first == "error: Unknown option '--frob'"
        )
        // Nor one with another word between: `help` is no payload file.
        #expect(!(try InProcess.apnsctl(["-o", "json", "help", "validate"])).stderr.contains("goes after its name"))
    }

    /// CLI.md: an error is lines on stderr that all start with `error:`, the parser's `Usage:` and
    /// `See 'apnsctl … --help'` lines included, and its exit status is 64.
    @Test(arguments: [
        ["frobnicate"], ["validate", "--bogus", "x"], ["validate"], ["validate", "--size-limit"],
        ["inspect"], ["jwt", "--auth-key"], ["--generate-completion-script", "ksh"], ["help", "nosuch"],
    ])
    func everyUsageErrorLineStartsWithErrorPrefix(arguments: [String]) throws {
        let r = try InProcess.apnsctl(arguments)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.hasPrefix("error: "), "\(arguments): \(line)")
        }
    }

    /// Each credential and payload command's help ends in examples a user can copy.
    @Test(arguments: ["validate", "inspect", "convert", "jwt"])
    func commandHelpHasExamples(command: String) throws {
        let r = try InProcess.apnsctl([command, "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Examples:\n") && r.stdout.contains("  apnsctl \(command) "), "\(command) --help")
    }
}
