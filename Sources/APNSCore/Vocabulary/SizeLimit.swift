/// Payload byte limits APNs has had, and parsing of `--size-limit`.
public enum SizeLimit {
    /// HTTP/2 API, every type but VoIP.
    public static let http2 = 4096
    /// HTTP/2 API, VoIP.
    public static let voip = 5120

    /// The largest limit that means anything: no input larger is read at all (it is `FileSystem.maximumReadSize`,
    /// the one figure for both).
    public static let largest = 64 << 20

    /// Why a `--size-limit` text is no limit.
    public enum Refusal: Error, Equatable, Sendable {
        /// Not digits with an optional `k`/`kb` (`abc`, `1e3`, `-5`, `1.5k`).
        case notACount
        /// `0` (or `0k`): no payload fits.
        case zero
        /// More bytes than `largest`.
        case overLargest
    }

    /// Reads `256`, `2k`, `4k`, `5k`, `4096` (case-insensitive `k` or `kb` = 1024), from 1 to `largest` bytes.
    public static func reading(_ text: String) -> Result<Int, Refusal> {
        var body = Substring(text.lowercased())
        var factor = 1
        if body.hasSuffix("kb") {
            body = body.dropLast(2)
            factor = 1024
        } else if body.hasSuffix("k") {
            body = body.dropLast()
            factor = 1024
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .failure(.notACount) }
        // Digits past Int are past `largest` too.
        guard let n = Int(body), n <= largest / factor else { return .failure(.overLargest) }
        return n == 0 ? .failure(.zero) : .success(n * factor)
    }

    /// `reading`'s bytes; nil when the text is no limit.
    public static func parse(_ text: String) -> Int? { try? reading(text).get() }
}
