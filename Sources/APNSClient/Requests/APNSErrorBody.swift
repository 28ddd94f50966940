import APNSCore

/// `reason` and `timestamp` read out of an APNs error body or GOAWAY debug data with the shared JSON reader,
/// in one parse. The body is untrusted: a missing or odd field just means "not given", never a failure.
public struct APNSErrorBody: Sendable, Equatable {
    /// The string value of the top-level `reason` key as one line, not escaped (each printer escapes it: text with
    /// `PrintableText.escapingControls`, JSON as JSON does).
    public let reason: String?
    /// The integer `timestamp` (milliseconds since the epoch on a 410).
    public let timestamp: Int64?

    /// The fields of `bytes` (both nil when it is not a JSON object).
    public init(_ bytes: [UInt8]) {
        guard let root = try? JSONReader.parse(bytes) else {
            reason = nil
            timestamp = nil
            return
        }
        reason = root["reason"]?.string.map { PrintableText.unescapedLine($0, limit: 120) }
        if let n = root["timestamp"]?.number, n.isIntegerLiteral, let value = Int64(n.literal) {
            timestamp = value
        } else {
            timestamp = nil
        }
    }

    /// The string value of the top-level `reason` key, or nil.
    public static func reason(in bytes: [UInt8]) -> String? { APNSErrorBody(bytes).reason }

    /// What a GOAWAY or error body says, as one line (escaped where it is printed): the JSON `reason`, else the
    /// bytes as text, nil when empty.
    public static func explanation(of bytes: [UInt8]) -> String? {
        if let r = reason(in: bytes) { return r }
        let text = PrintableText.unescapedLine(bytes)
        return text.isEmpty ? nil : text
    }
}
