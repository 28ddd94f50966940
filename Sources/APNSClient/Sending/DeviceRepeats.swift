import APNSCore

/// Repeated tokens across `-d` and the lines of `--devices` (CLI.md: a token reached twice, in any mix, is sent
/// once, and one warning says how many repeats were skipped and where the first was). The `-d` tokens (already
/// distinct) are seen first; a list's lines after them. Shared by the pass that checks a file and the pass that
/// sends it, each starting afresh with `startPass()`.
public final class DeviceRepeats {
    private let flagTokens: [DeviceToken]
    private var seen = SeenDeviceTokens()
    /// Repeated lines skipped in this pass.
    public private(set) var count = 0
    /// The first repeat: its line and where the token was first seen (a `-d` index or a line).
    private var first: (line: Int, firstPlace: UInt32)? = nil

    /// Repeats among lists read after `flagTokens` (the `-d` tokens, in order).
    public init(after flagTokens: [DeviceToken]) {
        self.flagTokens = flagTokens
        startPass()
    }

    /// Forgets the lines of an earlier pass over the list; the `-d` tokens stay seen.
    public func startPass() {
        seen.removeAll()
        count = 0
        first = nil
        for (i, token) in flagTokens.enumerated() { _ = seen.insert(token, at: UInt32(clamping: i + 1)) }
    }

    /// Whether `token`, on line `line` of the list, was seen before (it is then counted, not sent).
    func isRepeat(_ token: DeviceToken, line: Int) -> Bool {
        guard let earlier = seen.insert(token, at: UInt32(clamping: flagTokens.count + line)) else { return false }
        count += 1
        if first == nil { first = (line, earlier) }
        return true
    }

    /// `warning: 7 repeated tokens were sent once (first: --devices tokens.txt:812 repeats line 3)`, or nil when
    /// there were none (`file`: the list's name as given).
    public func warning(file: String) -> String? {
        guard let first else { return nil }
        let earlier =
            Int(first.firstPlace) <= flagTokens.count
            ? "--device \(first.firstPlace)" : "line \(Int(first.firstPlace) - flagTokens.count)"
        let what = count == 1 ? "1 repeated token was" : "\(count) repeated tokens were"
        return "\(what) sent once (first: --devices \(file):\(first.line) repeats \(earlier))"
    }
}
