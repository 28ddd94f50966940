import APNSCore
import APNSCrypto
import APNSHTTP2
import APNSPlatform

/// The sending engine: one connection at a time carrying every request, multiplexed up to
/// min(server limit, `--concurrency`, 1000) streams.
///
/// It is a small I/O driver around `DeliveryStateMachine`, which holds every rule (what to resend,
/// when to give up, what an interrupt leaves); this class only opens connections, submits, pumps
/// bytes and translates what the HTTP/2 session saw into the machine's events. Requests are pulled
/// from the source only when a stream is free, so memory holds the requests in flight and no more.
public final class PushSender {
    private let configuration: SenderConfiguration
    private let context: TLSContext
    private let requests: RequestSource
    private let observer: ((SendEvent) -> Void)?
    /// After an interrupted `run`: the requests taken from the source that were never sent (they have no result).
    public private(set) var leftUnsent: [PushJob] = []

    /// A sender for every request `requests` yields. `observer` sees connection and request events
    /// (for `--verbose`); nil keeps the hot path free of them. Fails when the TLS settings cannot be
    /// built (an unreadable CA file, a key that does not fit the certificate).
    public init(
        configuration: SenderConfiguration, requests: RequestSource,
        observer: ((SendEvent) -> Void)? = nil
    ) throws(TransportFailure) {
        self.configuration = configuration
        self.context = try configuration.makeContext()
        self.requests = requests
        self.observer = observer
    }

    /// A sender for `request` to every device `devices` yields.
    public convenience init(
        configuration: SenderConfiguration, request: PushRequest, devices: DeviceSource,
        observer: ((SendEvent) -> Void)? = nil
    ) throws(TransportFailure) {
        try self.init(
            configuration: configuration, requests: DevicePushSource(request, devices: devices), observer: observer)
    }

