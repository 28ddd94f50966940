import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings
import ArgumentParser

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
    @Option(
        name: [.customShort("e"), .setting(.env)],
        help: ArgumentHelp(Environments.help, valueName: Environments.names.joined(separator: "|")),
        completion: .list(Environments.names), transform: SettingArgument.transform(.env, Environments.command))
    var env: SettingValue?

    @Option(
        name: .setting(.endpoint),
        help: ArgumentHelp(
            "Send to this https://host:port instead of Apple's host (the mock, a proxy under test). Repeatable as sandbox=URL and production=URL to set each environment's server.",
            valueName: "url"))
    var endpoint: [String] = []

    @Option(
        name: .setting(.port),
        help: ArgumentHelp(
            "Port on Apple's host: 443 (default) or 2197, Apple's alternative for firewalls that block 443. Ignored with --endpoint.",
            valueName: "443|2197"),
        completion: .list(["443", "2197"]), transform: SettingArgument.transform(.port, Environments.command))
    var port: SettingValue?

    @Option(
        name: .setting(.proxy),
        help: ArgumentHelp(
            "Tunnel through this proxy: http://[user:pass@]host:port (HTTP CONNECT) or socks5h://[user:pass@]host:port (socks5:// resolves the APNs host locally). Default: https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY, as curl reads them; \"\" for none.",
            valueName: "url"))
    var proxy: String?

    @Option(
        name: .setting(.noproxy),
        help: ArgumentHelp(
            "Hosts to reach without the proxy, as curl's --noproxy: comma-separated names (each matches its subdomains too), .suffix, IP addresses or CIDR, or * for all. Replaces NO_PROXY/no_proxy.",
            valueName: "list"))
    var noProxy: String?

    @Option(
        name: .setting(.caFile),
        help: ArgumentHelp(
            "Trust this PEM CA bundle for the server certificate (default: the system trust store).", valueName: "file"),
        completion: .file())
    var caFile: String?

    @Flag(
        name: .setting(.insecure),
        help: "Do not verify the server certificate (prints a warning; for local tests only).")
    var insecure = false

    @Option(
        name: .setting(.concurrency),
        help: ArgumentHelp(
            "Streams in flight on the one connection, 1 to 1000 (default: the server's limit, at most 1000).",
            valueName: "n",
            visibility: Environments.offersConcurrency ? .default : .private),
        transform: SettingArgument.transform(.concurrency, Environments.command))
    var concurrency: SettingValue?

    @Option(
        name: .setting(.timeout),
        help: ArgumentHelp(
            "Seconds allowed for connecting and for each wait for an answer (default 30).", valueName: "seconds"),
        transform: SettingArgument.transform(.timeout, Environments.command))
    var timeout: SettingValue?

    /// Warns (stderr) when `--endpoint` names URLs only for other environments than some environment this run
    /// sends to: `--env production --endpoint sandbox=URL` would otherwise go to Apple's real production host
    /// without a word.
    /// `appleHosts`: the names of Apple's host of each environment for what this command sends (device pushes',
    /// or channel management's). `certificate`: the certificate sent with, whose environments bound the advice.
    static func warnAboutEndpoints(
        _ endpoints: PushEndpoints, using used: [(APNSEnvironment, PushEndpoint)], label: String = "--endpoint",
        appleHosts: (APNSEnvironment) -> [String] = \.appleHosts, certificate: CertificateInfo? = nil,
        in world: CommandWorld
    ) {
        if let text = endpointWarning(endpoints, using: used, label: label) { world.standardError.warning(text) }
        if let text = otherAppleHostWarning(
            using: used, label: label, appleHosts: appleHosts, certificate: certificate)
        {
            world.standardError.warning(text)
        }
    }

    /// An endpoint that is Apple's host for the other environment than the one it serves here (`--endpoint
    /// https://api.push.apple.com` with `--env sandbox`): the requests reach that environment, whose answers
    /// (BadDeviceToken, BadCertificateEnvironment) would then seem to blame the token or the certificate.
    static func otherAppleHostWarning(
        using used: [(APNSEnvironment, PushEndpoint)], label: String,
        appleHosts: (APNSEnvironment) -> [String] = \.appleHosts, certificate: CertificateInfo? = nil
    ) -> String? {
        for (environment, endpoint) in used {
            var host = endpoint.host.lowercased()
            if host.hasSuffix(".") { host.removeLast() }
            guard
                let reached = APNSEnvironment.allCases.first(where: {
                    $0 != environment && appleHosts($0).contains(host)
                })
            else { continue }
            // `--env` to the host's environment is advice only where the certificate may go there.
            let refused =
                certificate.map { $0.isApplePush && !$0.environments.isEmpty && !$0.environments.contains(reached) }
                ?? false
            let orEnv = refused ? "" : ", or pass --env \(reached.rawValue) if \(reached.rawValue) is meant"
            return "\(label) \(endpoint.url) is Apple's \(reached.rawValue) host, so these \(environment.rawValue) "
                + "requests reach \(reached.rawValue), which refuses \(environment.rawValue) device tokens and "
                + "certificates; leave the endpoint out (Apple's host for the environment is the default)\(orEnv)"
        }
        return nil
    }

    /// The warning's text, nil when every environment used has its `--endpoint` (or none was given).
    /// `label` names where the endpoints came from (`--endpoint`, `APNSCTL_ENDPOINT`, a profile's line).
    static func endpointWarning(
        _ endpoints: PushEndpoints, using used: [(APNSEnvironment, PushEndpoint)], label: String = "--endpoint"
    ) -> String? {
        guard endpoints.all == nil, !endpoints.byEnvironment.isEmpty else { return nil }
        let uncovered = used.filter { endpoints.byEnvironment[$0.0] == nil }
        guard let (environment, endpoint) = uncovered.first else { return nil }
        let given = APNSEnvironment.allCases.filter { endpoints.byEnvironment[$0] != nil }
        let names = given.map(\.rawValue).joined(separator: " and ")
        let switchEnv = given.count == 1 && used.count == 1 ? "pass --env \(given[0].rawValue) to use it, or " : ""
        let add =
            label == "--endpoint"
            ? "add --endpoint \(environment.rawValue)=URL" : "add \(environment.rawValue)=URL to \(label)"
        return "\(label) gives a URL for \(names) only, so \(environment.rawValue) requests go to \(endpoint.url); "
            + "\(switchEnv)\(add)"
    }
}
