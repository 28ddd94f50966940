import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// Renders `send` results on stdout: one text line or JSON object per device as answers arrive, then
/// (text, more than one device) a summary line. Output is buffered for large batches. Colour follows
/// the colour setting (CLI.md); a progress line goes to stderr only where it cannot mix with the results
/// (see `SendProgress`).
final class SendOutput {
    private let format: OutputFormat
    private let environment: APNSEnvironment
    private let endpoint: PushEndpoint
    private let out: OutputSink
    private let lineBuffered: Bool
    private let quiet: Bool
    private let colour: Bool
    private let progress: SendProgress?
    /// Said after a `TopicDisallowed` line: the topic sent and the certificate's topics, the two things to compare.
    var topicNote: String?
    /// The push type sent: a liveactivity push's token reasons explain the three token kinds.
    var pushType: PushType?
    /// Token (hex) → the device name it was given by, printed beside the token (JSON `"device_name"`).
    var deviceName: ((String) -> String?)?
    /// Where `--unsent` wrote the devices left without a final answer, named by the summary.
    var unsentFile: String?
    /// Devices of unknown outcome the resumed list held and the `--unsent` file keeps (one file as both).
    var keptUnknown = 0
    /// `--skip-invalid`: how many bad `--devices` lines were skipped (a stream's are known at its end).
    var skippedLines: () -> Int = { 0 }
    /// A streamed list stopped before its end: the summary says its rest was not read, so a count of devices
    /// never sent is not taken for the whole.
    var restUnread = false

    /// A renderer for `total` devices. `lineBuffered` flushes every line (used with `--verbose`, so
    /// results and the stderr log stay in order); `quiet` (`-q`, text) prints only rejected and
    /// failed lines and the summary. Lines go to the world's standard output; colour and the progress line
    /// follow what its streams are connected to.
    init(
        format: OutputFormat, environment: APNSEnvironment, endpoint: PushEndpoint, total: Int?,
        lineBuffered: Bool = false,
        quiet: Bool = false, color: ColorChoice = .auto, in world: CommandWorld
    ) {
        out = world.standardOutput
        self.format = format
        self.environment = environment
        self.endpoint = endpoint
        self.lineBuffered = lineBuffered
        self.quiet = quiet && format == .text
        colour = format == .text && color.enabled(fd: 1, in: world)
        progress = SendProgress.wanted(total: total, in: world) ? SendProgress(total: total, in: world) : nil
    }

    /// Prints one device's result.
    func result(_ r: PushResult) {
        switch format {
        case .text:
            if !(quiet && r.outcome == .accepted) {
                var note = ""
                if case .known(.topicDisallowed)? = r.reason, let topicNote { note = " " + topicNote }
                out.line(
                    Self.textLine(r, environment: environment, colour: colour, name: name(of: r), pushType: pushType)
                        + note)
            }
        case .json:
            out.line(
                Self.jsonLine(r, environment: environment, endpoint: endpoint, name: name(of: r), pushType: pushType))
        }
        if lineBuffered { out.flush() }
        progress?.advance(r.outcome)
    }

    /// The device name a result's token was given by, if any.
    private func name(of r: PushResult) -> String? {
        guard let deviceName, case .device(let d) = r.target else { return nil }
        return deviceName(d.hex)
    }

    /// Writes buffered lines (before something goes to stderr).
    func flush() { out.flush() }

    /// The summary line (text, more than one device, or skipped lines, which make the exit status 1 even when
    /// the one device was accepted), then everything still buffered; the progress line, if shown, is replaced by
    /// the summary, which stays on the terminal.
    /// Returns whether a summary line was printed (it names the `--unsent` file).
    @discardableResult
    func finish(_ summary: SendSummary) -> Bool {
        // One result with devices read but never sent (a stream given up on) is a batch: its count is said.
        let printed =
            format == .text
            && (summary.total > 1 || summary.interruptedBy != nil || skippedLines() > 0 || summary.notSent > 0)
        let line = Self.summaryLine(
            summary, unsentFile: unsentFile, keptUnknown: keptUnknown, skippedLines: skippedLines(),
            restUnread: restUnread)
        if printed { out.line(line) }
        out.flush()
        progress?.finish(summary: line)
        return printed || progress != nil
    }

