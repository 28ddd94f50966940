import APNSCore

/// Where notifications go: Apple's host for an environment, or a `--endpoint https://host:port`
/// (the mock, a proxy under test). Parsed once, so the connection, the `:authority` header, the
/// results' `endpoint` field and the dry-run curl command all agree.
public struct PushEndpoint: Sendable, Equatable {
    /// Host name or IP literal, without brackets.
    public let host: String
    public let port: Int
    /// `host:port` for `:authority` (IPv6 in brackets): made once, as every request and result line uses it.
    public let authority: String
    /// `https://host:port`, as results show it (IPv6 in brackets).
    public let url: String

    /// An endpoint from its parts.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
        authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        url = "https://" + authority
    }

    /// Apple's endpoint for `environment` (port 443).
    public init(environment: APNSEnvironment) {
        self.init(host: environment.host, port: 443)
    }

    /// Why an endpoint was refused. `shown` is the value as messages may quote it (a password masked); the
    /// message says what shape is expected.
    public enum Problem: Error, Equatable, Sendable {
        /// A scheme other than https.
        case unsupportedScheme(shown: String, scheme: String)
        /// No scheme at all.
        case notAURL(shown: String)
        /// A path, query or fragment.
        case hasPath(shown: String)
        /// User info before the host.
        case hasUserInfo(shown: String)
        /// The host part does not split into host and port.
        case badAddress(shown: String, AddressProblem)
        /// The port is not a number from 1 to 65535.
        case badPort(shown: String)
        /// `ENV=URL` with a name that is no environment.
        case notAnEnvironment(argument: String, name: String)
        /// A second URL for the same environment.
        case givenTwice(argument: String, APNSEnvironment)
        /// A second URL for every environment.
        case secondBareURL(argument: String)
        /// Two URLs in one value, joined by a comma.
        case commaJoined(shown: String)

        public var message: String {
            let expected = "give https://host:port, e.g. https://127.0.0.1:2197"
            switch self {
            case .unsupportedScheme(let shown, let scheme):
                return "\(shown): scheme \(scheme) is not supported (APNs needs TLS); \(expected)"
            case .notAURL(let shown): return "\(shown): not a URL; \(expected)"
            case .hasPath(let shown):
                return "\(shown): must not have a path, query or fragment (requests always go to "
                    + "/3/device/<token>); \(expected)"
            case .hasUserInfo(let shown): return "\(shown): user names are not supported; \(expected)"
            case .badAddress(let shown, let problem): return "\(shown): \(problem.text); \(expected)"
            case .badPort(let shown): return "\(shown): the port must be a number from 1 to 65535; \(expected)"
            case .notAnEnvironment(let argument, let name):
                return
                    "\(argument): \(name) is not an environment; give sandbox=URL or production=URL, or a bare URL for both"
            case .givenTwice(let argument, let environment):
                return "\(argument): \(environment.rawValue) was given twice; give one URL per environment"
            case .secondBareURL(let argument):
                return "\(argument): a second bare URL; give one, or sandbox=URL and production=URL"
            case .commaJoined(let shown):
                return
                    "\(shown): two URLs joined by a comma; give each as its own value, sandbox=URL and production=URL"
            }
        }
    }

    /// Parses `https://host:port` (port optional, default 443; IPv6 in brackets). Other schemes, paths,
    /// queries and user info are refused: requests always go to `/3/device/<token>`.
    public init(url given: String) throws(Problem) {
        // Blanks around it (a quoted `" https://…"`, a secret store's trailing line break) are no part of a URL, as
        // for a proxy URL.
        let url = given.trimmingBlanks()
        // A password given by mistake is never quoted, nor a value too long or with a line break to quote.
        let shown = VariableEcho.mayEcho(url) ? URLPassword.masked(url) : VariableEcho.shown(url)
        guard url.lowercased().hasPrefix("https://") else {
            let scheme = url.split(separator: ":", maxSplits: 1).first.map(String.init) ?? shown
            if url.contains("://") { throw .unsupportedScheme(shown: shown, scheme: scheme) }
            throw .notAURL(shown: shown)
        }
        var rest = Substring(url.dropFirst("https://".count))
        // `https://a:1,https://b:2` or `…,production=https://b:2` (APNSCTL_ENDPOINT's list pasted into one value)
        // would read as a host with a path.
        if let comma = rest.firstIndex(of: ",") {
            let next = rest[rest.index(after: comma)...].drop { $0 == " " }.lowercased()
            if ["https://", "sandbox=", "production="].contains(where: next.hasPrefix) {
                throw .commaJoined(shown: shown)
            }
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.contains("/") || rest.contains("?") || rest.contains("#") { throw .hasPath(shown: shown) }
        if rest.contains("@") { throw .hasUserInfo(shown: shown) }
        let parts: HostAndPort
        switch HostAndPort.split(rest) {
        case .success(let p): parts = p
        case .failure(let problem): throw .badAddress(shown: shown, problem)
        }
        guard let port = parts.port(default: 443) else { throw .badPort(shown: shown) }
        self.init(host: String(parts.host), port: port)
    }
}
