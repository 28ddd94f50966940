/// Payload byte limits APNs has had, and parsing of `--size-limit`.
public enum SizeLimit {
    /// HTTP/2 API, every type but VoIP.
    public static let http2 = 4096
    /// HTTP/2 API, VoIP.
    public static let voip = 5120

    /// Parses `256`, `2k`, `4k`, `5k`, `4096` (case-insensitive `k` = 1024). Nil when not a positive count.
    public static func parse(_ text: String) -> Int? {
        var body = Substring(text.lowercased())
        var factor = 1
        if body.hasSuffix("kb") {
            body = body.dropLast(2)
            factor = 1024
        } else if body.hasSuffix("k") {
            body = body.dropLast()
            factor = 1024
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && $0.isNumber }),
            let n = Int(body), n > 0, n <= 1 << 24
        else { return nil }
        return n * factor
    }
}
