/// Which APNs service a push goes to. Tokens from debug builds only work in sandbox.
public enum APNSEnvironment: String, CaseIterable, Sendable, Codable {
    case sandbox
    case production

    /// Apple's host for device pushes.
    public var host: String {
        switch self {
        case .sandbox: return "api.sandbox.push.apple.com"
        case .production: return "api.push.apple.com"
        }
    }

    /// Every name of Apple's host for device pushes: `host`, and for sandbox the older alias Apple's own openssl
    /// example and Knuff use (APNS.md §1).
    public var appleHosts: [String] {
        switch self {
        case .sandbox: return [host, "api.development.push.apple.com"]
        case .production: return [host]
        }
    }

    /// `https://host:443`, as shown in results.
    public var endpoint: String { "https://\(host):443" }

    /// Accepts the spellings users type: `development`/`dev` mean sandbox, `prod` production.
    public init?(userValue: String) {
        switch userValue.lowercased() {
        case "sandbox", "development", "dev", "develop": self = .sandbox
        case "production", "prod": self = .production
        default: return nil
        }
    }
}
