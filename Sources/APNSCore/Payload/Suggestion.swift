/// "Did you mean" for misspelt keys and values: `bagde` → `badge`, `contentAvailable` →
/// `content-available`, `Sound` → `sound`.
public enum Suggestion {
    /// The candidate closest to `word`, or nil when none is close enough to be a plausible typo.
    /// Case, `-`, `_` and spaces are ignored first (catches camelCase and snake_case); then the
    /// optimal-string-alignment distance (a swap of two letters counts 1) must be at most 1 for
    /// short words and 2 for longer ones.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let folded = fold(word)
        if let same = candidates.first(where: { fold($0) == folded }) { return same }
        let a = Array(word.lowercased().utf8)
        guard !a.isEmpty, a.count <= 64 else { return nil }
        var best: (String, Int)?
        for candidate in candidates {
            let b = Array(candidate.utf8)
            let allowed = min(a.count, b.count) <= 4 ? 1 : 2
            let d = distance(a, b)
            if d <= allowed, best.map({ d < $0.1 }) ?? true { best = (candidate, d) }
        }
        return best?.0
    }

    /// `; did you mean "x"?` or an empty string.
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let s = closest(to: word, among: candidates) else { return "" }
        return "; did you mean \(JSONWriter.quoted(s))?"
    }

    /// Lower case without separators.
    private static func fold(_ s: String) -> [UInt8] {
        s.lowercased().utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: " ") }
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
