import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import ArgumentParser

extension APNSCtl.Channel {
    /// `apnsctl channel delete ID`: irreversible, so it asks on a terminal and otherwise needs `--yes`.
    struct Delete: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a broadcast channel (irreversible).",
            discussion: """
                Deleting cannot be undone: activities subscribed to the channel get no more broadcasts. On \
                a terminal apnsctl asks first; elsewhere (scripts, CI) pass --yes, else it exits 64 and \
                deletes nothing. Prints "deleted ID" on stdout.
                """)

        @Argument(help: ArgumentHelp("The channel id, as channel create or list printed it.", valueName: "id"))
        var id: String

        @Flag(
            name: [.customShort("y"), .customLong("yes")], help: "Delete without asking (needed without a terminal).")
        var yes = false

        @OptionGroup var options: ChannelOptions

        func run(in world: CommandWorld) throws {
            // Flags first (64), as everywhere: without a terminal and without --yes nothing else is looked at.
            try HeaderValueCheck.channelID(id, flag: "channel delete")
            if !yes && !world.terminal.isAvailable() {
                throw CLIError.usage(
                    "channel delete \(id): deleting is irreversible and there is no terminal to ask on; pass --yes to confirm"
                )
            }
            let plan = try options.plan(self, in: world)
            if !yes {
                guard
                    Confirmation.ask(
                        on: world.terminal,
                        "Delete channel \(id) of \(plan.credentials.bundleID) (\(plan.credentials.environment.rawValue))? This cannot be undone. [y/N] "
                    )
                else {
                    throw CLIError.usage("channel delete \(id): not confirmed; nothing was deleted")
                }
            }
            let output = ChannelOutput(format: plan.format, in: world)
            guard
                let result = try plan.perform(
                    [plan.request(.delete(channel: id))], in: world, fill: { $0.field("deleted", nil as Bool?) }
                )
                .first
            else {
                throw CLIError.internalError("channel delete got no result")
            }
            try output.check(result, operation: "delete") { $0.field("deleted", false) }
            if plan.format == .json {
                output.line(channel: id, result: result) { $0.field("deleted", true) }
            } else {
                output.showRequestID(result)
                output.text("deleted \(id)")
            }
            try output.finish(done: "the channel \(id) was deleted")
        }
    }
}
