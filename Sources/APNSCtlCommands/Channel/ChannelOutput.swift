import APNSClient
import APNSCore
import APNSPlatform
import APNSSettings

/// Renders `apnsctl channel` results. Text: data on stdout (the new id, the ids, the channel's settings),
/// the `apns-request-id` on stderr, a rejection as one `error:` line with reason, meaning and hint (so
/// `ID=$(apnsctl channel create …)` never captures it). JSON: one object per line on stdout, with
/// `"apns_request_id"`, and for a rejection the reason's `"meaning"` and `"hint"` (null otherwise), so a
/// script reads the same explanation a user sees.
struct ChannelOutput {
    let format: OutputFormat
    private let out: OutputSink
    private let messages: MessageStream

    /// Results on the world's standard output, request ids and rejections on its standard error.
    init(format: OutputFormat, in world: CommandWorld) {
        self.format = format
        out = world.standardOutput
        messages = world.standardError
    }

    /// Reports a rejection (`-o json`: its object, with the fields `fill` adds as a success has them, null or
    /// false, so every object of one command has the same keys) and throws exit 1; returns for a success.
    func check(
        _ r: PushResult, operation: String, _ fill: (inout JSONWriter) -> Void = { _ in },
        after: (inout JSONWriter) -> Void = { _ in }
    ) throws(CLIError) {
        guard r.outcome == .rejected else { return }
        if format == .json {
            line(channel: r.target.text.isEmpty ? nil : r.target.text, result: r, fill, after: after)
            flush()
        } else {
            showRequestID(r)
            // A page that is not APNs' is quoted once, by the explanation.
            let reason = r.reason.map { " " + $0.text } ?? ""
            messages.error("channel \(operation): rejected \(r.status ?? 0)\(reason): \(SendOutput.explanation(r))")
        }
        throw .rejected
    }

    /// The JSON object of `request`, which got no answer (`result`): the keys `fill` and `after` add as for an
    /// answer, then `"delivery":"unknown"` when a create or delete may have been carried out (a read changes
    /// nothing) and the `"error"`, as `send`'s.
    func unanswered(
        _ result: PushResult, of request: ChannelRequest, _ fill: (inout JSONWriter) -> Void,
        after: (inout JSONWriter) -> Void = { _ in }
    ) {
        line(channel: request.channel, result: result, fill) { w in
            after(&w)
            let changes =
                if case .create = request.operation { true } else if case .delete = request.operation { true } else {
                    false
                }
            if changes && result.failure?.isUnknownOutcome == true { w.field("delivery", "unknown") }
            w.field("error", TransportProblem.channelFailure(result.failure, request.operation))
        }
    }

    /// `apns-request-id: …` on stderr: in text mode, or `always` when no JSON object carries the id.
    func showRequestID(_ r: PushResult, always: Bool = false) {
        if format == .text || always, let id = r.apnsRequestID {
            messages.print("apns-request-id: \(PrintableText.escapingControls(id))\n")
        }
    }

    /// Writes one text line on stdout, escaped (it quotes the server's ids and settings).
    func text(_ text: String) { out.line(PrintableText.escapingControls(text)) }

    /// The JSON object of an answer that is not the one the request needs (`problem`: a create's 201 without
    /// the new id, a list without its list), with the keys an answer's has, then its `"error"`.
    func unusable(
        _ r: PushResult, problem: TransportProblem, _ fill: (inout JSONWriter) -> Void,
        after: (inout JSONWriter) -> Void = { _ in }
    ) {
        line(channel: r.target.text.isEmpty ? nil : r.target.text, result: r, fill) { w in
            after(&w)
            w.field("error", problem.message)
        }
        flush()
    }

    /// One JSON object: `channel`, the fields `fill` adds, `status`, `reason`, `meaning`, `hint`,
    /// `apns_request_id`, then the fields `after` adds (`list_request_id`), and `body` for an answer that is not
    /// APNs' (`reason` holds only an APNs reason, as `send`'s).
    func line(
        channel: String?, result: PushResult, _ fill: (inout JSONWriter) -> Void,
        after: (inout JSONWriter) -> Void = { _ in }
    ) {
        var w = JSONWriter()
        w.beginObject()
        w.field("channel", channel)
        fill(&w)
        w.field("status", result.status)
        w.field("reason", result.reason?.text)
        var meaning: String? = nil
        var hint: String? = nil
        if result.outcome == .rejected {
            switch result.reason {
            case .known(let known)?:
                (meaning, hint) = (known.meaning, known.hint(broadcast: true))
            case nil where result.isSuccessNotFromAPNs || result.bodyText != nil:
                (meaning, hint) = (SendOutput.notFromAPNs(result), SendOutput.endpointHint(result))
            case .unknown?, nil:
                meaning = SendOutput.explanation(result)
            }
        }
        w.field("meaning", meaning)
        w.field("hint", hint)
        w.field("apns_request_id", result.apnsRequestID)
        after(&w)
        if let body = result.bodyText { w.field("body", body) }
        w.endObject()
        out.line(w.text)
    }

    /// Writes everything buffered.
    func flush() { out.flush() }

    /// Writes everything buffered; a failed write is exit 74 saying what APNs already did, which the lost line
    /// was the only record of (`done`: `the channel was created: ID`), on stderr.
    func finish(done: String) throws(CLIError) {
        out.flush()
        if let failure = out.failure {
            throw .outputFailed("\(failure.message); \(PrintableText.escapingControls(done))")
        }
    }
}
