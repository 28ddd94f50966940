import APNSHistory
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
            let (entry, store) = try HistoryAccess.opened(id, withResults: false, in: world)
            // The results are read from the store as they are printed, so a batch of any size is shown in bounded
            // memory; the lines are counted for a message about output that stopped.
            let out = world.standardOutput
            let results: HistoryOutput.Results = { body throws(HistoryProblem) in
                try store.forEachResult(of: entry.id, body)
            }
            var total = 0
            do {
                if output == .json {
                    total = 1
                    // One line, written in pieces of about 64 KB (a write each result would be a system call each).
                    var pending: [UInt8] = []
                    try HistoryOutput.showJSON(entry, results: results) { piece in
                        pending += piece
                        if pending.count >= 1 << 16 {
                            out.write(pending)
                            pending.removeAll(keepingCapacity: true)
                        }
                    }
                    out.write(pending)
                } else {
                    try HistoryOutput.showText(entry, results: results) { line in
                        total += 1
                        out.line(line)
                    }
                }
            } catch {
                out.flush()
                throw HistoryAccess.cliError(error)
            }
            out.flush()
            if let failure = out.failure {
                throw CLIError.outputFailed(HistoryOutput.notPrinted(failure, total: total, what: "entry #\(entry.id)"))
            }
        }
    }
}