    // MARK: - Formats (static, so tests can pin them as golden strings)

    /// `accepted  200  3f2a…9c1d  apns-id=…  sandbox  24 ms  unique-id=…`, `rejected  400  Reason  <whole token>  meaning hint`,
    /// `failed    ---  <whole token>  why`. Rejected and failed lines print the whole token: it is the
    /// one the user must act on (remove, re-register, resend).
    static func textLine(
        _ r: PushResult, environment: APNSEnvironment, colour: Bool = false, name: String? = nil,
        pushType: PushType? = nil
    ) -> String {
        // The server's reason, body and ids and the device name are kept as received: the line is escaped as a
        // whole (its colour is added after), as JSON output escapes them as JSON does.
        let named = name.map { $0 + " " } ?? ""
        let device = named + r.target.text
        switch r.outcome {
        case .accepted:
            var line = "  \(r.status ?? 200)  \(named)\(r.target.abbreviated)"
            if let id = r.apnsID { line += "  apns-id=\(id)" }
            if let id = r.apnsRequestID { line += "  apns-request-id=\(id)" }
            line +=
                "  \((r.environment ?? environment).rawValue)  \(milliseconds(r.durationMs))"
                + (r.environmentHint.map { "  " + $0 } ?? "") + attemptsNote(r)
            // Last and whole: the id Apple's Push Notifications Console delivery log looks up.
            if let id = r.apnsUniqueID { line += "  unique-id=\(id)" }
            return paint("accepted", green: true, colour) + PrintableText.escapingControls(line)
        case .rejected:
            let status = r.status.map(String.init) ?? "---"
            let why =
                r.refusedByBothEnvironments
                ? r.bothEnvironmentsRefusedText
                : explanation(r, pushType: pushType) + (r.environmentHint.map { " " + $0 } ?? "")
            // An answer without the id APNs echoes leaves only the one apnsctl sent, labelled as such.
            let idLabel = r.isSuccessNotFromAPNs ? "sent apns-request-id" : "apns-request-id"
            let line =
                "  \(status)  \(r.reasonColumn)  \(device)  \(why)"
                + (r.apnsRequestID.map { "  \(idLabel)=\($0)" } ?? "") + attemptsNote(r)
            return paint("rejected", green: false, colour) + PrintableText.escapingControls(line)
        case .failed:
            let line =
                "  ---  \(device)  \(failureText(r))"
                + (r.apnsRequestID.map { "  apns-request-id=\($0)" } ?? "")
                + (r.badDeviceTokenIn.map { "  (\($0.rawValue) had answered BadDeviceToken)" } ?? "")
                + attemptsNote(r)
            return paint("failed  ", green: false, colour) + PrintableText.escapingControls(line)
        }
    }

    /// What a rejection means and what to check, from APNSReason; unknown reasons as received.
    static func explanation(_ r: PushResult, pushType: PushType? = nil) -> String {
        let reason: APNSReason
        switch r.reason {
        case .known(let known)?:
            reason = known
        case .unknown(let raw)?:
            return "\(raw) is not a reason apnsctl knows; see Apple's \"Handling notification responses from APNs\"."
        case nil:
            if let text = r.bodyText { return notFromAPNs(r) + "; it answered: \(text)" }
            if r.isSuccessNotFromAPNs {
                let what = r.device == nil ? "apns-request-id): whether the request" : "apns-id): whether the push"
                return notFromAPNs(r) + " (no \(what) reached APNs cannot be told; " + endpointHint(r)
            }
            return "The server answered HTTP \(r.status ?? 0) without a reason; is --endpoint an APNs server?"
        }
        var meaning = reason.meaning(for: pushType)
        if let ms = r.timestamp {
            let date = ISO8601.format(epochMilliseconds: ms)
            if meaning.hasSuffix(".") { meaning.removeLast() }
            meaning += " (since \(date))."
        }
        return meaning + " " + reason.hint(for: pushType, broadcast: r.device == nil)
    }

    /// The one line an answer that is not from APNs gets (CLI.md): its status and who answered. The page itself (an
    /// HTML error page) is only in `body`, never in `meaning`.
    static func notFromAPNs(_ r: PushResult) -> String {
        r.isSuccessNotFromAPNs
            ? "\(r.status ?? 0) from a web server or proxy, not APNs"
            : "\(r.status ?? 0) from a proxy or load balancer, not APNs"
    }

