import APNSClient
import APNSCore
import ArgumentParser
import APNSPlatform

/// `send`'s connection flags, `--env auto` included.
typealias SendConnectionOptions = ConnectionOptions<SendEnvironments>
/// `channel`'s connection flags: one environment per request, so `--env` offers no `auto`.
typealias ChannelConnectionOptions = ConnectionOptions<SingleEnvironments>
/// `doctor`'s connection flags: `--env both`, and no `--concurrency` (refused when given).
typealias DoctorConnectionOptions = ConnectionOptions<DoctorEnvironments>

/// `send`'s connection flags: where to connect (environment, endpoint, port, proxy), whom to trust, how
/// patient and how parallel to be. Commands that connect elsewhere (`channel`) reuse the group, so
/// `--endpoint`, `--proxy` and the proxy variables mean the same everywhere; only `--env`'s allowed values
/// (its help and completion) differ, chosen by `Environments`.
struct ConnectionOptions<Environments: EnvironmentChoices>: ParsableArguments {
    @Option(name: [.customShort("e"), .customLong("env")],
            help: ArgumentHelp(Environments.help, valueName: Environments.names.joined(separator: "|")),
            completion: .list(Environments.names))
    var environment: String?

    @Option(name: .customLong("endpoint"),
            help: ArgumentHelp("Send to this https://host:port instead of Apple's host (the mock, a proxy under test). Repeatable as sandbox=URL and production=URL to set each environment's server (--env auto).", valueName: "url"))
    var endpoints: [String] = []

    @Option(name: .customLong("port"),
            help: ArgumentHelp("Port on Apple's host: 443 (default) or 2197, Apple's alternative for firewalls that block 443. Ignored with --endpoint.", valueName: "443|2197"),
            completion: .list(["443", "2197"]))
    var port: Int?

    @Option(name: .customLong("proxy"),
            help: ArgumentHelp("Tunnel through this proxy: http://[user:pass@]host:port (HTTP CONNECT) or socks5h://[user:pass@]host:port (socks5:// resolves the APNs host locally). Default: https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY, as curl reads them; \"\" for none.", valueName: "url"))
    var proxy: String?

    @Option(name: .customLong("noproxy"),
            help: ArgumentHelp("Hosts to reach without the proxy, as curl's --noproxy: comma-separated names (each matches its subdomains too), .suffix, IP addresses or CIDR, or * for all. Replaces NO_PROXY/no_proxy.", valueName: "list"))
    var noProxy: String?

    @Option(name: .customLong("ca-file"),
            help: ArgumentHelp("Trust this PEM CA bundle for the server certificate (default: the system trust store).", valueName: "file"), completion: .file())
    var caFile: String?

    @Flag(name: .customLong("insecure"), help: "Do not verify the server certificate (prints a warning; for local tests only).")
    var insecure = false

    @Option(name: .customLong("concurrency"),
            help: ArgumentHelp("Streams in flight on the one connection, 1 to 1000 (default: the server's limit, at most 1000).", valueName: "n",
                               visibility: Environments.offersConcurrency ? .default : .private))
    var concurrency: Int?

    @Option(name: .customLong("timeout"),
            help: ArgumentHelp("Seconds allowed for connecting and for each wait for an answer (default 30).", valueName: "seconds"))
    var timeout: Double?

    /// `--env auto`: try the default environment, then the other one for `BadDeviceToken`.
    var isAutoEnvironment: Bool { environment?.lowercased() == "auto" }

    /// `--env`, checked; nil when not given or `auto`.
    func parsedEnvironment() throws(CLIError) -> APNSEnvironment? {
        guard let environment, !isAutoEnvironment else { return nil }
        guard let e = APNSEnvironment(userValue: environment) else {
            throw .usage("--env \(JSONWriter.quoted(environment)): unknown environment; use sandbox (development), production or auto")
        }
        return e
    }

    /// Every `--endpoint`, checked (bare, or per environment).
    func parsedEndpoints() throws(CLIError) -> PushEndpoints {
        do { return try PushEndpoints(arguments: endpoints) } catch { throw .usage("--endpoint " + error.message) }
    }

    /// Warns (stderr) when `--endpoint` names URLs only for other environments than some environment this run
    /// sends to: `--env production --endpoint sandbox=URL` would otherwise go to Apple's real production host
    /// without a word.
    static func warnAboutEndpoints(_ endpoints: PushEndpoints, using used: [(APNSEnvironment, PushEndpoint)]) {
        if let text = endpointWarning(endpoints, using: used) { StandardStreams.warning(text) }
    }

    /// The warning's text, nil when every environment used has its `--endpoint` (or none was given).
    static func endpointWarning(_ endpoints: PushEndpoints, using used: [(APNSEnvironment, PushEndpoint)]) -> String? {
        guard endpoints.all == nil, !endpoints.byEnvironment.isEmpty else { return nil }
        let uncovered = used.filter { endpoints.byEnvironment[$0.0] == nil }
        guard let (environment, endpoint) = uncovered.first else { return nil }
        let given = APNSEnvironment.allCases.filter { endpoints.byEnvironment[$0] != nil }
        let names = given.map(\.rawValue).joined(separator: " and ")
        let switchEnv = given.count == 1 && used.count == 1 ? "pass --env \(given[0].rawValue) to use it, or " : ""
        return "--endpoint gives a URL for \(names) only, so \(environment.rawValue) requests go to \(endpoint.url); "
            + "\(switchEnv)add --endpoint \(environment.rawValue)=URL"
    }

    /// `--port`, checked: Apple serves device pushes on 443 and 2197 only. Warns when `--endpoint`
    /// makes it moot (the endpoint carries its own port).
    func parsedPort(endpoints: PushEndpoints) throws(CLIError) -> Int {
        guard let port else { return 443 }
        guard port == 443 || port == 2197 else {
            throw .usage("--port \(port): Apple's push hosts listen on 443 and 2197 only; give one of those, or --endpoint https://host:port for another server")
        }
        if !endpoints.isEmpty {
            StandardStreams.warning("--port \(port) is ignored with --endpoint, which carries its own port")
        }
        return port
    }

    /// The proxy for connections to `endpoint`: `--proxy`, else curl's variables, minus `--noproxy` or
    /// `NO_PROXY` exemptions. A malformed URL is a usage error naming the flag or variable (never the password).
    func proxySelection(for endpoint: PushEndpoint,
                        environment: [String: String] = proxyEnvironment()) throws(CLIError) -> ProxySelection {
        do {
            return try ProxySelection.choose(for: endpoint.host, explicit: proxy, noProxy: noProxy, environment: environment,
                                             explicitLabel: "--proxy", noProxyLabel: "--noproxy")
        }
        catch { throw .usage(error.message) }
    }

    /// The variables `ProxySelection` reads, from this process's environment.
    static func proxyEnvironment() -> [String: String] {
        var out: [String: String] = [:]
        for name in ProxySelection.proxyVariables + ProxySelection.noProxyVariables {
            if let v = Environment.value(name) { out[name] = v }
        }
        return out
    }

    /// Range checks for the numeric flags.
    func checkNumbers() throws(CLIError) {
        if let concurrency, concurrency < 1 || concurrency > SenderConfiguration.maximumConcurrency {
            throw .usage("--concurrency \(concurrency): must be from 1 to \(SenderConfiguration.maximumConcurrency)")
        }
        guard let timeout else { return }
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw .usage("--timeout \(timeout): must be a number of seconds above 0 (and at most a day)")
        }
    }
}
