import APNSCore
import APNSHTTP2

extension MockConnection {
    /// Judges and answers complete requests, applying this connection's faults and `errorCloseAfter`.
    func answer(_ requests: [HTTP2ServerRequest], context: LoopContext) {
        guard !requests.isEmpty, let session else { return }
        firstRequestDeadline = nil
        let faults = faulty ? shared.configuration.faults : MockFaults.none
        for (index, request) in requests.enumerated() {
            // The reset and EOF faults answer nothing after their Nth answer.
            guard phase == .http2 else { return }
            // Above our GOAWAY's last-stream-id: not processed (the GOAWAY tells the client to send it elsewhere).
            if let last = goAwayLastStream, request.streamID > last { continue }
            context.log.recordReceived(request, connection: number)
            if faults.neverAnswer { continue }
            if let limit = faults.dropUnansweredAfter, answered >= limit {
                // Received, maybe processed, never answered: the rest of what arrived too, then a reset.
                for later in requests.dropFirst(index + 1) { context.log.recordReceived(later, connection: number) }
                endAfterAnswers(.reset)
                return
            }
            if let limit = faults.closeAfterRequests, answered >= limit {
                // The close fault: the connection dies under this request, with no GOAWAY and no answer;
                // the answers already given still go out first.
                session.produceOutput(into: &out, limit: Int.max)
                beginClosing(.abrupt)
                return
            }
            let decision = BroadcastChecker.handles(request)
                ? shared.broadcastChecker.check(request, auth: &auth, now: context.nowSeconds, ids: &context.ids)
                : shared.checker.check(request, auth: &auth, now: context.nowSeconds, ids: &context.ids)
            respond(decision, on: request.streamID, session: session, context: context,
                    withoutBody: decision.reason == .methodNotAllowed && Self.isHead(request))
            answered += 1
            context.log.record(decision, connection: number)
            if let onAnswer = context.onAnswer {
                onAnswer(MockAnswer(connection: number, streamID: request.streamID, device: decision.device,
                                    status: decision.status, reason: decision.reason, apnsID: decision.apnsID))
            }
            if decision.firstTokenAccepted { try? session.setMaxConcurrentStreams(shared.configuration.maxConcurrentStreams) }
            if goAwayLastStream == nil {
                if let n = faults.goAwayAfterStreams, answered == n {
                    sendFaultGoAway(lastStream: request.streamID)
                } else if let reason = decision.reason, let n = shared.configuration.errorCloseAfter, reason.status != 410 {
                    // APNs closes connections that keep making errors, sooner after BadDeviceToken; 410s do not count.
                    errorWeight += reason == .badDeviceToken ? n : 1
                    if errorWeight >= n { sendGoAway(lastStream: request.streamID, reason: reason) }
                }
            }
            if let mode = faults.terminalClose(afterAnswers: answered) {
                endAfterAnswers(mode)
                return
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
        var headers: [HeaderField] = []
        if d.reason != nil || !d.body.isEmpty { headers.append(HeaderField(APNSHeader.contentType.name, "application/json")) }
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
            try session.respond(streamID: stream, status: d.status, headers: headers, body: withoutBody ? [] : d.body)
        } catch {
            // The stream was reset by the client meanwhile: nothing to answer.
        }
    }

    /// GOAWAY (NO_ERROR, `{"reason":…}`) naming `lastStream` (the GOAWAY fault, and `errorCloseAfter`). Reading
    /// goes on, as on a real server: streams up to it are still answered as they complete; once the GOAWAY is
    /// sent, nghttp2 closes the open streams above it without a frame (RFC 9113 §6.8: the client resends them
    /// elsewhere) and ignores new ones; when nothing is left the connection ends with close_notify.
    func sendGoAway(lastStream: Int32, reason: APNSReason) {
        sendGoAway(lastStream: lastStream, debugData: Self.goAwayData(reason))
    }

    /// The GOAWAY fault's: `{"reason":"Shutdown"}`, or the configured debug text.
    func sendFaultGoAway(lastStream: Int32) {
        let text = shared.configuration.faults.goAwayDebugText
        sendGoAway(lastStream: lastStream, debugData: text.map { Array($0.utf8) } ?? Self.goAwayData(.shutdown))
    }

    private func sendGoAway(lastStream: Int32, debugData: [UInt8]) {
        goAwayLastStream = lastStream
        session?.goAway(lastStreamID: lastStream, code: .noError, debugData: debugData)
    }

    /// GOAWAY debug data as APNs documents it: `{"reason":"Shutdown"}`.
    static func goAwayData(_ reason: APNSReason) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("reason", reason.rawValue)
        w.endObject()
        return w.bytes
    }
}
