import APNSClient
import APNSCore
import APNSSettings
import ArgumentParser

extension APNSCtl.Channel {
    /// `apnsctl channel create`: a new channel; only its id on stdout, so `ID=$(…)` works.
    struct Create: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create a broadcast channel and print its id.",
            discussion: """
                Prints only the new channel id (base64, as APNs returns it) on stdout, so \
                ID=$(apnsctl channel create …) works; the apns-request-id goes to stderr. \
                --storage none (the default) is No Message Stored: the larger publishing budget, and \
                broadcasts to it must use apns-expiration 0. most-recent keeps the newest message up to \
                8 hours for devices that were offline. An app has at most 10,000 channels per environment.
                """)

        @Option(
            name: .setting(.storage),
            help: ArgumentHelp(
                "Message storage policy: none (No Message Stored, the default) or most-recent.",
                valueName: "none|most-recent"), completion: .list(["none", "most-recent"]),
            transform: SettingArgument.transform(.storage, .channel))
        var storage: SettingValue?

        @OptionGroup var options: ChannelOptions

        func run(in world: CommandWorld) throws {
            let plan = try options.plan(self, in: world)
            let name = plan.settings[.storage]?.value ?? "none"
            guard let policy = ChannelStorage(name: name) else {
                throw CLIError.usage(
                    "\(plan.settings.label(.storage)) \(PrintableText.quoted(name)): unknown policy; use none (No Message Stored) or most-recent"
                )
            }
            let output = ChannelOutput(format: plan.format, in: world)
            let results = try plan.perform([plan.request(.create(policy))], in: world) {
                $0.field("storage", nil as String?)
            }
            guard let result = results.first else { throw CLIError.internalError("channel create got no result") }
            try output.check(result, operation: "create") { $0.field("storage", nil as String?) }
            guard let id = result.response.map(ChannelAnswer.init)?.channelID, !id.isEmpty else {
                let problem = TransportProblem.noChannelID(status: result.status ?? 0)
                if plan.format == .json {
                    output.unusable(result, problem: problem) { $0.field("storage", nil as String?) }
                } else {
                    output.showRequestID(result)
                }
                throw CLIError.transport(problem)
            }
            if plan.format == .json {
                output.line(channel: id, result: result) { $0.field("storage", policy.name) }
            } else {
                output.showRequestID(result)
                output.text(id)
            }
            try output.finish(done: "the channel was created, and its id was not printed: \(id)")
        }
    }
}
