import APNSClient
import APNSCore
import APNSHistory
import APNSPlatform
import APNSSettings

/// Keeps one send in the history: results go to the database as they are printed (SQLite keeps them aside, so a
/// batch of any size costs bounded memory) and are written with the entry in one transaction when the send ends,
/// interrupted or not. Recording never costs the send: any problem with the database is one warning at the end,
/// and the exit status stays the send's.
final class SendRecorder {
    private var entry: HistoryEntry
    /// The history, opened while the send connects.
    private let opening: HistoryOpening?
    private let keepDays: Int
    private let keepEntries: Int
    private let startedNanoseconds: UInt64
    private var recording: HistoryRecording?
    /// The first problem; after it nothing more is tried.
    private var problem: HistoryProblem?

    /// A recorder for a send described by `entry` (its settings and payload), or nil when the history is
    /// off (`--no-history`, `APNSCTL_NO_HISTORY`, `history = false`). With no folder to keep it in (no home), the
    /// send is not recorded and `finish` says why, as for any history that cannot be written (CLI.md).
    static func start(_ entry: HistoryEntry, _ settings: ResolvedSettings, in world: CommandWorld) -> SendRecorder? {
        guard !settings.isOn(.noHistory) else { return nil }
        let recorder = SendRecorder(
            entry, directory: world.historyDirectory, keepDays: settings[.historyDays]?.value ?? 30,
            keepEntries: settings[.historyEntries]?.value ?? 1000, in: world)
        if let why = HistoryAccess.noHome(in: world) {
            recorder.problem = .unusable(
                why + "; set XDG_STATE_HOME to a folder of yours to keep the history, or pass --no-history")
        }
        return recorder
    }

    private init(_ entry: HistoryEntry, directory: String?, keepDays: Int, keepEntries: Int, in world: CommandWorld) {
        self.entry = entry
        opening = directory.map { HistoryOpening(directory: $0) }
        self.keepDays = keepDays
        self.keepEntries = keepEntries
        startedNanoseconds = world.clock.monotonicNanoseconds()
        self.entry.started = world.clock.now()
        // A --ca-file typed relative to here is kept whole: a replay may run in another folder.
        if let caFile = entry.caFile, !caFile.hasPrefix("/") {
            self.entry.caFile = WorkingDirectoryPath.absolute(caFile, workingDirectory: world.workingDirectory())
        }
    }

    /// The open recording, opened on first use; nil once something failed.
    private func current() -> HistoryRecording? {
        if let recording { return recording }
        guard problem == nil else { return nil }
        do {
            guard let store = try opening?.store() else { return nil }
            recording = try store.beginRecording()
        } catch {
            problem = error
        }
        return recording
    }

    /// One target's result, as it was printed (`name`: the device name it was given by).
    func add(_ result: PushResult, name: String?, route: SendRoute) {
        add(HistoryResult(result, name: name, route: route))
    }

    /// One target's result as the history keeps it (a simulator's, which no server answered).
    func add(_ result: HistoryResult) {
        guard let recording = current() else { return }
        do { try recording.add(result) } catch {
            problem = error
            self.recording = nil
        }
    }

    /// How an entry's outcome says that its streamed list stopped at a bad line (a replay warns of it).
    static let listStopped = "the list stopped at its bad line"
    /// Said in the outcome of a run whose `--devices` file was cut while it was sent, with the last line read.
    static let listCut = "the list file was cut after line"

