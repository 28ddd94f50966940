import APNSClient
import APNSCore
import APNSHistory
import APNSPlatform

/// How `history` prints entries: one line per entry (list), the whole entry (show), and their JSON objects.
enum HistoryOutput {
    /// Why `what` (of `total` lines) did not reach standard output: a reader gone (`| head -1`) is said as how far
    /// it read, as `send` says it, not as a bare `Broken pipe`.
    static func notPrinted(_ failure: OutputSink.Failure, total: Int, what: String) -> String {
        guard failure.readerGone, !failure.closedAtStart else {
            return "\(failure.message); \(what) was not printed whole"
        }
        return "standard output was closed after \(failure.linesWritten) of \(total) line\(total == 1 ? "" : "s"); "
            + "the rest of \(what) was not printed"
    }

    /// `#41  2026-11-28 18:02  sandbox  com.example.app  alert  3 devices: 2 accepted, 1 rejected (Unregistered 1)`.
    static func listLine(_ e: HistoryEntry) -> String {
        let parts = [
            "#\(e.id)", LocalTime.format(epochSeconds: e.started), e.environment, e.topic ?? "-",
            e.kind == .broadcast ? "broadcast" : e.pushType ?? "-", e.counts.outcome,
        ]
        return PrintableText.escapingControls(parts.joined(separator: "  "))
    }

    /// The entry's fields without its results and payload, as one JSON object's members.
    private static func fields(_ e: HistoryEntry, into w: inout JSONWriter) {
        w.key("id")
        w.raw(Array(String(e.id).utf8))
        w.field("started", ISO8601.format(epochSeconds: e.started))
        w.key("duration_ms")
        w.raw(Array(String(Double(Int((e.durationMs * 10).rounded())) / 10).utf8))
        w.field("kind", e.kind.rawValue)
        w.field("environment", e.environment)
        w.field("endpoint", e.endpoints)
        w.field("topic", e.topic)
        w.field("push_type", e.pushType)
        w.field("targets", e.counts.targets)
        w.field("accepted", e.counts.accepted)
        w.field("rejected", e.counts.rejected)
        w.field("failed", e.counts.failed)
        w.field("never_sent", e.counts.neverSent)
        // Every target of the run: those with a result and those an interrupt left without one.
        w.field("total", e.counts.targets + e.counts.withoutResult)
        w.field("skipped_lines", e.counts.skippedLines)
        w.field("outcome", e.counts.outcome)
        w.field("interrupted", e.interrupted)
        w.key("replay_of")
        if let id = e.replayOf { w.raw(Array(String(id).utf8)) } else { w.null() }
    }

    /// `history list -o json`: one object per entry.
    static func listJSON(_ e: HistoryEntry) -> String {
        var w = JSONWriter(capacity: 512)
        w.beginObject()
        fields(e, into: &w)
        w.endObject()
        return w.text
    }

    /// Where `history show` takes an entry's results from, one at a time (`HistoryStore.forEachResult`).
    typealias Results = ((HistoryResult) -> Void) throws(HistoryProblem) -> Void

    /// `history show -o json`: the entry's settings, its payload (as the JSON it is), and `results`, each the
    /// object `send -o json` printed; one line, handed to `write` piece by piece so a batch's results are never all
    /// held at once.
    static func showJSON(_ e: HistoryEntry, results: Results, write: @escaping ([UInt8]) -> Void) throws(HistoryProblem)
    {
        let recorded = RecordedResults(e)
        var w = JSONWriter(capacity: 1024 + e.payload.count)
        w.beginObject()
        fields(e, into: &w)
        w.field("priority", e.priority)
        w.field("expiration", e.expiration)
        w.field("collapse_id", e.collapseID)
        // The ids the command line gave (a replay sends them again); the servers' own are in `results`.
        w.field("apns_id", e.apnsID)
        w.field("request_id", e.requestID)
        w.field("ca_file", e.caFile)
        w.field("credential", e.credential)
        w.key("payload")
        if e.payload.isEmpty { w.null() } else { w.embedded(e.payload) }
        w.key("results")
        w.beginArray()
        write(w.bytes)
        var first = true
        try results { kept in
            write(Array(((first ? "" : ",") + line(kept, recorded.result(kept), recorded, json: true)).utf8))
            first = false
        }
        write(Array("]}\n".utf8))
    }

