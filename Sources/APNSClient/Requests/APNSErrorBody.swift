import APNSCore

/// Reads `reason` and `timestamp` out of an APNs error body or GOAWAY debug data with the shared
/// JSON reader. The body is untrusted: a missing or odd field just means "not given", never a failure.
public enum APNSErrorBody {
    /// The string value of the top-level `reason` key, or nil.
    public static func reason(in bytes: [UInt8]) -> String? {
        guard let root = try? JSONReader.parse(bytes), let reason = root["reason"]?.string else { return nil }
        return PrintableText.line(Array(reason.utf8), limit: 120)
    }

    /// The integer `timestamp` (milliseconds since the epoch on a 410), or nil.
    public static func timestamp(in bytes: [UInt8]) -> Int64? {
        guard let root = try? JSONReader.parse(bytes), let n = root["timestamp"]?.number,
              n.isIntegerLiteral, let value = Int64(n.literal) else { return nil }
        return value
    }

    /// What a GOAWAY or error body says: the JSON `reason`, else the bytes as text, nil when empty.
    public static func explanation(of bytes: [UInt8]) -> String? {
        if let r = reason(in: bytes) { return r }
        let text = PrintableText.line(bytes)
        return text.isEmpty ? nil : text
    }
}
