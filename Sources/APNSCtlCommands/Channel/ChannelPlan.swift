import APNSClient
import APNSCore
import APNSPlatform
import APNSSettings

/// A checked channel command: where to connect, with which credentials, for which app; `perform` sends
/// management requests over one connection through the same sender `send` uses.
struct ChannelPlan {
    /// The command's resolved settings (what `-v` and `config show --for channel` print).
    let settings: ResolvedSettings
    let format: OutputFormat
    let credentials: BroadcastCredentials
    let endpoint: PushEndpoint
    let configuration: SenderConfiguration
    /// `--request-id`, for the command's main request.
    let requestID: String?
    /// Where an interrupt of the requests comes from (the world's).
    let interrupts: @Sendable () -> (any InterruptSource)?

    /// A request for this app; the main request carries `--request-id` when given.
    func request(_ operation: ChannelRequest.Operation, main: Bool = true) -> ChannelRequest {
        ChannelRequest(
            operation, bundleID: credentials.bundleID, requestID: (main ? requestID : nil) ?? APNSRequestID.fresh(),
            bearerToken: credentials.bearerToken)
    }

    /// Sends `requests` (multiplexed on one connection; at most one create or list, and distinct channels)
    /// and returns their results in the same order.
    /// A request without an answer is a transport failure (69), named with its `apns-request-id`. With `-o json`
    /// that request gets its object first, with the keys `fill` adds as for an answer (null), `"status":null`
    /// and the `"error"`, as a device does in `send`.
    func perform(
        _ requests: [ChannelRequest], in world: CommandWorld, fill: (inout JSONWriter) -> Void = { _ in },
        after: (inout JSONWriter) -> Void = { _ in }
    ) throws(CLIError) -> [PushResult] {
        let results = try resultsAllowingFailures(requests)
        for (r, result) in zip(requests, results) where result.outcome == .failed {
            if let warning = StoppedMock.warning(settings, failures: result.failure.map { [$0] } ?? []) {
                world.standardError.warning(warning)
            }
            if format == .json {
                let output = ChannelOutput(format: format, in: world)
                output.unanswered(result, of: r, fill, after: after)
                output.flush()
            }
            throw unanswered(result, of: r)
        }
        return results
    }

    /// The results of `requests` in their order, those without an answer among them (`outcome == .failed`);
    /// an interrupt is 130 or 143.
    func resultsAllowingFailures(_ requests: [ChannelRequest]) throws(CLIError) -> [PushResult] {
        let sender: PushSender
        do {
            sender = try PushSender(configuration: configuration, requests: RequestListSource(requests.map(\.job)))
        } catch {
            throw CLIError(senderSetup: error, certificate: configuration.identity?.certificatePath)
        }
        // Results arrive in answer order; each request's target (its channel, "" for create and list) is
        // distinct within one call.
        var byTarget: [PushTarget: PushResult] = [:]
        let summary = sender.run(interrupts: interrupts()) { byTarget[$0.target] = $0 }
        if let signal = summary.interruptedBy {
            throw .interrupted(
                signal: signal,
                message:
                    "interrupted by \(signal == ProcessSignals.terminate ? "SIGTERM" : "SIGINT"); \(Self.afterInterrupt(requests.map(\.operation)))"
            )
        }
        var results: [PushResult] = []
        for r in requests {
            guard let result = byTarget[r.job.target] else {
                throw .internalError("no result for the request with apns-request-id \(r.requestID)")
            }
            results.append(result)
        }
        return results
    }

    /// What an interrupt left of `operations`: a list or a read changed nothing; a create or a delete may have
    /// been carried out, and the command that shows whether is named.
    static func afterInterrupt(_ operations: [ChannelRequest.Operation]) -> String {
        for operation in operations {
            switch operation {
            case .create:
                return "the channel may or may not have been created: "
                    + "apnsctl channel list, with this command's flags except --storage, shows whether it was"
            case .delete(let id):
                return "the channel may or may not have been deleted: "
                    + "apnsctl channel get \(id), with this command's flags except --yes, shows whether it was"
            case .read, .list:
                continue
            }
        }
        return "nothing changed (it only reads)"
    }

    /// The exit 69 for `result`, the unanswered result of `request`.
    func unanswered(_ result: PushResult, of request: ChannelRequest) -> CLIError {
        .transport(.channelUnanswered(result.failure, requestID: request.requestID, request.operation))
    }
}
