/// "Did you mean" for misspelt keys and values: `bagde` → `badge`, `contentAvailable` →
/// `content-available`, `Sound` → `sound`.
public enum Suggestion {
    /// The candidate closest to `word`, or nil when none is close enough to be a plausible typo.
    /// Case, `-`, `_` and spaces are ignored first (catches camelCase and snake_case); then the
    /// optimal-string-alignment distance (a swap of two letters counts 1) must be at most 1 for
    /// short words and 2 for longer ones.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        // No typo of a name is this long, and the start of a string the reader cut is longer still.
        guard word.utf8.count <= longestWord else { return nil }
        let folded = fold(word)
        if let same = candidates.first(where: { folds($0, to: folded) }) { return same }
        let a = Array(plain(word.lowercased()).utf8)
        guard !a.isEmpty, a.count <= 64 else { return nil }
        var best: (String, Int)?
        for candidate in candidates {
            // A name beyond ASCII is compared with its typographic quotes made straight, as `word` is.
            let plainCandidate = candidate.utf8.contains(where: { $0 >= 0x80 }) ? plain(candidate.lowercased()) : nil
            let length = plainCandidate?.utf8.count ?? candidate.utf8.count
            // Only a strictly closer candidate replaces the best so far; the distance is at least the difference
            // in length, and the search stops once it is over the limit: thousands of names cost little.
            let limit = min(min(a.count, length) <= 4 ? 1 : 2, (best?.1 ?? .max) - 1)
            guard abs(a.count - length) <= limit,
                let d = distance(a, Array((plainCandidate ?? candidate.lowercased()).utf8), atMost: limit)
            else {
                continue
            }
            best = (candidate, d)
        }
        return best?.0
    }

    /// The longest word, in UTF-8 bytes, that may get a suggestion (separators and case included).
    static let longestWord = 1024

    /// `; did you mean "x"?` or an empty string.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let s = closest(to: word, among: candidates) else { return "" }
        return "; did you mean \(PrintableText.quoted(s))?"
    }

    /// `s` with typographic apostrophes and quotes made straight: iOS names a device `Ada’s iPhone`, and people
    /// type `Ada's iPhone` (compared as UTF-8, the curly one was three edits away).
    static func plain(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 >= 0x80 }) else { return s }
        return String(s.map { TypographicQuote.straight($0) ?? $0 })
    }

    /// Lower case without separators.
    private static func fold(_ s: String) -> [UInt8] {
        plain(s.lowercased()).utf8.filter {
            $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: " ")
        }
    }

    /// Whether `candidate` folds to `folded`, without building its folded form when it is ASCII.
    private static func folds(_ candidate: String, to folded: [UInt8]) -> Bool {
        var i = 0
        for byte in candidate.utf8 {
            if byte >= 0x80 { return fold(candidate) == folded }
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: " ") { continue }
            let lower = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
            guard i < folded.count, folded[i] == lower else { return false }
            i += 1
        }
        return i == folded.count
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let most = max(a.count, b.count)
        return distance(a, b, atMost: most) ?? most
    }

    /// The distance when it is at most `limit`, else nil. Only cells within `limit` of the diagonal are computed
    /// (any other is over the limit), values over it are kept as `limit + 1`, and the search stops at a row whose
    /// cells are all over it (a transposition never undercuts the row before it): a name among thousands costs a
    /// few steps.
    public static func distance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int? {
        let n = a.count
        let m = b.count
        guard limit >= 0, abs(n - m) <= limit else { return nil }
        if n == 0 || m == 0 { return max(n, m) }
        let over = limit + 1
        var previous2 = [Int](repeating: over, count: m + 1)
        var previous = [Int](repeating: over, count: m + 1)
        var current = [Int](repeating: over, count: m + 1)
        var j = 0
        while j <= m && j <= limit {
            previous[j] = j
            j += 1
        }
        var i = 1
        while i <= n {
            let lo = max(1, i - limit)
            let hi = min(m, i + limit)
            current[lo - 1] = lo == 1 && i < over ? i : over
            if hi < m { current[hi + 1] = over }
            var rowMinimum = current[lo - 1]
            j = lo
            while j <= hi {
                var value = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                let deletion = previous[j] + 1
                let insertion = current[j - 1] + 1
                if deletion < value { value = deletion }
                if insertion < value { value = insertion }
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1], previous2[j - 2] + 1 < value {
                    value = previous2[j - 2] + 1
                }
                if value > over { value = over }
                current[j] = value
                if value < rowMinimum { rowMinimum = value }
                j += 1
            }
            if rowMinimum > limit { return nil }
            (previous2, previous, current) = (previous, current, previous2)
            i += 1
        }
        return previous[m] <= limit ? previous[m] : nil
    }
}
