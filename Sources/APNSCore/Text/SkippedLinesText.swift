/// How a run's summary and its history entry say the device-list lines `--skip-invalid` skipped: `3 invalid lines
/// skipped`. One text, as older history entries kept the count only in it and are read back by it.
public enum SkippedLinesText {
    public static func clause(_ count: Int) -> String { "\(count) invalid line\(count == 1 ? "" : "s") skipped" }

    /// The count in an outcome that says `; N invalid line(s) skipped`, else 0.
    public static func count(in outcome: String) -> Int {
        guard let range = outcome.ranges(of: " invalid line").last else { return 0 }
        let digits = outcome[..<range.lowerBound].reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 18, let n = Int(String(digits.reversed())) else { return 0 }
        let rest = outcome[range.upperBound...]
        return rest.hasPrefix("s skipped") || rest.hasPrefix(" skipped") ? n : 0
    }
}