    /// One result as `send` printed it (`send --simulator`'s line or object for a simulator's); `made` is `kept` made
    /// back by `recorded.result`.
    static func line(_ kept: HistoryResult, _ made: PushResult, _ recorded: RecordedResults, json: Bool) -> String {
        let e = recorded.entry
        if e.kind == .simulator {
            let device = SimulatorDevice(name: kept.deviceName ?? "", udid: kept.target, state: "", runtime: "")
            return SimulatorResult(device: device, bundle: e.topic ?? "", error: kept.error).text(json ? .json : .text)
        }
        let name = e.kind == .devices ? kept.deviceName : nil
        if json {
            return SendOutput.jsonLine(
                made, environment: recorded.environment, endpoint: recorded.endpoint, name: name,
                pushType: recorded.pushType)
        }
        return SendOutput.textLine(made, environment: recorded.environment, name: name, pushType: recorded.pushType)
    }

    /// `history show`: the settings, the payload pretty-printed, every result as `send` printed it, the summary,
    /// and for sandbox results with an `apns-unique-id` where Apple's delivery log looks them up; each line handed
    /// to `line` as it is made.
    static func showText(_ e: HistoryEntry, results: Results, line: @escaping (String) -> Void) throws(HistoryProblem) {
        func row(_ label: String, _ value: String?) {
            guard let value else { return }
            let padded = label + String(repeating: " ", count: max(1, 13 - label.count))
            line(PrintableText.escapingControls(padded + value))
        }
        line("#\(e.id)  \(LocalTime.format(epochSeconds: e.started, seconds: true))")
        row("kind", e.kind.rawValue)
        row("environment", e.environment)
        row("endpoint", e.endpoints.joined(separator: " "))
        row("ca file", e.caFile)
        row("topic", e.topic)
        row("push type", e.pushType)
        row("priority", e.priority.map(String.init))
        row("expiration", e.expiration)
        row("collapse id", e.collapseID)
        row("apns-id", e.apnsID)
        row("request id", e.requestID)
        row("credential", e.credential)
        row("replay of", e.replayOf.map { "#\($0)" })
        row("duration", SendOutput.milliseconds(e.durationMs))
        // The outcome recorded from the summary says "interrupted" itself (not always at its end: skipped lines
        // follow it); an older entry's may not.
        let stop = e.outputLost ? "output lost" : "interrupted"
        row("outcome", e.counts.outcome + (e.interrupted && !e.counts.outcome.contains(stop) ? " (\(stop))" : ""))
        line("")
        line("payload (\(e.payload.count) bytes):")
        for text in PrintableText.escapingControlsPerLine(JSONPrettyPrinter.format(e.payload)).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            line(String(text))
        }
        line("")
        let recorded = RecordedResults(e)
        var summary = SendSummary()
        var count = 0
        var lookedUp = false
        let sandbox = APNSEnvironment.sandbox
        try results { kept in
            let made = recorded.result(kept)
            line(Self.line(kept, made, recorded, json: false))
            summary.count(made)
            count += 1
            // Only accepted lines show their unique-id (a rejected one's is no delivery to look up), and only
            // Apple's sandbox has a delivery log: a mock's or a proxy's ids are found nowhere. The note follows.
            if !lookedUp && kept.status == 200 && kept.apnsUniqueID != nil
                && (kept.environment ?? recorded.environment.rawValue) == sandbox.rawValue
            {
                let host = (kept.endpoint.flatMap { try? PushEndpoint(url: $0) } ?? recorded.endpoint).host
                lookedUp = sandbox.appleHosts.contains(host.lowercased())
            }
        }
        // As the send printed it: for more than one result, an interrupt, lines skipped, or devices read and never
        // sent (a stream given up on).
        if count > 1 || e.interrupted || e.counts.skippedLines > 0 || e.counts.withoutResult > 0 {
            // The outcome keeps what the run's summary said of a list's unread rest; the line says it again.
            line(
                SendOutput.summaryLine(
                    recorded.summary(counted: summary), skippedLines: e.counts.skippedLines,
                    restUnread: e.counts.outcome.contains(SendOutput.restNotRead)))
        }
        if lookedUp {
            line("")
            line(
                "Apple's Push Notifications Console looks up each unique-id above in its delivery log (sandbox only, kept about a week): https://icloud.developer.apple.com/dashboard/notifications, Delivery Log, paste the id."
            )
        }
    }
}
