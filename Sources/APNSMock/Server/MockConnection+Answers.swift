import APNSCore
import APNSHTTP2
import APNSPlatform

extension MockConnection {
    /// Hands complete requests to the machine, which says which to judge and answer.
    func answer(_ requests: [HTTP2ServerRequest], context: LoopContext) {
        guard !requests.isEmpty else { return }
        let now = SystemClock.monotonicNanoseconds()
        for request in requests {
            var decision: MockDecision?
            let actions = machine.requestComplete(streamID: request.streamID, isHead: Self.isHead(request), now: now) {
                let d =
                    BroadcastChecker.handles(request)
                    ? shared.broadcastChecker.check(request, auth: &auth, now: context.nowSeconds, ids: &context.ids)
                    : shared.checker.check(request, auth: &auth, now: context.nowSeconds, ids: &context.ids)
                decision = d
                return Machine.Verdict(reason: d.reason, firstTokenAccepted: d.firstTokenAccepted)
            }
            apply(actions, request: request, decision: decision, context: context)
        }
    }

    /// Carries out the machine's actions on the socket, the session and the log.
    func apply(
        _ actions: [Machine.Action], request: HTTP2ServerRequest? = nil, decision: MockDecision? = nil,
        context: LoopContext
    ) {
        for action in actions {
            switch action {
            case .startHTTP2(let settings):
                do { session = try HTTP2ServerSession(settings: settings) } catch {
                    apply(machine.connectionFailed(), context: context)
                }
            case .speakHTTP1:
                http1 = HTTP1VersionRefusal()
            case .logReceived:
                if let request { context.log.recordReceived(request, connection: number) }
            case .answer(let stream, let withBody):
                guard let decision, let session else { continue }
                respond(decision, on: stream, session: session, context: context, withBody: withBody)
                context.log.record(decision, connection: number)
                if let onAnswer = context.onAnswer {
                    onAnswer(
                        MockAnswer(
                            connection: number, streamID: stream, device: decision.device,
                            status: decision.status, reason: decision.reason, apnsID: decision.apnsID))
                }
            case .raiseStreamLimit(let limit):
                try? session?.setMaxConcurrentStreams(limit)
            case .goAway(let last, let debugData):
                // The answers already queued go out before the GOAWAY: nghttp2 sends control frames ahead of queued
                // DATA, and a client such as python's h2 drops an answer whose body comes after a GOAWAY.
                if let session, !outputSealed { _ = try? session.prepareOutput(upTo: Int.max) }
                session?.goAway(lastStreamID: last, code: .noError, debugData: debugData)
            case .http1Error:
                http1?.queueAnswer()
            case .close(let mode):
                guard mode != .graceful else { continue }
                // Whatever answers are queued go out; the session produces nothing after them.
                if let session, !outputSealed { _ = try? session.prepareOutput(upTo: Int.max) }
                outputSealed = true
                if mode == .reset || mode == .endOfFile {
                    terminalDeadline = SystemClock.monotonicNanoseconds() + Self.terminalWaitMilliseconds * 1_000_000
                }
            case .closeAtOnce:
                end()
            }
        }
    }

    /// Whether `request` is a HEAD, whose answer must have no body (END_STREAM on HEADERS), or curl and other
    /// clients see a PROTOCOL_ERROR.
    static func isHead(_ request: HTTP2ServerRequest) -> Bool {
        request.headers.contains { $0.name == ":method" && $0.value == "HEAD" }
    }

    /// Queues the answer frames for `decision`: HEADERS only for 200 (and for a HEAD), HEADERS + JSON DATA for errors.
    private func respond(
        _ d: MockDecision, on stream: Int32, session: HTTP2ServerSession, context: LoopContext,
        withBody: Bool
    ) {
        var headers: [HeaderField] = []
        if d.reason != nil || !d.body.isEmpty {
            headers.append(HeaderField(APNSHeader.contentType.name, "application/json"))
        }
        if let b = d.broadcast {
            headers += b.responseHeaders
        } else {
            headers.append(HeaderField(APNSHeader.id.name, d.apnsID, neverIndex: true))
        }
        // The Push Notifications Console id exists in the sandbox only (and not for channel management).
        if shared.configuration.rules.environment == .sandbox, d.broadcast.map({ $0.operation == .broadcast }) ?? true {
            headers.append(HeaderField(APNSHeader.uniqueID.name, context.ids.uuid(uppercase: false), neverIndex: true))
        }
        do {
            try session.respond(streamID: stream, status: d.status, headers: headers, body: withBody ? d.body : [])
        } catch {
            // The stream was reset by the client meanwhile: nothing to answer.
        }
    }
}
