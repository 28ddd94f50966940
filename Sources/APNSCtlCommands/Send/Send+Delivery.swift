import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

extension APNSCtl.Send {
    /// How the sender connects to `target`: endpoint, credentials, trust, proxy and the run's limits.
    static func senderConfiguration(_ settings: ResolvedSettings, for target: DeliveryTarget, in world: CommandWorld)
        -> SenderConfiguration
    {
        var configuration = settings.senderConfiguration(
            endpoint: target.route.endpoint, identity: target.identity, proxy: target.route.proxy, in: world)
        configuration.environment = target.route.environment
        configuration.resendUnknown = settings.isOn(.resendUnknown)
        // A list of unknown length (a pipe, perhaps `tail -f`) is not read to its end after the run gave up: it may
        // never end. Its rest stays in the pipe, said as an interrupt's is.
        configuration.readsListAfterGivingUp = target.total != nil
        configuration.tokenRenewal = target.tokenRenewal
        let output = world.standardOutput
        configuration.whileWaitingForInput = { output.flush() }
        return configuration
    }

    /// What a dry run checks of the connection without making one: the TLS set-up the run would make first (the
    /// `--ca-file` or trust file loaded, the certificate with its key), so an unusable file is its exit code
    /// (66) in the dry run too, not a dry run that exits 0 and a run that cannot start.
    static func checkConnectionSetup(_ settings: ResolvedSettings, for target: DeliveryTarget, in world: CommandWorld)
        throws(CLIError)
    {
        let configuration = senderConfiguration(settings, for: target, in: world)
        do { _ = try configuration.makeContext() } catch {
            throw CLIError(senderSetup: error, certificate: configuration.identity?.certificatePath)
        }
    }

