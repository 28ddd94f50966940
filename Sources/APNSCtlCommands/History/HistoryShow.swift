import APNSSettings
import ArgumentParser

extension APNSCtl.History {
    /// `apnsctl history show ID|last`: one entry whole.
    struct Show: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "One recorded send: its settings, the payload, and every result as send printed it.",
            discussion: """
                For results from Apple's sandbox with an apns-unique-id, Apple's Push Notifications Console \
                looks the id up in its delivery log (development only, kept about a week): the place to ask why \
                a notification that was accepted never appeared. -o json prints one object whose results are the \
                objects send -o json printed.
                """)

        @Argument(help: ArgumentHelp("The entry's number (as history lists it) or last.", valueName: "id|last"))
        var id: String

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("text or json.", valueName: "text|json"), completion: OutputFormat.completion,
            transform: OutputFormat.argument)
        var output: OutputFormat = .text

        func run(in world: CommandWorld) throws {
            let format = output
            let entry = try HistoryAccess.entry(id, in: world)
            let lines = format == .json ? [HistoryOutput.showJSON(entry)] : HistoryOutput.showText(entry)
            for line in lines { world.standardOutput.line(line) }
            world.standardOutput.flush()
            if let failure = world.standardOutput.failure {
                throw CLIError.outputFailed(
                    HistoryOutput.notPrinted(failure, total: lines.count, what: "entry #\(entry.id)"))
            }
        }
    }
}
