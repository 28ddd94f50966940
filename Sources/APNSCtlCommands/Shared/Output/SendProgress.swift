import APNSClient
import APNSCore
import APNSPlatform

/// `send`'s progress line on stderr (CLI.md): only for more than one device, when stderr is a terminal
/// and stdout a regular file or /dev/null. Never when stdout is a terminal or a pipe: its reader (`jq`,
/// `less`) may print to the same terminal, and the two would mix. Redrawn at most 10 times a second;
/// at the end it is replaced by the summary line, which stays.
final class SendProgress {
    /// nil for a stream whose length is unknown (`--devices -`).
    private let total: Int?
    private let clock: CommandClock
    private let stream: MessageStream
    private let start: UInt64
    private var done = 0
    private var accepted = 0
    private var rejected = 0
    private var failed = 0
    /// The first redraw waits a full interval: a batch that ends sooner shows only its summary.
    private lazy var lastDrawNs: UInt64 = start
    private var drawn = false

    /// Redraws are at least this far apart (10 a second at most).
    static let minimumIntervalNs: UInt64 = 100_000_000

    /// A progress line for `total` devices on the world's standard error; nothing is drawn before the first
    /// redraw interval passes.
    init(total: Int?, in world: CommandWorld) {
        self.total = total
        clock = world.clock
        stream = world.standardError
        start = clock.monotonicNanoseconds()
    }

    /// Whether the world's streams call for a progress line when sending to `total` devices.
    static func wanted(total: Int?, in world: CommandWorld) -> Bool {
        (total ?? 2) > 1 && world.streams.isTerminal(2) && world.streams.isRegularFileOrNull(1)
    }

    /// Counts one result and redraws when the last redraw is old enough: `sent N of M: A accepted, R rejected, r/s`,
    /// with `F failed` when any failed (CLI.md), so a batch going wrong shows while it runs.
    func advance(_ outcome: PushResult.Outcome) {
        done += 1
        switch outcome {
        case .accepted: accepted += 1
        case .rejected: rejected += 1
        case .failed: failed += 1
        }
        let now = clock.monotonicNanoseconds()
        guard now - lastDrawNs >= Self.minimumIntervalNs, done < total ?? .max else { return }
        lastDrawNs = now
        drawn = true
        let seconds = Double(now - start) / 1e9
        let rate = seconds > 0 ? Int((Double(done) / seconds).rounded()) : 0
        let of = total.map { " of \($0)" } ?? " (total unknown: reading a stream)"
        let failures = failed > 0 ? ", \(failed) failed" : ""
        stream.print("\rsent \(done)\(of): \(accepted) accepted, \(rejected) rejected\(failures), \(rate)/s\u{1B}[K")
    }

    /// Replaces the progress line with `summary`, which stays on the terminal.
    func finish(summary: String) {
        stream.print((drawn ? "\r\u{1B}[K" : "") + summary + "\n")
    }
}
