import APNSCore

/// APNs' own body check beyond size: the payload must be a JSON object. The `aps` rules are the validator's
/// business (APNs does not enforce them), so the mock deliberately does not run them.
enum MockBody {
    /// Whether `body` parses as JSON with an object at the top level.
    static func isJSONObject(_ body: [UInt8]) -> Bool {
        guard let value = try? JSONReader.parse(body) else { return false }
        return value.isObject
    }
}
