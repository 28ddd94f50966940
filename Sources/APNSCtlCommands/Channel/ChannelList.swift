import APNSClient
import APNSCore
import ArgumentParser

extension APNSCtl.Channel {
    /// `apnsctl channel list`: the app's channel ids, one per line; with `-o json` each with its policy.
    struct List: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the app's broadcast channels, one id per line.",
            discussion: """
                Prints one channel id per line, nothing when there are none. With -o json, one object per \
                channel, with the fields channel, storage (none or most-recent), status, reason, meaning, \
                hint, apns_request_id (the request that read the channel) and list_request_id (the list \
                request's, --request-id when given). APNs' list answer holds only ids, so -o json reads each \
                channel too (one request per channel, all on the same connection). With no channels, -o json \
                prints nothing on stdout and the list request's id on stderr, as text mode does.
                """)

        @OptionGroup var options: ChannelOptions

        func run(in world: CommandWorld) throws {
            let plan = try options.plan(self, in: world)
            let output = ChannelOutput(format: plan.format, in: world)
            // A list that failed gets the object a channel would, its own request id as list_request_id.
            let list = plan.request(.list)
            let noStorage = { (w: inout JSONWriter) in w.field("storage", nil as String?) }
            let ownID = { (w: inout JSONWriter) in w.field("list_request_id", list.requestID) }
            guard let listed = try plan.perform([list], in: world, fill: noStorage, after: ownID).first else {
                throw CLIError.internalError("channel list got no result")
            }
            try output.check(listed, operation: "list", noStorage, after: ownID)
            // APNs answers a list with one, empty when there are no channels: an answer without is not a list (a web
            // page behind an apns-request-id), never taken for "no channels".
            guard let channels = listed.response.map(ChannelAnswer.init)?.channels else {
                let problem = TransportProblem.noChannelList(status: listed.status ?? 0)
                if plan.format == .json {
                    output.unusable(listed, problem: problem, noStorage, after: ownID)
                } else {
                    output.showRequestID(listed)
                }
                throw CLIError.transport(problem)
            }
            var ids: [String] = []
            for id in channels where !ids.contains(id) { ids.append(id) }
            guard plan.format == .json else {
                output.showRequestID(listed)
                for id in ids { output.text(id) }
                output.flush()
                return
            }
            // No object to carry the list request's id: stderr gets it, as in text mode (stdout stays empty JSON Lines).
            guard !ids.isEmpty else {
                output.showRequestID(listed, always: true)
                return
            }
            let requests = ids.map { plan.request(.read(channel: $0), main: false) }
            let reads = try plan.resultsAllowingFailures(requests)
            var rejected = false
            var unanswered: CLIError? = nil
            for (request, read) in zip(requests, reads) {
                let listID = { (w: inout JSONWriter) in w.field("list_request_id", listed.apnsRequestID) }
                // A read without an answer gets its line too, and the others theirs: the list is whole.
                if read.outcome == .failed {
                    output.unanswered(read, of: request, { $0.field("storage", nil as String?) }, after: listID)
                    unanswered = unanswered ?? plan.unanswered(read, of: request)
                    continue
                }
                // A channel deleted between the list and its read still gets its line, with the reason.
                rejected = rejected || read.outcome == .rejected
                let storage = read.outcome == .accepted ? read.response.map(ChannelAnswer.init)?.storage : nil
                output.line(
                    channel: request.channel, result: read, { $0.field("storage", storage?.name) }, after: listID)
            }
            output.flush()
            if let unanswered { throw unanswered }
            if rejected { throw CLIError.rejected }
        }
    }
}
