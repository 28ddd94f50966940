import Foundation

/// The values of a documented output line that change between runs, written `{{kind}}` in a runnable
/// block. Each kind matches one kind of value only; the rest of the line is compared exactly.
public enum DocPlaceholder {
    /// Kind → the pattern one value of that kind matches (anchored by the line around it).
    public static let kinds: [String: String] = [
        "uuid": "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
        "duration": "[0-9]+(\\.[0-9]+)? ?(µs|ms|s)",  // 1.8 ms, 0.3 s
        "ms": "[0-9]+(\\.[0-9]+)?",  // JSON duration_ms
        "rate": "[0-9]+(\\.[0-9]+)?/s",
        "time": "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z",
        "date": "[0-9]{4}-[0-9]{2}-[0-9]{2}",
        "clock": "[0-9]{2}:[0-9]{2}(:[0-9]{2})?",  // a local time of day: history's 18:02 or 18:02:11
        "epoch-ms": "[0-9]{13}",  // 410 timestamps, milliseconds since 1970
        "days": "-?[0-9]+",
        "pid": "[0-9]+",
        "port": "[0-9]{1,5}",
        "serial": "[0-9A-Fa-f]{2}([0-9A-Fa-f]{2})*",
        "sha256": "[0-9a-f]{64}",  // certificate fingerprints
        "jwt": "eyJ[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+",
        "key-id": "[A-Z0-9]{10}",
        "team-id": "[A-Z0-9]{10}",
        "channel-id": "[A-Za-z0-9+/=]{8,}",
        "path": "/[^ \"']+",
    ]

    /// The regular expression a documented line stands for, or an error naming an unknown placeholder.
    public static func pattern(for line: String) throws -> NSRegularExpression {
        var pattern = "^"
        var rest = Substring(line)
        while let open = rest.range(of: "{{") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open.lowerBound]))
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw TestSupportError("unclosed placeholder `{{` (write `}}` after the kind)")
            }
            let kind = String(rest[open.upperBound..<close.lowerBound])
            guard let kindPattern = kinds[kind] else {
                throw TestSupportError(
                    "unknown placeholder {{\(kind)}}; known: \(kinds.keys.sorted().joined(separator: ", "))")
            }
            pattern += "(?:" + kindPattern + ")"
            rest = rest[close.upperBound...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        return try NSRegularExpression(pattern: pattern)
    }

    /// Whether `actual` is what the documented `expected` line shows.
    public static func matches(_ expected: String, _ actual: String) throws -> Bool {
        if !expected.contains("{{") { return expected == actual }
        let regex = try pattern(for: expected)
        return regex.firstMatch(in: actual, range: NSRange(actual.startIndex..., in: actual)) != nil
    }
}