    /// Writes the entry and returns its number; a failure is one warning on the world's standard error.
    /// `skippedLines`: the `--skip-invalid` lines of the list, said in the outcome as the summary says them;
    /// `listStop`: why a streamed list was not read to its end (a bad line), said after them, so the entry is not
    /// taken for a whole run; `restUnread`: an interrupted stream's rest was never read, said with its never-sent count.
    @discardableResult
    func finish(
        _ summary: SendSummary, noun: String, skippedLines: Int = 0, listStop: String? = nil, restUnread: Bool = false,
        in world: CommandWorld
    ) -> Int64? {
        // No target got a result (a run interrupted before its first request left): nothing reached a server,
        // and an entry would have nothing to show or to send again.
        guard summary.total > 0 else { return nil }
        entry.durationMs = Double(world.clock.monotonicNanoseconds() &- startedNanoseconds) / 1_000_000
        entry.interrupted = summary.interruptedBy != nil
        entry.outputLost = summary.interruptedBy == InterruptSignals.outputLost
        entry.counts.targets = summary.total
        entry.counts.accepted = summary.accepted
        entry.counts.rejected = summary.rejected
        entry.counts.failed = summary.failed
        // Every device never sent, as the outcome counts them: those a failed run gave up on (they have a result) and
        // those an interrupt, or a stream's giving up, left (they have none).
        let stopped = summary.interruptedBy != nil || summary.listLeftUnread
        entry.counts.withoutResult = stopped ? summary.notSent : 0
        entry.counts.neverSent = summary.failedUnsent + entry.counts.withoutResult
        let outcome = SendOutput.outcome(summary, restUnread: restUnread)
        // Every device of the run, as the JSON's `total`: those left without a result too.
        let total = summary.total + entry.counts.withoutResult
        let targets = "\(total) \(noun)\(total == 1 ? "" : "s")"
        entry.counts.outcome = outcome.isEmpty ? targets : "\(targets): \(outcome)"
        entry.counts.skippedLines = skippedLines
        if skippedLines > 0 {
            entry.counts.outcome += "; " + SkippedLinesText.clause(skippedLines)
        }
        if let listStop { entry.counts.outcome += "; \(listStop)" }
        var number: Int64? = nil
        if let recording = current() {
            do {
                number = try recording.finish(entry, keepDays: keepDays, keepEntries: keepEntries, now: entry.started)
            } catch {
                problem = error
            }
        }
        if let problem {
            let advice = problem.messageWithAdvice
            world.standardError.warning(
                "this send was not recorded in the history: \(advice)"
                    + (advice == problem.message ? "" : ", or pass --no-history"))
            return nil
        }
        return number
    }
}

extension HistoryResult {
    /// What `send` printed for `result`, as the history keeps it: the answer's fields and body (a rejection's),
    /// or the failure's message; the environment and server are the ones that answered.
    init(_ result: PushResult, name: String?, route: SendRoute) {
        self.init(
            target: result.target.text, durationMs: result.durationMs, deviceName: name, status: result.status,
            reason: result.reason?.text, apnsID: result.apnsID, apnsUniqueID: result.apnsUniqueID,
            apnsRequestID: result.apnsRequestID, timestamp: result.timestamp,
            // Kept only where another server answered (`--env auto`): the entry names the usual one.
            environment: result.environment.flatMap { $0 == route.environment ? nil : $0.rawValue },
            endpoint: result.endpoint.flatMap { $0.url == route.endpoint.url ? nil : $0.url },
            badDeviceTokenIn: result.badDeviceTokenIn?.rawValue,
            body: result.outcome == .rejected
                ? Array((result.response?.body ?? []).prefix(HistoryResult.bodyLimit)) : [],
            // The failure as printed (`never sent: …`), so `history show` says what `send` said.
            error: result.failure.map { _ in SendOutput.failureText(result) },
            unknownOutcome: result.failure?.isUnknownOutcome == true, attempts: result.attempts)
    }
}

extension SendRecorder {
    /// A simulator push's one result (`error`: simctl's message when it failed), then the entry.
    func simulatorResult(_ device: SimulatorDevice, error: String?, durationMs: Double, in world: CommandWorld) {
        var result = HistoryResult(target: device.udid, durationMs: durationMs)
        result.deviceName = device.name
        result.status = error == nil ? 200 : nil
        result.error = error
        add(result)
        var summary = SendSummary()
        if error == nil { summary.accepted = 1 } else { summary.failed = 1 }
        finish(summary, noun: "simulator", in: world)
    }
}