    /// Sends every request, calling `onResult` once per target as answers arrive (not in input order).
    /// With `interrupts`, SIGINT/SIGTERM stop new requests and give those in flight a grace period
    /// (the summary's `interruptedBy` says it happened; targets never sent get no result).
    /// SIGPIPE is ignored from here on (process-wide, `ProcessSignals` says why): a server that resets
    /// the connection must cost an EPIPE, not the process.
    public func run(interrupts: (any InterruptSource)? = nil, _ onResult: (PushResult) -> Void) -> SendSummary {
        ProcessSignals.ignoreBrokenPipe()
        var machine = DeliveryStateMachine<PushJob, HTTPResponse>(policy: configuration.policy)
        var summary = SendSummary()
        // Open connections by the machine's number, oldest first (up to three: one draining after GOAWAY,
        // one sending, a spare), and those being opened on threads of their own meanwhile.
        var open: [(id: Int, connection: PushConnection)] = []
        var opening: [BackgroundConnect] = []
        let interruptFD = interrupts?.fd

        func interrupted(_ now: UInt64) {
            let signal = interrupts?.take() ?? ProcessSignals.interrupt
            machine.interrupted(signal: signal, now: now)
            observer?(.interrupted(signal: signal, inFlight: machine.inFlightCount))
        }

        // The session of the newest connection that had one: the next connection resumes it, skipping the
        // certificates on both sides (a GOAWAY every N requests costs a handshake each time).
        var lastSession: TLSSession? = nil
        func sessionToResume() -> TLSSession? {
            if let newest = open.last?.connection.resumableSession { lastSession = newest }
            return lastSession
        }

        func drop(_ id: Int) {
            opening.removeAll { $0.id == id }  // abandoned: its thread finishes and closes what it opened
            guard let i = open.firstIndex(where: { $0.id == id }) else { return }
            if let session = open[i].connection.resumableSession { lastSession = session }
            open[i].connection.close()
            open.remove(at: i)
        }

        func opened(_ id: Int, _ outcome: Result<PushConnection, TransportFailure>) {
            let now = SystemClock.monotonicNanoseconds()
            switch outcome {
            case .success(let connection):
                open.append((id, connection))
                machine.connected(id, now: now)
                observer?(.connected(connection.info))
            case .failure(let error):
                observer?(.connectFailed(error))
                machine.connectFailed(id, error, now: now)
            }
        }

        /// Hands over the connections opened in the background since the last look.
        func collectOpened() {
            guard !opening.isEmpty else { return }
            for job in opening {
                guard let outcome = job.take() else { continue }
                opening.removeAll { $0 === job }
                opened(job.id, outcome)
            }
        }

        func handle(_ outcome: PushConnection.Outcome, on id: Int, _ live: PushConnection, now: UInt64) {
            switch outcome {
            case .progressed, .timedOut: break
            case .writeFailed:
                observer?(.writeFailed)
                machine.writeFailed(id)
            case .interrupted:
                interrupted(now)
            case .ended(let end):
                if let observer {
                    let (written, unwritten) = machine.unanswered(on: id)
                    let resendUnknown = configuration.resendUnknown
                    observer(
                        .connectionLost(
                            end, answered: machine.answered(on: id),
                            resent: unwritten + (resendUnknown ? written : 0), unknown: resendUnknown ? 0 : written))
                }
                machine.connectionEnded(id, end, now: now)
                drop(id)
            }
        }

        /// Pumps the open connections until `deadline`, a signal, or one of `wakeFDs` readable (besides the
        /// connections being opened), then hands the machine what happened.
        func serve(until deadline: UInt64, wakingFor wakeFDs: [Int32]) {
            if open.isEmpty {
                // A backoff before the next connection, or one opening: sleep, but wake for either or a signal.
                if sleep(until: deadline, interruptFD: interruptFD, wakeFDs: opening.map(\.fd) + wakeFDs) {
                    interrupted(SystemClock.monotonicNanoseconds())
                }
            } else if open.count == 1 && opening.isEmpty && wakeFDs.isEmpty {
                let (id, live) = open[0]
                let outcome = live.pump(deadline: deadline, interruptFD: interruptFD)
                deliverEvents(from: live, id: id, to: &machine)
                handle(outcome, on: id, live, now: SystemClock.monotonicNanoseconds())
            } else {
                let connections = open
                let outcomes = PushConnection.pump(
                    connections.map(\.connection), deadline: deadline, interruptFD: interruptFD,
                    wakeFDs: opening.map(\.fd) + wakeFDs)
                for (id, live) in connections { deliverEvents(from: live, id: id, to: &machine) }
                let after = SystemClock.monotonicNanoseconds()
                if let outcomes {
                    for (i, (id, live)) in connections.enumerated() {
                        handle(outcomes[i], on: id, live, now: after)
                    }
                } else {
                    interrupted(after)
                }
            }
            collectOpened()
            machine.tick(now: SystemClock.monotonicNanoseconds())
        }

        while true {
            interrupts?.owedResults = machine.owedReports
            let now = SystemClock.monotonicNanoseconds()
            switch machine.nextAction(now: now) {
            case .connect(let id):
                summary.connections = id
                observer?(.connecting(configuration.endpoint, attempt: id))
                let session = sessionToResume()
                // With streams moving on another connection, open this one beside them, not in their way.
                if !open.isEmpty,
                    let job = BackgroundConnect.start(
                        id: id, endpoint: configuration.endpoint,
                        proxy: configuration.proxy, context: context, resuming: session,
                        timeout: configuration.timeout, using: configuration.nameLookup)
                {
                    opening.append(job)
                    continue
                }
                do {
                    let connection = try PushConnection.open(
                        endpoint: configuration.endpoint, proxy: configuration.proxy,
                        context: context, resuming: session, timeout: configuration.timeout,
                        interruptFD: interruptFD, using: configuration.nameLookup)
                    opened(id, .success(connection))
                } catch .interrupted {
                    interrupted(SystemClock.monotonicNanoseconds())
                    machine.connectAbandoned(id)
                } catch {
                    opened(id, .failure(error))
                }

            case .pull:
                // A list with nothing to read yet (a pipe whose writer is slow): the connections are served while
                // it waits, so what was queued is written, answers are read, and a signal is seen. Waiting in the
                // read instead held each push back until the next line came, and its answer unread. A deadline
                // that passed since the last wait (a `--timeout`) is enforced and the next step decided afresh (its
                // results first); should one still be past, the wait is a millisecond, never a read that blocks.
                if let input = requests.descriptorToWaitFor() {
                    configuration.whileWaitingForInput?()
                    let deadline = machine.nextDeadline(now: now)
                    if deadline > now {
                        serve(until: deadline, wakingFor: [input])
                    } else {
                        machine.tick(now: now)
                        if machine.nextDeadline(now: now) <= now { serve(until: now &+ 1_000_000, wakingFor: [input]) }
                    }
                    continue
                }
                machine.pulled(requests.next())

            case .submit(let job, let id):
                guard let live = open.first(where: { $0.id == id })?.connection else {
                    machine.submitRefused(id)
                    continue
                }
                // The token as of now, resends included: after a new one, none goes out with the old.
                let request = configuration.tokenRenewal?.renewing(job.request) ?? job.request
                do {
                    let stream = try live.submit(request)
                    machine.submitted(id, streamID: stream, now: SystemClock.monotonicNanoseconds())
                    observer?(.request(job.target, request, authority: configuration.endpoint.authority))
                } catch {
                    machine.submitRefused(id)
                }

            case .report(let job, let report, let sends, let resentAfterUnknown):
                var result: PushResult
                switch report {
                case .answered(let response, let ns):
                    result = PushResult(
                        target: job.target, response: response, durationMs: Double(ns) / 1e6,
                        sentRequestID: job.sentRequestID)
                case .failed(let failure, let ns):
                    result = PushResult(
                        target: job.target, failure: failure, durationMs: Double(ns) / 1e6,
                        sentRequestID: job.sentRequestID)
                }
                result.attempts = sends
                result.resentAfterUnknown = resentAfterUnknown
                result.inputPosition = job.position
                if let environment = configuration.environment {
                    result.environment = environment
                    result.endpoint = configuration.endpoint
                }
                summary.count(result)
                onResult(result)

            case .wait(let deadline):
                serve(until: deadline, wakingFor: [])

            case .close(let id):
                drop(id)

            case .finish:
                for (id, _) in open { drop(id) }
                interrupts?.owedResults = 0
                leftUnsent = machine.leftUnsent
                summary.failure = machine.firstFailure
                summary.resendsUnknown = configuration.resendUnknown
                summary.interruptedBy = machine.interruptedBy
                summary.listLeftUnread = machine.leftSourceUnread
                return summary
            }
        }
    }