    /// What to check when something other than APNs answered: the header APNs puts on every answer to a request
    /// like `r`'s is missing.
    static func endpointHint(_ r: PushResult) -> String {
        "check --endpoint and any proxy on the way: APNs answers every request with an "
            + (r.device == nil ? "apns-request-id" : "apns-id")
    }

    /// Why a device got no answer. One whose request never left (`--timeout` expired on others, or every
    /// connection ended or reset it unprocessed before giving up) says so: "no answer …" alone reads as a request
    /// waited for, which may have been delivered (a failure to connect already says nothing was sent).
    static func failureText(_ r: PushResult) -> String {
        let message = r.failure?.message ?? "no answer"
        switch r.failure {
        case .timeout?, .gaveUp?, .streamReset?: return r.wasSent ? message : "never sent: " + message
        default: return message
        }
    }

    /// ` (sent 3 times)` for a device whose request went out more than once, else empty.
    static func attemptsNote(_ r: PushResult) -> String {
        r.attempts > 1 ? " (sent \(r.attempts) times)" : ""
    }

    /// `(sent apns-topic "com.example.app"; the certificate's topics: com.example.app, …)`, PrintableText-safe.
    static func topicNote(topic: String?, identity: PushIdentity?) -> String? {
        guard let topic else { return nil }
        var note = "(sent apns-topic \(PrintableText.quoted(topic))"
        if let info = identity?.info {
            note +=
                info.topics.isEmpty
                ? "; the certificate names no topic"
                : "; the certificate's topics: " + info.topics.joined(separator: ", ")
        }
        return PrintableText.escapingControls(note + ")")
    }

    /// `24 ms`, `1.3 ms`: whole milliseconds from 10 up, one decimal below.
    static func milliseconds(_ ms: Double) -> String {
        ms >= 10 ? "\(Int(ms.rounded())) ms" : "\(Double(Int((ms * 10).rounded())) / 10) ms"
    }

    /// One JSON object with CLI.md's fields (`error` only for devices without an answer).
    static func jsonLine(
        _ r: PushResult, environment: APNSEnvironment, endpoint: PushEndpoint, name: String? = nil,
        pushType: PushType? = nil
    ) -> String {
        var w = JSONWriter(capacity: 512)
        w.beginObject()
        switch r.target {
        case .device(let d):
            w.field("device", d.hex)
            if let name { w.field("device_name", name) }
        case .channel(let c):
            w.field("channel", c)
            w.field("apns_request_id", r.apnsRequestID)
        }
        w.field("status", r.status)
        w.field("apns_id", r.apnsID)
        w.field("apns_unique_id", r.apnsUniqueID)
        w.field("reason", r.reason?.text)
        w.key("timestamp")
        if let t = r.timestamp { w.raw(Array(String(t).utf8)) } else { w.null() }
        w.field("environment", (r.environment ?? environment).rawValue)
        w.field("endpoint", (r.endpoint ?? endpoint).url)
        if let first = r.badDeviceTokenIn { w.field("bad_device_token_in", first.rawValue) }
        w.key("duration_ms")
        w.raw(Array(String(Double(Int((r.durationMs * 10).rounded())) / 10).utf8))
        if let body = r.bodyText { w.field("body", body) }
        if r.attempts > 1 {
            w.key("attempts")
            w.raw(Array(String(r.attempts).utf8))
        }
        if r.outcome == .failed {
            w.field("error", failureText(r))
            if r.failure?.isUnknownOutcome == true { w.field("delivery", "unknown") }
        }
        if r.outcome == .rejected {
            // The same texts as the text output (CLI.md, JSON output).
            switch r.reason {
            case .known(let reason)?:
                w.field("meaning", reason.meaning(for: pushType))
                // Refused by both environments (`--env auto`): the hint text says so, not the one-environment advice.
                w.field(
                    "hint",
                    r.refusedByBothEnvironments
                        ? r.bothEnvironmentsRefusedText : reason.hint(for: pushType, broadcast: r.device == nil))
            case nil where r.isSuccessNotFromAPNs:
                w.field("meaning", notFromAPNs(r))
                w.field("hint", endpointHint(r))
            case nil where r.bodyText != nil:
                w.field("meaning", notFromAPNs(r))
            case .unknown?, nil:
                w.field("meaning", explanation(r, pushType: pushType))
            }
        }
        w.endObject()
        return w.text
    }

