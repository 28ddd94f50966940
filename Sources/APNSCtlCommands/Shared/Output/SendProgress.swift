import APNSCore
import APNSPlatform

/// `send`'s progress line on stderr (CLI.md): only for more than one device, when stderr is a terminal
/// and stdout a regular file or /dev/null. Never when stdout is a terminal or a pipe: its reader (`jq`,
/// `less`) may print to the same terminal, and the two would mix. Redrawn at most 10 times a second;
/// at the end it is replaced by the summary line, which stays.
final class SendProgress {
    /// nil for a stream whose length is unknown (`--devices -`).
    private let total: Int?
    private let start = SystemClock.monotonicNanoseconds()
    private var done = 0
    /// The first redraw waits a full interval: a batch that ends sooner shows only its summary.
    private lazy var lastDrawNs: UInt64 = start
    private var drawn = false

    /// Redraws are at least this far apart (10 a second at most).
    static let minimumIntervalNs: UInt64 = 100_000_000

    /// A progress line for `total` devices; nothing is drawn before the first redraw interval passes.
    init(total: Int?) { self.total = total }

    /// Whether the process's streams call for a progress line when sending to `total` devices.
    static func wanted(total: Int?) -> Bool {
        (total ?? 2) > 1 && Environment.isTerminal(2) && Environment.isRegularFileOrNull(1)
    }

    /// Counts one result and redraws when the last redraw is old enough.
    func advance() {
        done += 1
        let now = SystemClock.monotonicNanoseconds()
        guard now - lastDrawNs >= Self.minimumIntervalNs, done < total ?? .max else { return }
        lastDrawNs = now
        drawn = true
        let seconds = Double(now - start) / 1e9
        let rate = seconds > 0 ? Int((Double(done) / seconds).rounded()) : 0
        let of = total.map { " of \($0)" } ?? " (total unknown: reading a stream)"
        StandardStreams.printErr("\rsent \(done)\(of), \(rate)/s\u{1B}[K")
    }

    /// Replaces the progress line with `summary`, which stays on the terminal.
    func finish(summary: String) {
        StandardStreams.printErr((drawn ? "\r\u{1B}[K" : "") + summary + "\n")
    }
}
