import APNSClient
import APNSCore

extension APNSCtl.Send {
    /// `send --channel`: one broadcast per channel over one connection, one result per channel (text line or
    /// JSON object with `"channel"` and `"apns_request_id"`), exit codes as for devices.
    func runBroadcast(format: SendOutput.Format) throws {
        let plan = try makeBroadcastPlan()
        if dryRun {
            BroadcastDryRun(plan: plan, certificate: certificate, connection: connection,
                            tokenAuthKeyPath: tokenAuth.key.authKey).print()
            return
        }
        if connection.insecure {
            StandardStreams.warning("--insecure: the server certificate is not verified; anyone on the network path could read or change what is sent")
        }
        let trust: ServerTrust = connection.insecure ? .insecure : connection.caFile.map { .caFile($0) } ?? .systemStore
        let configuration = SenderConfiguration(endpoint: plan.endpoint, trust: trust, identity: plan.credentials.identity,
                                                timeout: connection.timeout, concurrency: connection.concurrency)
        let renderer = SendOutput(format: format, environment: plan.credentials.environment, endpoint: plan.endpoint,
                                  total: plan.jobs.count, lineBuffered: verbose)
        let verboseLog = verbose ? SendVerbose(start: SystemClock.monotonicNanoseconds()) : nil
        let sender: PushSender
        do {
            sender = try PushSender(configuration: configuration, requests: RequestListSource(plan.jobs),
                                    observer: verboseLog.map { log in { event in renderer.flush(); log.show(event) } })
        } catch {
            if connection.caFile != nil, case .tls(.configuration) = error { throw CLIError.inputMissing(error.description) }
            throw CLIError.transport(error.description)
        }
        var summary = sender.run(interrupts: InterruptSignals.install()) { renderer.result($0) }
        if summary.interruptedBy != nil { summary.notSent = max(0, plan.jobs.count - summary.total) }
        renderer.finish(summary)
        verboseLog?.finish(summary)
        if let signal = summary.interruptedBy {
            throw CLIError.interrupted(signal: signal, message: SendOutput.interruptMessage(summary))
        }
        if summary.failed > 0 {
            let what = summary.failed == summary.total ? "no channel got an answer" : "\(summary.failed) of \(summary.total) channels got no answer"
            throw CLIError.transport("\(what): \(summary.failure ?? "the connection failed")")
        }
        if summary.rejected > 0 { throw CLIError.rejected }
    }
}