    /// `sent 3: 2 accepted, 1 rejected (BadDeviceToken 1)`, plus `, N failed` when some got no answer.
    /// Only the outcomes that happened are named (CLI.md): `sent 2: 2 failed`, never `0 accepted`.
    static func summaryLine(
        _ s: SendSummary, unsentFile: String? = nil, keptUnknown: Int = 0, skippedLines: Int = 0,
        restUnread: Bool = false
    ) -> String {
        let words = SummaryWords(s, restUnread: restUnread)
        // `sent N` counts what was sent: devices a failed run never sent are said apart.
        var line = "sent \(s.sent)" + (words.counts.isEmpty ? "" : ": " + words.counts)
        for clause in words.clauses { line += "; " + clause }
        if words.interruptedWithAllSent { line += " (\(words.stop))" }
        if let unsentFile {
            // CLI.md: `2528 never sent: written to unsent.txt`.
            // The unread rest is not in the file (only a comment about it): "written to" follows a count.
            let neverSent = s.failedUnsent > 0 || (s.interruptedBy != nil && s.notSent > 0)
            let kept = keptUnknown == 1 ? "1 device" : "\(keptUnknown) devices"
            if keptUnknown > 0 && s.failed == 0 && s.notSent == 0 {
                // Only the resumed list's own devices of unknown outcome are left: kept, not this run's.
                line += "; \(kept) of unknown outcome kept in \(unsentFile)"
            } else {
                line += neverSent ? ": written to \(unsentFile)" : "; unsent devices written to \(unsentFile)"
                if keptUnknown > 0 { line += " (with the \(kept) of unknown outcome it held)" }
            }
        }
        if skippedLines > 0 { line += "; " + SkippedLinesText.clause(skippedLines) }
        // The reasons are the servers' own words, not escaped until printed.
        return PrintableText.escapingControls(line)
    }

    /// What a summary (and the history's outcome) says of a piped list's rest left unread.
    static let restNotRead = "the rest of the list not read"

    /// What the summary line says after its `sent N`, as the history records a run's outcome: `2 accepted, 1
    /// failed`, `2 never sent` (a run that could not connect), `interrupted`; empty when it says nothing more.
    static func outcome(_ s: SendSummary, restUnread: Bool = false) -> String {
        let words = SummaryWords(s, restUnread: restUnread)
        var text = ([words.counts] + words.clauses).filter { !$0.isEmpty }.joined(separator: "; ")
        if words.interruptedWithAllSent { text += text.isEmpty ? words.stop : " (\(words.stop))" }
        return PrintableText.escapingControls(text)
    }

    /// The summary's words after `sent N`, for the line and the history's outcome alike.
    private struct SummaryWords {
        /// `2 accepted, 1 rejected (Unregistered 1), …`; empty when nothing was answered.
        let counts: String
        /// `2 never sent` (a failed run), `3 never sent (interrupted)`, `3 never sent and the rest of the list
        /// not read (interrupted)` (a stream stopped before its end: how many were never sent is unknown).
        let clauses: [String]
        /// Interrupted with every device sent: the line ends `(interrupted)`.
        let interruptedWithAllSent: Bool
        /// What stopped the run: `interrupted` (a signal), or `output lost` (its output could not be written).
        let stop: String