    /// Sends every request `requests` yields over one connection to `target` (devices or broadcast channels),
    /// prints one result per target and the summary, and maps the outcome to CLI.md's exit codes: 0, 1 for a
    /// rejection, 69 when a target got no answer (wins over 1), 130/143 when interrupted.
    func deliver(
        _ settings: ResolvedSettings, _ requests: RequestSource, to target: DeliveryTarget, format: OutputFormat,
        in world: CommandWorld, unsent: UnsentDevices? = nil, skippedLines: @escaping () -> Int = { 0 },
        streamRemainder: () -> (held: [DeviceToken], readToEnd: Bool) = { ([], false) },
        listStop: () -> String? = { nil }, lostFromList: () -> Int = { 0 },
        finished: ((SendSummary) -> Void)? = nil
    ) throws(CLIError) {
        let (route, total, noun, fallback) = (target.route, target.total, target.noun, target.fallback)
        let configuration = Self.senderConfiguration(settings, for: target, in: world)
        let verbose = settings.isOn(.verbose)
        let color = settings[.color]?.value ?? .auto
        let renderer = SendOutput(
            format: format, environment: route.environment, endpoint: route.endpoint, total: total,
            // `-q` prints few lines (the rejected and failed): each is written at once, so a reader that went away
            // stops the run at the first, not when a buffer that may never fill is flushed at the end.
            lineBuffered: verbose || (settings.isOn(.quiet) && format == .text), quiet: settings.isOn(.quiet),
            color: color, in: world)
        renderer.deviceName = target.deviceName
        renderer.skippedLines = skippedLines
        renderer.pushType = target.pushType
        renderer.topicNote = SendOutput.topicNote(topic: target.topic, identity: target.identity)
        let verboseLog = verbose ? SendVerbose(in: world) : nil
        if verbose {
            for line in SendVerbose.proxyLines(route.proxy, endpoint: route.endpoint) {
                world.standardError.print(PrintableText.escapingControls(line) + "\n")
            }
            if let fallback, fallback.route.proxy != route.proxy {
                for line in SendVerbose.proxyLines(fallback.route.proxy, endpoint: fallback.route.endpoint) {
                    world.standardError.print(PrintableText.escapingControls(line) + "\n")
                }
            }
        }
        let observer = verboseLog.map { log in
            { (event: SendEvent) in
                renderer.flush()
                log.show(event)
            }
        }
        let send: ((any InterruptSource)?, (PushResult) -> Void) -> SendSummary
        var leftUnsent: () -> [PushJob] = { [] }
        do {
            if let fallback {
                // --env auto: the same push again to the other environment for each BadDeviceToken.
                var second = configuration
                second.endpoint = fallback.route.endpoint
                second.environment = fallback.route.environment
                second.proxy = fallback.route.proxy.proxy
                let sender = try EnvironmentFallbackSender(
                    first: configuration, second: second, request: fallback.request,
                    devices: fallback.devices, observer: observer)
                send = sender.run
                leftUnsent = { sender.leftUnsent }
            } else {
                let sender = try PushSender(configuration: configuration, requests: requests, observer: observer)
                send = sender.run
                leftUnsent = { sender.leftUnsent }
            }
        } catch {
            throw CLIError(senderSetup: error, certificate: configuration.identity?.certificatePath)
        }
        // Lost output (a reader that exited, a full disk) stops the run as the first SIGINT does, also when no
        // signal can be watched.
        let interrupts = world.interrupts() ?? LostOutputStop()
        let recorder = target.recorder
        // A second signal exits at once, before the list and the history entry are written: said, so a script
        // resuming from the list does not take an older one for this run's, and `history show last` is known to be
        // another send.
        let unrecorded = recorder == nil ? "" : "; this send is not in the history"
        if let unsent {
            // A list already there is an earlier run's: it names devices this run may have sent since.
            let older =
                UnsentDevices.isList(unsent.path)
                ? " (the file there is an earlier run's: it lists devices this run may have sent; resuming from it may send them twice)"
                : ""
            interrupts?.noteForExitingAtOnce(
                "; --unsent \(ShellWord.of(unsent.path)) was not written\(older)\(unrecorded)")
        } else {
            interrupts?.noteForExitingAtOnce(unrecorded)
        }
        let output = world.standardOutput
        output.onFailure = { _ in interrupts?.stopForLostOutput() }
        let name = target.deviceName
        let clockWatch = ClockWatch(bearerToken: target.bearerToken, renewal: target.tokenRenewal, now: world.clock.now)
        var summary = send(interrupts) { result in
            clockWatch.note(result)
            renderer.result(result)
            unsent?.note(result)
            recorder?.add(result, name: result.device.flatMap { name?($0.hex) }, route: route)
        }
        // A checked file cut while it was sent ended before its devices did: those it lost are never sent, as a
        // stopped run's rest.
        if summary.interruptedBy == nil && lostFromList() > 0 { summary.listLeftUnread = true }
        // Interrupted, given up with a pipe's rest unread, or a file cut: either way a list's rest was never sent.
        let stopped = summary.interruptedBy != nil || summary.listLeftUnread
        if stopped, let total { summary.notSent = max(0, total - summary.total) }
        let left = leftUnsent()
        // A list of unknown length (a stream): what the sender had taken but not sent, and what the list still held
        // without reading (`-d` tokens not reached, the stream's buffer) are never sent: counted, and kept for
        // --unsent, not lost (the stream itself keeps what was not read).
        let remainder: (held: [DeviceToken], readToEnd: Bool) =
            stopped && total == nil ? streamRemainder() : ([], false)
        if stopped && total == nil { summary.notSent += left.count + remainder.held.count }
        let restUnread = stopped && total == nil && !remainder.readToEnd
        renderer.restUnread = restUnread
        summary.listRestUnread = restUnread
        unsent?.noteNeverSent(remainder.held)
        // Written before the summary, which names the file; a failure to write it is said after the results.
        var unsentFailure: CLIError? = nil
        if let unsent {
            for job in left { unsent.noteNeverSent(job) }
            do throws(CLIError) {
                renderer.unsentFile = try unsent.write(stopped: stopped, in: world)
                renderer.keptUnknown = unsent.carriedCount
                interrupts?.noteForExitingAtOnce(unrecorded)
            } catch {
                unsentFailure = error
            }
        }
        // Without a summary line (`-o json`, one device, or standard output gone) the file it would have named is
        // said on stderr: it is what the user resumes from.
        let summaryShown = renderer.finish(summary) && output.failure == nil
        if !summaryShown, let file = renderer.unsentFile {
            let shown = PrintableText.escapingControls(file)
            let kept = renderer.keptUnknown
            world.standardError.print(
                summary.failed == 0 && summary.notSent == 0 && kept > 0
                    ? "\(kept == 1 ? "1 device" : "\(kept) devices") of unknown outcome kept in \(shown)\n"
                    : "unsent devices written to \(shown)\n")
        }
        for warning in clockWatch.warnings { world.standardError.warning(warning) }
        if let warning = StoppedMock.warning(settings, failures: summary.causes.map(\.failure)) {
            world.standardError.warning(warning)
        }
        output.onFailure = nil
        finished?(summary)
        let entry = recorder?.finish(
            summary, noun: noun, skippedLines: skippedLines(), listStop: listStop(), restUnread: restUnread, in: world)
        if recorder != nil { interrupts?.noteForExitingAtOnce("") }
        verboseLog?.finish(summary)
        // A real signal wins over lost output (130/143 before 74), even one that came after it.
        let signal = summary.interruptedBy.flatMap {
            $0 == InterruptSignals.outputLost ? interrupts?.receivedSignal : $0
        }
        // A device failed before its request left (the rest of a batch a --timeout failed) was not sent either.
        let notSent: Int? = total == nil && stopped ? nil : summary.notSent + summary.failedUnsent
        /// What standard output lost, with the history entry that has every result.
        func lostOutput(_ failure: OutputSink.Failure) -> String {
            // Answers that came after the reader left: sent, and said so, or the run seems to have notified fewer.
            // Quiet text output has a line for rejected and failed targets only.
            let quiet = settings.isOn(.quiet) && format == .text
            let printable = (quiet ? summary.rejected + summary.failed : summary.total) - summary.failedUnsent
            let unprinted = max(0, printable - failure.linesWritten)
            return SendOutput.lostOutputMessage(failure, notSent: notSent, noun: noun)
                + SendOutput.unprintedNote(unprinted, noun: noun, entry: entry)
        }
        if let signal {
            unsentFailure?.report(to: world.standardError)
            // The signal's exit status wins, but what standard output lost is still said: its line would otherwise
            // call results final that were never written.
            if let failure = output.failure { world.standardError.error(lostOutput(failure)) }
            summary.interruptedBy = signal
            throw .interrupted(
                signal: signal,
                message: SendOutput.interruptMessage(
                    summary, restUnknown: restUnread, resultsWritten: output.failure == nil))
        }
        if let failure = output.failure {
            unsentFailure?.report(to: world.standardError)
            // Exit 74 wins over 69, but a device that may have been notified is still said, as without it.
            if summary.failed > summary.failedUnsent {
                CLIError.transport(.unanswered(summary, noun: noun)).report(to: world.standardError)
            }
            throw .outputFailed(lostOutput(failure))
        }
        if let unsentFailure { throw unsentFailure }
        if summary.failed > 0 { throw .transport(.unanswered(summary, noun: noun)) }
        if summary.rejected > 0 { throw .rejected }
    }
}
