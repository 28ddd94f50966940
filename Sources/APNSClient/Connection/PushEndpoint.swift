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

    /// Why `--endpoint` was refused; the message says what shape is expected.
    public struct Problem: Error, Equatable, Sendable {
        public let message: String
    }

    /// Parses `https://host:port` (port optional, default 443; IPv6 in brackets). Other schemes, paths,
    /// queries and user info are refused: requests always go to `/3/device/<token>`.
    public init(url: String) throws(Problem) {
        let expected = "give https://host:port, e.g. https://127.0.0.1:2197"
        // A password given by mistake is never quoted, nor a value too long or with a line break to quote.
        let shown = VariableEcho.mayEcho(url) ? URLPassword.masked(url) : VariableEcho.shown(url)
        guard url.lowercased().hasPrefix("https://") else {
            let scheme = url.split(separator: ":", maxSplits: 1).first.map(String.init) ?? shown
            if url.contains("://") {
                throw Problem(message: "\(shown): scheme \(scheme) is not supported (APNs needs TLS); \(expected)")
            }
            throw Problem(message: "\(shown): not a URL; \(expected)")
        }
        var rest = Substring(url.dropFirst("https://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.contains("/") || rest.contains("?") || rest.contains("#") {
            throw Problem(message: "\(shown): must not have a path (requests always go to /3/device/<token>); \(expected)")
        }
        if rest.contains("@") { throw Problem(message: "\(shown): user names are not supported; \(expected)") }
        let parts: HostAndPort
        switch HostAndPort.split(rest) {
        case .success(let p): parts = p
        case .failure(let problem): throw Problem(message: "\(shown): \(problem.text); \(expected)")
        }
        guard let port = parts.port(default: 443) else {
            throw Problem(message: "\(shown): the port must be a number from 1 to 65535; \(expected)")
        }
        self.init(host: String(parts.host), port: port)
    }
}
