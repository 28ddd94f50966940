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
        } else if !signToken, let k = try settings.loadSigningKey(warningsTo: world.standardError) {
            ids = (k.keyID, k.teamID)
        }
        return PushCredentials(identity: identity, bearerToken: bearer, tokenIDs: ids, tokenRenewal: renewal)
    }

    /// The environment to push to: `env`, else the certificate's only one, else sandbox. A certificate that
    /// cannot reach an environment given explicitly is 77.
    /// `app`: the environment an `--app` build's tokens belong to, the default before the certificate's.
    func environment(_ settings: ResolvedSettings, app: APNSEnvironment? = nil) throws(CLIError) -> APNSEnvironment {
        let explicit = settings.explicitEnvironment ?? app
        let environment = RequestDefaults.environment(explicit: explicit, certificate: identity?.info)
        if let identity, explicit != nil {
            try withCredentialErrors { () throws(CredentialProblem) in try identity.checkEnvironment(environment) }
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
