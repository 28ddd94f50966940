import APNSCore

/// Repeated tokens across `-d` and the lines of `--devices` (CLI.md: a token reached twice, in any mix, is sent
/// once, and one warning says how many repeats were skipped and where the first was). The `-d` tokens (already
/// distinct) are seen first; a list's lines after them. A regular file's check finds its repeated lines and frees
/// the set before anything is sent, so the pass that sends it skips those lines by number.
public final class DeviceRepeats {
    private let flagTokens: [DeviceToken]
    private var seen = SeenDeviceTokens()
    /// Repeated lines skipped in this pass.
    public private(set) var count = 0
    /// The first repeat: its line and where the token was first seen (a `-d` index or a line).
    private var first: (line: Int, firstPlace: UInt32)? = nil
    /// Repeats among the `-d` flags themselves: how many, and the first (its flag's position and the position of
    /// the flag it repeats, as the user counts them).
    private let flagRepeats: (count: Int, flag: Int, repeats: Int)?

    /// Repeats among lists read after `flagTokens` (the `-d` tokens, in order, each once); `flagRepeats`: those
    /// the `-d` flags had among themselves, said in the same one warning.
    public init(after flagTokens: [DeviceToken], flagRepeats: (count: Int, flag: Int, repeats: Int)? = nil) {
        self.flagTokens = flagTokens
        self.flagRepeats = flagRepeats
        startPass()
    }

    /// After a regular file was checked: the lines that repeat a token, in order, so that the pass that sends it
    /// skips them without keeping the set of tokens (it is freed before anything is sent).
    private var knownLines: [Int]? = nil
    private var recordedLines: [Int] = []
    private var nextKnown = 0
    private var recording = false

    /// Forgets the lines of an earlier pass over the list; the `-d` tokens stay seen. `checking`: the pass checks a
    /// regular file, whose repeated lines are kept for `finishCheck`.
    public func startPass(checking: Bool = false) {
        seen.removeAll()
        count = 0
        first = nil
        knownLines = nil
        recordedLines = []
        recording = checking
        for (i, token) in flagTokens.enumerated() { _ = seen.insert(token, at: UInt32(clamping: i + 1)) }
    }

    /// Ends the pass that checked a regular file: its repeats are kept as line numbers, and the set is freed.
    func finishCheck() {
        knownLines = recordedLines
        recordedLines = []
        recording = false
        seen.removeAll()
    }

    /// Starts a pass over a file already checked: its repeats are the lines `finishCheck` kept.
    func replayCheckedLines() { nextKnown = 0 }

    /// Whether `token`, on line `line` of the list, was seen before (it is then counted, not sent).
    func isRepeat(_ token: DeviceToken, line: Int) -> Bool {
        if let knownLines {
            while nextKnown < knownLines.count && knownLines[nextKnown] < line { nextKnown += 1 }
            return nextKnown < knownLines.count && knownLines[nextKnown] == line
        }
        guard let earlier = seen.insert(token, at: UInt32(clamping: flagTokens.count + line)) else { return false }
        count += 1
        if recording { recordedLines.append(line) }
        if first == nil { first = (line, earlier) }
        return true
    }

    /// What this pass skipped, for the one warning the command words, or nil when nothing repeated.
    public var summary: DeviceRepeatSummary? {
        let total = count + (flagRepeats?.count ?? 0)
        if let flagRepeats, flagRepeats.count > 0 {
            return DeviceRepeatSummary(
                total: total, first: .flag(flagRepeats.flag, repeatsFlag: flagRepeats.repeats))
        }
        guard let first else { return nil }
        let place = Int(first.firstPlace)
        return DeviceRepeatSummary(
            total: total,
            first: place <= flagTokens.count
                ? .lineRepeatsFlag(first.line, flag: place)
                : .lineRepeatsLine(first.line, earlier: place - flagTokens.count))
    }
}

/// How many repeated tokens were skipped, and where the first repeat was and what it repeated.
public struct DeviceRepeatSummary: Sendable, Equatable {
    /// Where the first repeat was, counted as the user counts: the n-th `-d` flag, or a line of the list.
    public enum FirstRepeat: Sendable, Equatable {
        /// The `-d` flag at this position repeats the one at `repeatsFlag`.
        case flag(Int, repeatsFlag: Int)
        /// This line of the list repeats the `-d` flag at that position.
        case lineRepeatsFlag(Int, flag: Int)
        /// This line of the list repeats an earlier line.
        case lineRepeatsLine(Int, earlier: Int)
    }

    /// Repeats skipped in all, among the flags and the list's lines.
    public let total: Int
    public let first: FirstRepeat

    public init(total: Int, first: FirstRepeat) {
        self.total = total
        self.first = first
    }
}
