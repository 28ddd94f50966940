import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// Where a resolved command connects and whom it trusts: the resolved `env`, `endpoint`, `port`, `proxy`,
/// `noproxy`, `ca-file`, `insecure`, `timeout` and `concurrency` turned into the sender's types. Warnings and
/// errors name each value's origin (a flag, a variable or a profile line).
extension ResolvedSettings {
    /// `env` when it names one environment; nil for the default or `auto`.
    var explicitEnvironment: APNSEnvironment? {
        if case .one(let e)? = self[.env]?.value { return e }
        return nil
    }

    /// The `mock.json` of the mock whose environment `env` is (the mock profiles set it from the mock), or nil
    /// when `env` came from anywhere else.
    var mockReadyFile: String? {
        if case .mock(_, let file)? = self[.env]?.origin { return file }
        return nil
    }

    /// `env auto`: the default environment first, then the other for `BadDeviceToken`.
    var isAutoEnvironment: Bool { self[.env]?.value == .auto }

    /// Every `endpoint` (none: Apple's hosts).
    var endpointList: PushEndpoints { self[.endpoint]?.value ?? PushEndpoints() }

    /// Credentials typed on the command line (to reach Apple, as the README shows) going to a server a profile or a
    /// variable names (a default profile made for the mock): its rejection would blame the user's real key, so the
    /// server is named first. Nil when the endpoint was typed too, is Apple's, or the profile gave the credentials.
    /// A profile chosen by name (`-p`, `APNSCTL_PROFILE`) is the user's choice of server: only the settings file's
    /// `default-profile` (the built-in mock's too) is one the user may not have in mind. Apple's hosts, in any letter
    /// case and either environment, are APNs.
    func serverFromElsewhereWarning(_ endpoint: PushEndpoint, environment: APNSEnvironment) -> String? {
        guard let origin = self[.endpoint]?.origin, !endpoint.host.lowercased().hasSuffix("push.apple.com") else {
            return nil
        }
        switch origin {
        case .variable: break
        case .profile, .mock:
            guard case .profile? = profile?.origin else { return nil }
        default: return nil
        }
        let typed = [self[.cert]?.origin, self[.authKey]?.origin].contains {
            if case .flag? = $0 { return true } else { return false }
        }
        guard typed else { return nil }
        let instead =
            if case .variable = origin {
                "unset it"
            } else if let name = profile?.value, case .profile? = profile?.origin {
                "choose a profile without an endpoint (-p NAME), or none: \(location.configCommand("unset")) default-profile (profile \(name) stays)"
            } else {
                "unset it"
            }
        return "sending to \(endpoint.url) (\(label(.endpoint))), not to APNs, with the credentials given on the "
            + "command line; to reach Apple, \(instead)"
    }

    /// `port` (443 by default): one Apple's hosts listen on (64 otherwise, CLI.md); with an endpoint, which
    /// carries its own port, any port is only a warning that it is ignored.
    func checkedPort(endpoints: PushEndpoints, in world: CommandWorld) throws(CLIError) -> Int {
        guard let port = self[.port] else { return 443 }
        if let warning = ignoredPortWarning(endpoints: endpoints) {
            world.standardError.warning(warning)
            return port.value
        }
        guard port.value == 443 || port.value == 2197 else {
            throw .usage(
                "\(label(.port)) \(port.value): Apple's push hosts listen on 443 and 2197 only; give one of those, or an endpoint https://host:port for another server"
            )
        }
        return port.value
    }

    /// A port given beside an endpoint, which carries its own (443 when its URL names none): not used, said by
    /// send and doctor and by `config show`, whose row would otherwise claim it.
    func ignoredPortWarning(endpoints: PushEndpoints) -> String? {
        guard let port = self[.port], !endpoints.isEmpty else { return nil }
        return "\(label(.port)) \(port.value) is ignored with \(label(.endpoint)), which carries its own port "
            + "(443 when its URL names none)"
    }