        init(_ s: SendSummary, restUnread: Bool) {
            var parts: [String] = []
            if s.accepted > 0 { parts.append("\(s.accepted) accepted") }
            if s.rejected > 0 {
                parts.append(
                    "\(s.rejected) rejected (" + s.reasons.map { "\($0.reason) \($0.count)" }.joined(separator: ", ")
                        + ")")
            }
            if s.failed > s.unknown + s.failedUnsent { parts.append("\(s.failed - s.unknown - s.failedUnsent) failed") }
            if s.unknown > 0 { parts.append("\(s.unknown) unknown (may have been delivered)") }
            counts = parts.joined(separator: ", ")
            var clauses: [String] = []
            if s.sentMoreThanOnce > 0 { clauses.append("\(s.sentMoreThanOnce) sent more than once") }
            stop = s.interruptedBy == InterruptSignals.outputLost ? "output lost" : "interrupted"
            let stoppedEarly = s.interruptedBy != nil || s.listLeftUnread
            let rest = restUnread && stoppedEarly
            // A stream given up on: those failed before they left and those read but never taken are one count.
            let gaveUp = stoppedEarly && s.interruptedBy == nil
            let failedUnsent = s.failedUnsent + (gaveUp ? s.notSent : 0)
            if failedUnsent > 0 {
                clauses.append(
                    "\(failedUnsent) never sent" + (gaveUp && rest ? " and " + SendOutput.restNotRead : ""))
            }
            if stoppedEarly && (s.notSent > 0 || rest) && !(gaveUp && failedUnsent > 0) {
                let unread = rest ? (s.notSent > 0 ? " and " : "") + SendOutput.restNotRead : ""
                // A run that gave up says why in the error line below the summary; an interrupt says it here.
                let why = s.interruptedBy != nil ? " (\(stop))" : ""
                clauses.append((s.notSent > 0 ? "\(s.notSent) never sent" : "") + unread + why)
            }
            self.clauses = clauses
            interruptedWithAllSent = s.interruptedBy != nil && s.notSent == 0 && !rest
        }
    }

    /// The stderr line after an interrupt: which signal, and what was left undone.
    /// `restUnknown`: the devices came from a stream whose rest was never read, so how many is unknown.
    /// `resultsWritten`: standard output took every result (else the line before this one said what it lost).
    static func interruptMessage(_ s: SendSummary, restUnknown: Bool = false, resultsWritten: Bool = true) -> String {
        let name = s.interruptedBy == ProcessSignals.terminate ? "SIGTERM" : "SIGINT"
        var undone: [String] = []
        // A failed device whose request never left (refused unprocessed each time, then a failure) is one never sent.
        if s.failed > s.failedUnsent { undone.append("\(s.failed - s.failedUnsent) sent without an answer") }
        if s.notSent + s.failedUnsent > 0 { undone.append("\(s.notSent + s.failedUnsent) never sent") }
        if restUnknown { undone.append("the rest of the list was not read") }
        let what =
            !resultsWritten
            ? (undone.isEmpty ? "every device was sent" : undone.joined(separator: ", "))
            : undone.isEmpty
                ? "every result is above"
                : undone.joined(separator: ", ") + (s.total > 0 ? "; the results above are final" : "")
        return "interrupted by \(name): \(what)"
    }

    /// CLI.md's line when standard output failed during `send`: `standard output was closed after N results;
    /// M devices were not sent`, or for a write error `writing standard output: No space left on device;
    /// N results written, M devices were not sent`.
    /// `notSent` nil: the devices came from a stream whose rest was never read.
    static func lostOutputMessage(_ failure: OutputSink.Failure, notSent: Int?, noun: String) -> String {
        let results = "\(failure.linesWritten) result\(failure.linesWritten == 1 ? "" : "s")"
        let unsent =
            notSent.map { "\($0) \(noun)\($0 == 1 ? " was" : "s were") not sent" }
            ?? "the rest of the \(noun) list was not read or sent"
        if failure.readerGone { return "standard output was closed after \(results); \(unsent)" }
        return "\(failure.message); \(results) written, \(unsent)"
    }

    /// After the lost-output line: how many targets were sent whose results were not printed, and the history entry
    /// that has them; empty when there are none.
    static func unprintedNote(_ unprinted: Int, noun: String, entry: Int64?) -> String {
        guard unprinted > 0 else { return "" }
        let what = unprinted == 1 ? "1 more \(noun)" : "\(unprinted) more \(noun)s"
        return "; \(what) got a result that was not printed"
            + (entry.map { " (apnsctl history show \($0) lists every result)" } ?? "")
    }

    private static func paint(_ word: String, green: Bool, _ colour: Bool) -> String {
        guard colour else { return word }
        return (green ? "\u{1B}[32m" : "\u{1B}[31m") + word + "\u{1B}[0m"
    }
}

extension PushResult {
    /// The reason column of the text output: the JSON reason, or `-` when the server sent none.
    var reasonColumn: String { reason.map { $0.text.isEmpty ? "-" : $0.text } ?? "-" }
}
