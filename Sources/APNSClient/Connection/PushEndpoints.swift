import APNSCore

/// Where each environment's requests go: Apple's hosts (on port 443 or 2197), unless `--endpoint`
/// overrides them: a bare URL for every environment, or `sandbox=URL` / `production=URL` for one
/// (what `--env auto` against two local servers needs). One type for every command that connects,
/// so `send` and `channel` read `--endpoint` the same way.
public struct PushEndpoints: Sendable, Equatable {
    /// A bare `--endpoint URL`: every environment.
    public private(set) var all: PushEndpoint? = nil
    /// `--endpoint sandbox=URL` / `production=URL`.
    public private(set) var byEnvironment: [APNSEnvironment: PushEndpoint] = [:]

    /// No override: Apple's hosts.
    public init() {}

    /// Parses repeated `--endpoint` values: `https://host:port`, or `ENV=https://host:port` where ENV is
    /// any spelling `--env` accepts (`sandbox`, `development`, `production`, `prod`). A second value for
    /// the same environment is refused rather than silently winning.
    public init(arguments: [String]) throws(PushEndpoint.Problem) {
        for argument in arguments {
            var url = argument
            var environment: APNSEnvironment? = nil
            if let eq = argument.firstIndex(of: "="), !argument[..<eq].contains(":") {
                let name = String(argument[..<eq])
                guard let e = APNSEnvironment(userValue: name) else {
                    throw PushEndpoint.Problem.notAnEnvironment(argument: argument, name: name)
                }
                environment = e
                url = String(argument[argument.index(after: eq)...])
            }
            let endpoint = try PushEndpoint(url: url)
            if let environment {
                guard byEnvironment[environment] == nil else {
                    throw PushEndpoint.Problem.givenTwice(argument: argument, environment)
                }
                byEnvironment[environment] = endpoint
            } else {
                guard all == nil else {
                    throw PushEndpoint.Problem.secondBareURL(argument: argument)
                }
                all = endpoint
            }
        }
    }

    /// Whether any `--endpoint` was given.
    public var isEmpty: Bool { all == nil && byEnvironment.isEmpty }

    /// The `--endpoint` for `environment`, if one applies (its own, else the bare one).
    public func explicit(for environment: APNSEnvironment) -> PushEndpoint? {
        byEnvironment[environment] ?? all
    }

    /// Where `environment`'s device pushes go: the override, else Apple's host on `port` (443 or 2197;
    /// an override carries its own port).
    public func endpoint(for environment: APNSEnvironment, port: Int = 443) -> PushEndpoint {
        explicit(for: environment) ?? PushEndpoint(host: environment.host, port: port)
    }
}
