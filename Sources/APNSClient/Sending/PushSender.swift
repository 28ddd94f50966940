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

    /// A sender for every request `requests` yields. `observer` sees connection and request events
    /// (for `--verbose`); nil keeps the hot path free of them. Fails when the TLS settings cannot be
    /// built (an unreadable CA file, a key that does not fit the certificate).
    public init(configuration: SenderConfiguration, requests: RequestSource,
                observer: ((SendEvent) -> Void)? = nil) throws(TransportFailure) {
        self.configuration = configuration
        self.context = try configuration.makeContext()
        self.requests = requests
        self.observer = observer
    }

    /// A sender for `request` to every device `devices` yields.
    public convenience init(configuration: SenderConfiguration, request: PushRequest, devices: DeviceSource,
                            observer: ((SendEvent) -> Void)? = nil) throws(TransportFailure) {
        try self.init(configuration: configuration, requests: DevicePushSource(request, devices: devices), observer: observer)
    }

    /// Sends every request, calling `onResult` once per target as answers arrive (not in input order).
    /// With `interrupts`, SIGINT/SIGTERM stop new requests and give those in flight a grace period
    /// (the summary's `interruptedBy` says it happened; targets never sent get no result).
    /// SIGPIPE is ignored from here on (process-wide, `ProcessSignals` says why): a server that resets
    /// the connection must cost an EPIPE, not the process.
    public func run(interrupts: InterruptSignals? = nil, _ onResult: (PushResult) -> Void) -> SendSummary {
        ProcessSignals.ignoreBrokenPipe()
        let source = requests
        var machine = DeliveryStateMachine<PushJob, APNSResponse>(policy: configuration.policy, source: { source.next() })
        var summary = SendSummary()
        var connection: PushConnection? = nil
        let interruptFD = interrupts?.fd

        func interrupted(_ now: UInt64) {
            let signal = interrupts?.take() ?? SIGINT
            machine.interrupted(signal: signal, now: now)
            observer?(.interrupted(signal: signal, inFlight: machine.inFlightCount))
        }

        while true {
            let now = SystemClock.monotonicNanoseconds()
            switch machine.nextAction(now: now) {
            case .connect(let attempt):
                summary.connections = attempt
                observer?(.connecting(configuration.endpoint, attempt: attempt))
                do {
                    let opened = try PushConnection.open(endpoint: configuration.endpoint, proxy: configuration.proxy, context: context,
                                                         timeout: configuration.timeout, interruptFD: interruptFD)
                    connection = opened
                    machine.connected(now: SystemClock.monotonicNanoseconds())
                    observer?(.connected(opened.info))
                } catch .interrupted {
                    interrupted(SystemClock.monotonicNanoseconds())
                    machine.connectAbandoned()
                } catch {
                    observer?(.connectFailed(error))
                    machine.connectFailed(error, now: SystemClock.monotonicNanoseconds())
                }

            case .submit(let job):
                guard let live = connection else { machine.submitRefused(); continue }
                do {
                    let id = try live.submit(job.request)
                    machine.submitted(streamID: id, now: SystemClock.monotonicNanoseconds())
                    observer?(.request(job.target, job.request, authority: configuration.endpoint.authority))
                } catch {
                    machine.submitRefused()
                }

            case .report(let job, let report):
                var result: PushResult
                switch report {
                case .answered(let response, let ns):
                    result = PushResult(target: job.target, response: response, durationMs: Double(ns) / 1e6,
                                        sentRequestID: job.sentRequestID)
                case .failed(let failure, let ns):
                    result = PushResult(target: job.target, failure: failure, durationMs: Double(ns) / 1e6,
                                        sentRequestID: job.sentRequestID)
                }
                if let environment = configuration.environment {
                    result.environment = environment
                    result.endpoint = configuration.endpoint
                }
                summary.count(result)
                onResult(result)

            case .wait(let deadline):
                guard let live = connection else { machine.tick(now: now); continue }
                let outcome = live.pump(deadline: deadline, interruptFD: interruptFD)
                deliverEvents(from: live, to: &machine)
                let after = SystemClock.monotonicNanoseconds()
                switch outcome {
                case .progressed, .timedOut: break
                case .writeFailed:
                    observer?(.writeFailed)
                    machine.writeFailed()
                case .interrupted:
                    interrupted(after)
                case .ended(let end):
                    observer?(.connectionLost(end.description(afterGoAway: nil), answered: machine.answeredOnConnection,
                                              unanswered: machine.inFlightCount))
                    machine.connectionEnded(end, now: after)
                    live.close()
                    connection = nil
                }
                machine.tick(now: after)

            case .close:
                connection?.close()
                connection = nil

            case .finish:
                connection?.close()
                summary.failure = machine.firstFailure
                summary.interruptedBy = machine.interruptedBy
                return summary
            }
        }
    }

    /// Turns what the HTTP/2 session recorded into the machine's events, in the order it happened.
    private func deliverEvents(from connection: PushConnection, to machine: inout DeliveryStateMachine<PushJob, APNSResponse>) {
        if let limit = connection.takeStreamLimitChange() {
            machine.settingsReceived(maxConcurrentStreams: limit)
            observer?(.serverSettings(maxConcurrentStreams: limit))
        }
        let events = connection.takeEvents()
        guard !events.isEmpty else { return }
        let now = SystemClock.monotonicNanoseconds()
        for event in events {
            switch event {
            case .response(let id, let r):
                let response = APNSResponse(status: r.status, headers: r.headers, body: r.body)
                if let observer, let job = machine.job(onStream: id) {
                    observer(.response(job.target, response, durationMs: machine.elapsedMs(onStream: id, now: now)))
                }
                machine.answered(streamID: id, response, now: now)
            case .unanswered(let id, let code):
                machine.streamReset(streamID: id, errorCode: code, now: now)
            case .goAway(let g):
                let reason = APNSErrorBody.explanation(of: g.debugData)
                observer?(.goAway(lastStreamID: g.lastStreamID, errorName: g.errorName, reason: reason))
                machine.goAwayReceived(lastStreamID: g.lastStreamID,
                                       note: "GOAWAY \(g.errorName)" + (reason.map { ": " + $0 } ?? ""))
            }
        }
    }
}
