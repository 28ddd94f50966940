import ArgumentParser
import Testing

@testable import APNSCtlCommands

/// Every command's `--help` (and `apnsctl help X`, the same text) fits an 80-column terminal: the parser
/// wraps the prose, but not a usage line or an example, which then break mid-word on a standard terminal.
@Suite struct HelpWidthTests {
    static let columns = 80

    /// Every command and subcommand, from the command tree itself, with the words that name it.
    static func commands(
        under command: ParsableCommand.Type = APNSCtl.self, path: [String] = []
    ) -> [(path: [String], type: ParsableCommand.Type)] {
        var all = [(path, command)]
        for sub in command.configuration.subcommands {
            all += commands(under: sub, path: path + [sub._commandName])
        }
        return all
    }

    @Test func theTreeIsWalked() {
        let names = Self.commands().map { $0.path.joined(separator: " ") }
        // A walk that missed the groups would pass on nothing.
        for expected in ["send", "config list", "doctor", "channel create", "mock"] {
            #expect(names.contains(expected), "\(expected) missing from \(names)")
        }
    }

    @Test func everyHelpFitsEightyColumns() {
        var wide: [String] = []
        for (path, type) in Self.commands() {
            let text = APNSCtl.helpMessage(for: type, columns: Self.columns)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false)
            where line.count > Self.columns {
                wide.append("apnsctl \(path.joined(separator: " ")) --help (\(line.count)): \(line)")
            }
        }
        #expect(wide.isEmpty, "lines over \(Self.columns) columns:\n\(wide.joined(separator: "\n"))")
    }
}