    /// A `ca-file` that does not exist: 66 naming where it was given (64 for `-`: it is no stream).
    func checkCAFile(in world: CommandWorld) throws(CLIError) {
        guard let caFile = self[.caFile]?.value else { return }
        if let dash = CLIError.fileOnly(label(.caFile), caFile, what: "the CA bundle") { throw dash }
        // `/dev/stdin` is a path, read when connecting; on a terminal it would wait there without a word.
        if FileSystem.namesStandardInput(caFile), world.streams.isTerminal(world.standardInput) {
            throw .usage(
                "\(label(.caFile)) \(caFile): standard input is a terminal, and the CA bundle would be awaited there "
                    + "without a word when connecting; save the bundle to a file and give that file's path")
        }
        if !FileSystem.exists(caFile) {
            let hint = FileSystem.missingPathHint(caFile)
            throw .inputMissing(
                "\(VariableEcho.shownPath("\(label(.caFile)) \(caFile)")): no such file"
                    + (hint.isEmpty ? "; check the path" : hint))
        }
    }

    /// The proxy for connections to `endpoint`: the resolved `proxy` (a flag, `APNSCTL_PROXY`, a profile, or
    /// curl's variables as the default), minus `noproxy` exemptions.
    func proxySelection(for endpoint: PushEndpoint) throws(CLIError) -> ProxySelection {
        do {
            return try ProxySelection.choose(
                for: endpoint.host, proxy: self[.proxy]?.value, noProxy: self[.noproxy]?.value,
                proxyLabel: label(.proxy), noProxyLabel: label(.noproxy))
        } catch { throw .usage(error.message) }
    }

    /// For commands that talk to one environment (`channel`, `send --channel`): `env auto` is refused, and the
    /// endpoint is an explicit one (bare or for `environment`) or `defaultEndpoint`, with its proxy.
    func singleRoute(
        environment: APNSEnvironment, command: String, in world: CommandWorld,
        defaultEndpoint: (APNSEnvironment) -> PushEndpoint
    ) throws(CLIError) -> (endpoint: PushEndpoint, proxy: ProxySelection) {
        if isAutoEnvironment {
            throw .usage(
                "\(label(.env)) auto: only device pushes try both environments; give \(command) --env sandbox or --env production"
            )
        }
        let endpoints = endpointList
        let endpoint = endpoints.explicit(for: environment) ?? defaultEndpoint(environment)
        // Apple's hosts for what is sent: the channel management hosts for `channel`, the device push hosts for a
        // broadcast.
        SendConnectionOptions.warnAboutEndpoints(
            endpoints, using: [(environment, endpoint)], label: label(.endpoint),
            appleHosts: { env in
                let host = defaultEndpoint(env).host
                return host == env.host ? env.appleHosts : [host]
            }, in: world)
        return (endpoint, try proxySelection(for: endpoint))
    }

    /// How the server certificate is checked; warns (stderr) for `insecure`.
    func trust(in world: CommandWorld) -> ServerTrust {
        if isOn(.insecure) {
            world.standardError.warning(
                "\(label(.insecure)): the server certificate is not verified; anyone on the network path could read or change what is sent"
            )
            return .insecure
        }
        return self[.caFile].map { .caFile($0.value) } ?? .systemStore(world.systemTrust())
    }

    /// The sender's settings for `endpoint` (trust, timeout, concurrency, proxy).
    func senderConfiguration(
        endpoint: PushEndpoint, identity: PushIdentity?, proxy: ProxySelection,
        in world: CommandWorld
    ) -> SenderConfiguration {
        var configuration = SenderConfiguration(
            endpoint: endpoint, trust: trust(in: world), identity: identity, timeout: self[.timeout]?.value ?? 30,
            concurrency: self[.concurrency]?.value, proxy: proxy.proxy)
        configuration.nameLookup = world.nameLookup
        return configuration
    }
}

extension ResolvedSettings {
    /// `expiration` as UNIX seconds at `now` (its text was checked when resolved).
    func expirationTime(now: Int64) throws(CLIError) -> Int64? {
        guard let text = self[.expiration]?.value else { return nil }
        do { return try RequestDefaults.expiration(text, now: now) } catch {
            throw .usage("\(label(.expiration)) " + error.message)
        }
    }
}
