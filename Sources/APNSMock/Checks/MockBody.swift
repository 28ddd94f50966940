import APNSCore

/// APNs' own body check beyond size: the payload must be a JSON object. The `aps` rules are the validator's
/// business (APNs does not enforce them), so the mock deliberately does not run them.
enum MockBody {
    /// Whether `body` parses as JSON with an object at the top level.
    static func isJSONObject(_ body: [UInt8]) -> Bool {
        guard let value = try? JSONReader.parse(body) else { return false }
        return value.isObject
    }

    /// A Live Activity body's `aps.event`, cut short, for the log line (whose JSON escapes it), nil without one.
    static func liveActivityEvent(_ body: [UInt8]) -> String? {
        guard let event = (try? JSONReader.parse(body))?["aps"]?["event"]?.string else { return nil }
        return String(event.prefix(40))
    }
}
