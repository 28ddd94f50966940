import APNSClient
import APNSCore
import APNSHistory
import APNSPlatform
import APNSSettings

/// Keeps one send in the history: results are collected as they are printed, and written as one entry in one
/// transaction when the send ends (interrupted or not). Recording never costs the send: any problem with the
/// database is one warning, and the exit status stays the send's.
final class SendRecorder {
    private var entry: HistoryEntry
    private let directory: String
    private let keepDays: Int
    private let keepEntries: Int
    private let startedNanoseconds: UInt64

    /// A recorder for a send described by `entry` (its settings and payload), or nil when the history is
    /// off (`--no-history`, `APNSCTL_NO_HISTORY`, `history = false`) or there is no home to keep it in.
    static func start(_ entry: HistoryEntry, _ settings: ResolvedSettings, in world: CommandWorld) -> SendRecorder? {
        guard !settings.isOn(.noHistory), let directory = world.historyDirectory else { return nil }
        return SendRecorder(
            entry, directory: directory, keepDays: settings[.historyDays]?.value ?? 30,
            keepEntries: settings[.historyEntries]?.value ?? 1000, in: world)
    }

    private init(_ entry: HistoryEntry, directory: String, keepDays: Int, keepEntries: Int, in world: CommandWorld) {
        self.entry = entry
        self.directory = directory
        self.keepDays = keepDays
        self.keepEntries = keepEntries
        startedNanoseconds = world.clock.monotonicNanoseconds()
        self.entry.started = world.clock.now()
    }

    /// One target's result, as it was printed (`name`: the device name it was given by).
    func add(_ result: PushResult, name: String?, route: SendRoute) {
        entry.results.append(HistoryResult(result, name: name, route: route))
    }

    /// Writes the entry; a failure is one warning on the world's standard error.
    func finish(_ summary: SendSummary, noun: String, in world: CommandWorld) {
        entry.durationMs = Double(world.clock.monotonicNanoseconds() &- startedNanoseconds) / 1_000_000
        entry.interrupted = summary.interruptedBy != nil
        entry.counts.targets = summary.total
        entry.counts.accepted = summary.accepted
        entry.counts.rejected = summary.rejected
        entry.counts.failed = summary.failed
        let line = SendOutput.summaryLine(summary)
        let outcome = line.firstIndex(of: ":").map { String(line[line.index($0, offsetBy: 2)...]) } ?? ""
        let targets = "\(summary.total) \(noun)\(summary.total == 1 ? "" : "s")"
        entry.counts.outcome = outcome.isEmpty ? targets : "\(targets): \(outcome)"
        do {
            guard let store = try HistoryStore.open(directory: directory, create: true) else { return }
            try store.record(entry, keepDays: keepDays, keepEntries: keepEntries, now: entry.started)
        } catch {
            world.standardError.warning("this send was not recorded in the history: \(error.message)")
        }
    }
}

extension HistoryResult {
    /// What `send` printed for `result`, as the history keeps it: the answer's fields and body (a rejection's),
    /// or the failure's message; the environment and server are the ones that answered.
    init(_ result: PushResult, name: String?, route: SendRoute) {
        self.init(target: result.target.text, durationMs: result.durationMs)
        deviceName = name
        status = result.status
        reason = result.reason?.text
        apnsID = result.apnsID
        apnsUniqueID = result.apnsUniqueID
        apnsRequestID = result.apnsRequestID
        timestamp = result.timestamp
        environment = (result.environment ?? route.environment).rawValue
        endpoint = (result.endpoint ?? route.endpoint).url
        badDeviceTokenIn = result.badDeviceTokenIn?.rawValue
        if result.outcome == .rejected, let answer = result.response?.body {
            body = Array(answer.prefix(HistoryResult.bodyLimit))
        }
        error = result.failure?.message
        unknownOutcome = result.failure?.isUnknownOutcome == true
    }
}
