import APNSClient
import APNSCore
import ArgumentParser

extension APNSCtl.Channel {
    /// `apnsctl channel get ID`: a channel's storage policy and push type.
    struct Get: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Show a broadcast channel's storage policy and push type.")

        @Argument(help: ArgumentHelp("The channel id, as channel create or list printed it.", valueName: "id"))
        var id: String

        @OptionGroup var options: ChannelOptions

        func run(in world: CommandWorld) throws {
            try HeaderValueCheck.channelID(id, flag: "channel get")
            let plan = try options.plan(self, in: world)
            let output = ChannelOutput(format: plan.format, in: world)
            guard
                let result = try plan.perform(
                    [plan.request(.read(channel: id))], in: world,
                    fill: { w in
                        w.field("storage", nil as String?)
                        w.field("push_type", nil as String?)
                    }
                ).first
            else {
                throw CLIError.internalError("channel get got no result")
            }
            try output.check(result, operation: "get") { w in
                w.field("storage", nil as String?)
                w.field("push_type", nil as String?)
            }
            let answer = result.response.map(ChannelAnswer.init)
            if plan.format == .json {
                output.line(channel: id, result: result) { w in
                    w.field("storage", answer?.storage?.name)
                    w.field("push_type", answer?.pushType)
                }
            } else {
                output.showRequestID(result)
                output.text("channel:   \(id)")
                output.text("storage:   \(answer?.storage.map(Self.describe) ?? "unknown")")
                output.text("push type: \(answer?.pushType ?? "unknown")")
            }
            output.flush()
        }

        /// `none (No Message Stored)`, `most-recent (Most Recent Message Stored)`.
        static func describe(_ s: ChannelStorage) -> String {
            s == .none ? "none (No Message Stored)" : "most-recent (Most Recent Message Stored)"
        }
    }
}
