import APNSClient
import APNSCore
import APNSCrypto

extension APNSCtl.Send {
    /// Sends every request `requests` yields over one connection (devices or broadcast channels), prints one
    /// result per target and the summary, and maps the outcome to CLI.md's exit codes: 0, 1 for a rejection,
    /// 69 when a target got no answer (wins over 1), 130/143 when interrupted. `noun` names the targets in
    /// messages (`device`, `channel`).
    func deliver(_ requests: RequestSource, total: Int, environment: APNSEnvironment, endpoint: PushEndpoint,
                 identity: PushIdentity?, format: SendOutput.Format, noun: String) throws(CLIError) {
        if connection.insecure {
            StandardStreams.warning("--insecure: the server certificate is not verified; anyone on the network path could read or change what is sent")
        }
        let trust: ServerTrust = connection.insecure ? .insecure : connection.caFile.map { .caFile($0) } ?? .systemStore
        let configuration = SenderConfiguration(endpoint: endpoint, trust: trust, identity: identity,
                                                timeout: connection.timeout, concurrency: connection.concurrency)
        let renderer = SendOutput(format: format, environment: environment, endpoint: endpoint, total: total,
                                  lineBuffered: verbose, quiet: quiet, color: color)
        let verboseLog = verbose ? SendVerbose(start: SystemClock.monotonicNanoseconds()) : nil
        let sender: PushSender
        do {
            sender = try PushSender(configuration: configuration, requests: requests,
                                    observer: verboseLog.map { log in { event in renderer.flush(); log.show(event) } })
        } catch {
            if case .tls(.caFileUnusable) = error { throw .inputMissing("--ca-file \(error.description)") }
            throw .transport(error.message)
        }
        var summary = sender.run(interrupts: InterruptSignals.install()) { renderer.result($0) }
        if summary.interruptedBy != nil { summary.notSent = max(0, total - summary.total) }
        renderer.finish(summary)
        verboseLog?.finish(summary)
        if let signal = summary.interruptedBy {
            throw .interrupted(signal: signal, message: SendOutput.interruptMessage(summary))
        }
        if summary.failed > 0 {
            let what = summary.failed == summary.total ? "no \(noun) got an answer" : "\(summary.failed) of \(summary.total) \(noun)s got no answer"
            throw .transport("\(what): \(summary.failure?.message ?? "the connection failed")")
        }
        if summary.rejected > 0 { throw .rejected }
    }
}
