import APNSCore

/// Reads `reason` and `timestamp` out of an APNs error body or GOAWAY debug data with the shared
/// JSON reader. The body is untrusted: a missing or odd field just means "not given", never a failure.
public enum APNSErrorBody {
    /// The string value of the top-level `reason` key, or nil.
    public static func reason(in bytes: [UInt8]) -> String? {
        guard let root = try? JSONReader.parse(bytes), let reason = root["reason"]?.string else { return nil }
        return printable(Array(reason.utf8), limit: 120)
    }

    /// The integer `timestamp` (milliseconds since the epoch on a 410), or nil.
    public static func timestamp(in bytes: [UInt8]) -> Int64? {
        guard let root = try? JSONReader.parse(bytes), let n = root["timestamp"]?.number,
              n.isIntegerLiteral, let value = Int64(n.literal) else { return nil }
        return value
    }

    /// Bytes from the network as one printable line: control characters become spaces, whitespace is
    /// trimmed and long text cut, so a hostile server cannot garble the terminal.
    public static func printable(_ bytes: [UInt8], limit: Int = 200) -> String {
        let decoded = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
        var text = String(String.UnicodeScalarView(decoded.unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F || ($0.value >= 0x80 && $0.value < 0xA0) ? " " : $0
        }))
        while text.hasPrefix(" ") { text.removeFirst() }
        while text.hasSuffix(" ") { text.removeLast() }
        if text.count > limit { text = String(text.prefix(limit)) + "…" }
        return text
    }

    /// What a GOAWAY or error body says: the JSON `reason`, else the bytes as text, nil when empty.
    public static func explanation(of bytes: [UInt8]) -> String? {
        if let r = reason(in: bytes) { return r }
        let text = printable(bytes)
        return text.isEmpty ? nil : text
    }
}
