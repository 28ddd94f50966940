import APNSCore
import APNSHTTP2

extension MockConnection {
    /// Judges and answers complete requests, applying this connection's faults.
    func answer(_ requests: [HTTP2ServerRequest], context: LoopContext) {
        guard !requests.isEmpty, let session else { return }
        firstRequestDeadline = nil
        let faults = faulty ? shared.configuration.faults : MockFaults.none
        for request in requests {
            if faults.neverAnswer { continue }
            if let last = goAwayLastStream, request.streamID > last { continue }
            if let limit = faults.closeAfterRequests, answered >= limit {
                // The close fault: the connection dies under this request, with no GOAWAY and no answer;
                // the answers already given still go out first.
                session.produceOutput(into: &out, limit: Int.max)
                beginClosing(abrupt: true)
                return
            }
            let decision = BroadcastChecker.handles(request)
                ? shared.broadcastChecker.check(request, auth: &auth, now: context.nowSeconds, ids: &context.ids)
                : shared.checker.check(request, auth: &auth, now: context.nowSeconds, ids: &context.ids)
            respond(decision, on: request.streamID, session: session, context: context,
                    withoutBody: decision.reason == .methodNotAllowed && Self.isHead(request))
            answered += 1
            context.log.record(decision, connection: number)
            if decision.firstTokenAccepted { try? session.setMaxConcurrentStreams(shared.configuration.maxConcurrentStreams) }
            if let n = faults.goAwayAfterStreams, answered == n, goAwayLastStream == nil {
                sendFaultGoAway(lastStream: request.streamID)
            }
        }
    }

    /// Whether `request` is a HEAD, whose answer must have no body (END_STREAM on HEADERS), or curl and other
    /// clients see a PROTOCOL_ERROR.
    static func isHead(_ request: HTTP2ServerRequest) -> Bool {
        request.headers.contains { $0.name == ":method" && $0.value == "HEAD" }
    }

    /// Queues the answer frames for `decision`: HEADERS only for 200 (and for a HEAD), HEADERS + JSON DATA for errors.
    private func respond(_ d: MockDecision, on stream: Int32, session: HTTP2ServerSession, context: LoopContext,
                         withoutBody: Bool) {
        var headers: [HTTP2Header] = []
        if d.reason != nil || !d.body.isEmpty { headers.append(HTTP2Header("content-type", "application/json")) }
        if let b = d.broadcast {
            headers += b.responseHeaders
        } else {
            headers.append(HTTP2Header("apns-id", d.apnsID, neverIndex: true))
        }
        // The Push Notifications Console id exists in the sandbox only (and not for channel management).
        if shared.configuration.rules.environment == .sandbox, d.broadcast.map({ $0.operation == .broadcast }) ?? true {
            headers.append(HTTP2Header("apns-unique-id", context.ids.uuid(uppercase: false), neverIndex: true))
        }
        do {
            try session.respond(streamID: stream, status: d.status, headers: headers, body: withoutBody ? [] : d.body)
        } catch {
            // The stream was reset by the client meanwhile: nothing to answer.
        }
    }

    /// The GOAWAY fault: NO_ERROR with `{"reason":"Shutdown"}` and `lastStream` as last-stream-id.
    func sendFaultGoAway(lastStream: Int32) {
        goAwayLastStream = lastStream
        session?.goAway(lastStreamID: lastStream, code: .noError, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))
    }
}
