import APNSClient
import APNSCore
import APNSCrypto
import APNSSettings

/// One environment's destination: where it is and how to get there. A plan carries its routes, so delivery
/// is never handed an environment, an endpoint or a proxy separately.
struct SendRoute {
    let environment: APNSEnvironment
    let endpoint: PushEndpoint
    /// The proxy for `endpoint` (or why none is used).
    let proxy: ProxySelection
}

extension ResolvedSettings {
    /// `env auto` beside a certificate for one environment only, or with one server for both environments (which
    /// would answer BadDeviceToken twice and blame the token): 64, said alike by `send` and by `doctor` (whose
    /// probes would otherwise pass settings every send with them refuses).
    func checkAutoEnvironment(_ info: CertificateInfo?, port: Int) throws(CLIError) {
        guard isAutoEnvironment else { return }
        if let info, info.isApplePush, info.environments.count == 1, let only = info.sortedEnvironments.first {
            throw .usage(
                "\(label(.env)) auto: \(self[.cert]?.value.displayName ?? "the certificate") is for \(only.rawValue) only, and auto needs both environments; pass --env \(only.rawValue), or use a certificate for both (or token auth)"
            )
        }
        let endpoint = endpointList.endpoint(for: .sandbox, port: port)
        if endpoint.url == endpointList.endpoint(for: .production, port: port).url {
            throw .usage(
                "\(label(.env)) auto needs two servers, but \(label(.endpoint)) \(endpoint.url) names one for both environments; "
                    + "pass --endpoint sandbox=URL --endpoint production=URL, or choose --env sandbox or --env production"
            )
        }
    }

    /// `send`'s routes: the environment (`env`, else the certificate's only one, else sandbox) at its endpoint
    /// with its proxy and, for `env auto`, the other environment for devices the first answers `BadDeviceToken`.
    /// A certificate that cannot reach the environment is 77; `auto` with a one-environment certificate, or with
    /// one server for both, is 64.
    func sendRoutes(
        _ credentials: PushCredentials, port: Int, app: (environment: APNSEnvironment, label: String)? = nil,
        in world: CommandWorld
    ) throws(CLIError) -> (route: SendRoute, fallback: SendRoute?) {
        let endpoints = endpointList
        let environment = try credentials.environment(self, app: app)
        let identity = credentials.identity
        var fallback: SendRoute? = nil
        if isAutoEnvironment {
            try checkAutoEnvironment(identity?.info, port: port)
            let other: APNSEnvironment = environment == .sandbox ? .production : .sandbox
            let otherEndpoint = endpoints.endpoint(for: other, port: port)
            fallback = SendRoute(
                environment: other, endpoint: otherEndpoint, proxy: try proxySelection(for: otherEndpoint))
        }
        let endpoint = endpoints.endpoint(for: environment, port: port)
        SendConnectionOptions.warnAboutEndpoints(
            endpoints,
            using: [(environment, endpoint)]
                + (fallback.map { [($0.environment, $0.endpoint)] } ?? []), label: label(.endpoint),
            certificate: identity?.info, in: world)
        return (
            SendRoute(environment: environment, endpoint: endpoint, proxy: try proxySelection(for: endpoint)), fallback
        )
    }
}
