import APNSClient
import APNSCore
import APNSHistory
import APNSPlatform

/// A history entry's results as `send` printed them: each one made back into the `PushResult` it was recorded
/// from (the answer's status, ids and body, or the failure's message), so `history show` prints them with
/// `send`'s own text lines and JSON objects.
struct RecordedResults {
    let entry: HistoryEntry
    let environment: APNSEnvironment
    let endpoint: PushEndpoint
    let pushType: PushType?

    init(_ entry: HistoryEntry) {
        self.entry = entry
        environment = APNSEnvironment(userValue: entry.environment) ?? .sandbox
        let first = entry.endpoints.first.map { text in
            text.firstIndex(of: "=").map { String(text[text.index(after: $0)...]) } ?? text
        }
        endpoint = first.flatMap { try? PushEndpoint(url: $0) } ?? PushEndpoint(environment: environment)
        pushType = entry.pushType.flatMap(PushType.init(rawValue:))
    }

    /// The summary the results add up to (`counted`, each made back by `result`), as the send's last line said it.
    func summary(counted: SendSummary) -> SendSummary {
        var summary = counted
        if entry.interrupted {
            summary.interruptedBy = entry.outputLost ? InterruptSignals.outputLost : ProcessSignals.interrupt
            summary.notSent = entry.counts.withoutResult
        } else if entry.counts.withoutResult > 0 {
            // A stream given up on: the devices read but never taken have no result, as an interrupt's.
            summary.listLeftUnread = true
            summary.notSent = entry.counts.withoutResult
        }
        return summary
    }

    /// One recorded result as the client would have made it.
    func result(_ r: HistoryResult) -> PushResult {
        let target: PushTarget =
            entry.kind == .broadcast
            ? .channel(r.target) : DeviceToken(plainHex: r.target).map { .device($0) } ?? .channel(r.target)
        var made: PushResult
        if let status = r.status {
            var headers: [HeaderField] = []
            if let id = r.apnsID { headers.append(HeaderField(APNSHeader.id.name, id)) }
            if let id = r.apnsUniqueID { headers.append(HeaderField(APNSHeader.uniqueID.name, id)) }
            if let id = r.apnsRequestID { headers.append(HeaderField(APNSHeader.requestID.name, id)) }
            made = PushResult(
                target: target, response: HTTPResponse(status: status, headers: headers, body: r.body),
                durationMs: r.durationMs)
        } else {
            made = PushResult(
                target: target,
                failure: .recorded(r.error ?? "no answer", unknownOutcome: r.unknownOutcome),
                durationMs: r.durationMs, sentRequestID: r.apnsRequestID)
        }
        made.attempts = r.attempts
        made.environment = r.environment.flatMap(APNSEnvironment.init(userValue:))
        made.endpoint = r.endpoint.flatMap { try? PushEndpoint(url: $0) }
        made.badDeviceTokenIn = r.badDeviceTokenIn.flatMap(APNSEnvironment.init(userValue:))
        return made
    }
}
