/// How a run's summary and its history entry say the device-list lines `--skip-invalid` skipped: `3 invalid lines
/// skipped`. One text, as older history entries kept the count only in it and are read back by it.
public enum SkippedLinesText {
    public static func clause(_ count: Int) -> String { "\(count) invalid line\(count == 1 ? "" : "s") skipped" }

    /// The count in an outcome that says `; N invalid line(s) skipped` as a clause of its own (followed by its end
    /// or by `; `), else 0: a server's reason quoted in the outcome may hold the words.
    public static func count(in outcome: String) -> Int {
        var found = 0
        for start in outcome.ranges(of: "; ") {
            let rest = outcome[start.upperBound...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 18, let n = Int(digits) else { continue }
            let after = rest[digits.endIndex...]
            for clause in [" invalid lines skipped", " invalid line skipped"] where after.hasPrefix(clause) {
                let end = after.dropFirst(clause.count)
                if end.isEmpty || end.hasPrefix("; ") { found = n }
            }
        }
        return found
    }
}
