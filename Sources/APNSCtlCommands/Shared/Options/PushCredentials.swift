import APNSClient
import APNSCore
import APNSCrypto
import APNSSettings

/// The credentials a command that pushes (`send`, `send --channel`, `channel`) loads before connecting, with
/// `send`'s exit codes: unusable credentials 77, a missing file 66.
struct PushCredentials {
    /// The certificate's identity; nil with token auth.
    let identity: PushIdentity?
    /// The provider token to send; nil with certificate auth, and in a dry run.
    let bearerToken: String?
    /// Key id and team id with token auth (for the dry run's hint).
    let tokenIDs: (keyID: String, teamID: String)?
    /// How a long run renews `bearerToken`; nil without one.
    var tokenRenewal: ProviderTokenRenewal? = nil

    /// Loads them from the resolved settings (whose combinations were checked when they were resolved);
    /// `signToken: false` (a dry run) reads the key without signing a token.
    static func load(_ settings: ResolvedSettings, signToken: Bool, now: Int64, in world: CommandWorld) throws(CLIError)
        -> PushCredentials
    {
        let identity = try settings.loadIdentity(now: now, in: world)
        var bearer: String? = nil
        var ids: (keyID: String, teamID: String)? = nil
        var renewal: ProviderTokenRenewal? = nil
        if signToken, let t = try settings.providerToken(now: now, in: world) {
            bearer = t.token
            ids = (t.keyID, t.teamID)
            renewal = t.renewal
        } else if !signToken, let k = try settings.loadSigningKey(warningsTo: world.standardError, in: world) {
            ids = (k.keyID, k.teamID)
        }
        return PushCredentials(identity: identity, bearerToken: bearer, tokenIDs: ids, tokenRenewal: renewal)
    }

    /// The environment to push to: `env`, else the certificate's only one, else sandbox. A certificate that
    /// cannot reach an environment given explicitly is 77.
    /// `app`: the environment an `--app` build's tokens belong to, the default before the certificate's, and the
    /// build as messages name it (`--app Demo.ipa`).
    func environment(_ settings: ResolvedSettings, app: (environment: APNSEnvironment, label: String)? = nil)
        throws(CLIError) -> APNSEnvironment
    {
        let explicit = settings.explicitEnvironment ?? app?.environment
        let environment = RequestDefaults.environment(explicit: explicit, certificate: identity?.info)
        guard let identity, explicit != nil else { return environment }
        do { try identity.checkEnvironment(environment) } catch {
            // The build chose the environment, not --env: "use --env matching the certificate" led to the build's
            // own refusal of that --env.
            if settings.explicitEnvironment == nil, let app,
                case .environmentNotAllowed(let path, let requested, let available) = error
            {
                let has =
                    available.isEmpty ? "no APNs environment" : available.map(\.rawValue).joined(separator: " and ")
                throw .credential(
                    "\(path): the certificate is not valid for \(requested.rawValue) (it allows \(has)), which the device tokens of \(app.label) need; use a push certificate for \(requested.rawValue), or token auth"
                )
            }
            throw settings.credentialError(error)
        }
        return environment
    }

    /// What the certificate can carry (nil with token auth), named as the settings name it.
    func certificateRule(_ settings: ResolvedSettings) -> CertificatePushRule? {
        guard let identity else { return nil }
        var mockFile: String? = nil
        if case .mock(_, let file)? = settings[.cert]?.origin { mockFile = file }
        return CertificatePushRule(
            info: identity.info, label: settings[.cert].map { "\(settings.label(.cert)) \($0.value.displayName)" },
            mockFile: mockFile)
    }
}