    /// Waits until `deadline` (monotonic ns) or one of `wakeFDs` is readable; true when a signal arrived.
    private func sleep(until deadline: UInt64, interruptFD: Int32?, wakeFDs: [Int32]) -> Bool {
        guard deadline > SystemClock.monotonicNanoseconds() else { return false }
        var poller = PollSet()
        for fd in wakeFDs { poller.add(fd, .readable) }
        return poller.wait(until: deadline, interrupt: interruptFD) == .interrupted
    }

    /// Turns what the HTTP/2 session of connection `id` recorded into the machine's events, in the order
    /// it happened: requests completely written first (they were written before anything was read).
    private func deliverEvents(
        from connection: PushConnection, id: Int, to machine: inout DeliveryStateMachine<PushJob, HTTPResponse>
    ) {
        for stream in connection.takeWrittenRequests() { machine.requestWritten(id, streamID: stream) }
        if let limit = connection.takeStreamLimitChange() {
            machine.settingsReceived(id, maxConcurrentStreams: limit)
            observer?(.serverSettings(maxConcurrentStreams: limit))
        }
        let events = connection.takeEvents()
        guard !events.isEmpty else { return }
        let now = SystemClock.monotonicNanoseconds()
        for event in events {
            switch event {
            case .response(let stream, let response):
                if let observer, let job = machine.job(onStream: stream, connection: id) {
                    observer(
                        .response(
                            job.target, response,
                            durationMs: machine.elapsedMs(onStream: stream, connection: id, now: now)))
                }
                machine.answered(id, streamID: stream, response, now: now)
            case .unanswered(let stream, let code):
                machine.streamReset(id, streamID: stream, errorCode: code, now: now)
            case .goAway(let g):
                let notice = GoAwayNotice(g)
                observer?(.goAway(lastStreamID: g.lastStreamID, notice))
                machine.goAwayReceived(id, lastStreamID: g.lastStreamID, notice)
            }
        }
    }
}
