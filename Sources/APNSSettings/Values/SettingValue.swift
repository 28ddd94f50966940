import APNSClient
import APNSCore

/// `--env`'s value: one environment, or `auto` (send: sandbox first, then production for BadDeviceToken), or
/// `both` (doctor probes the two).
public enum EnvironmentChoice: Sendable, Equatable {
    case one(APNSEnvironment)
    case auto
    case both

    public var name: String {
        switch self {
        case .one(let e): return e.rawValue
        case .auto: return "auto"
        case .both: return "both"
        }
    }
}

/// How results are printed: text for people, JSON Lines for scripts.
public enum OutputFormat: String, Sendable, Equatable, CaseIterable {
    case text
    case json
}

/// When status words are coloured.
public enum ColorChoice: String, Sendable, Equatable, CaseIterable {
    case auto
    case always
    case never
}

/// A setting's typed value. One case per `SettingKind`; `display` is what `-v` and `config show` print.
public enum SettingValue: Sendable, Equatable {
    case text(String)
    case path(String)
    case credential(CredentialSource)
    case boolean(Bool)
    case environment(EnvironmentChoice)
    /// The parsed endpoints and the values as given (for display).
    case endpoints(PushEndpoints, [String])
    case integer(Int)
    case seconds(Double)
    case pushType(PushType)
    case priority(Priority)
    /// As written; `RequestDefaults.expiration` turns it into a UNIX time when the request is built.
    case expiration(String)
    case outputFormat(OutputFormat)
    case color(ColorChoice)
    case storage(String)
    /// A proxy URL (empty: no proxy). Displayed without its password.
    case proxy(String)
    /// A duration in seconds, with its text.
    case duration(Int64, String)
    /// A secret: only ever displayed as `(hidden)`.
    case secret(String)

    /// For `-v` and `config show`: never a secret, never a proxy password, never PEM text.
    public var display: String {
        switch self {
        case .text(let s), .path(let s), .expiration(let s), .storage(let s): return s
        case .credential(let c): return c.displayName
        case .boolean(let b): return b ? "true" : "false"
        case .environment(let e): return e.name
        case .endpoints(_, let given): return given.map(URLPassword.masked).joined(separator: ",")
        case .integer(let n): return String(n)
        case .seconds(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .pushType(let t): return t.rawValue
        case .priority(let p): return String(p.rawValue)
        case .outputFormat(let f): return f.rawValue
        case .color(let c): return c.rawValue
        case .proxy(let url):
            if url.isEmpty { return "(none)" }
            return (try? ProxyServer(url: url))?.description ?? "(proxy URL)"
        case .duration(_, let text): return text
        case .secret: return "(hidden)"
        }
    }
}
