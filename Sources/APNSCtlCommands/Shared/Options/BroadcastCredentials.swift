import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// The credentials, environment and bundle id of a broadcast or channel request, checked before
/// connecting with `send`'s rules and exit codes: no credential or both kinds 64, token auth without
/// `--topic` 64, unusable credentials 77, a missing file 66. The bundle id is `--topic` without any
/// push-type suffix, else the certificate's bundle id.
struct BroadcastCredentials {
    let identity: PushIdentity?
    /// The provider token to send; nil with certificate auth, and in a dry run.
    let bearerToken: String?
    /// Key id and team id with token auth (for the dry run's hint).
    let tokenIDs: (keyID: String, teamID: String)?
    let environment: APNSEnvironment
    let bundleID: String

    /// Loads and checks everything from the resolved settings (whose combinations were checked when they were
    /// resolved); `signToken: false` (dry run) reads the key without signing a token.
    static func load(
        _ settings: ResolvedSettings, signToken: Bool = true, now: Int64,
        in world: CommandWorld
    ) throws(CLIError) -> BroadcastCredentials {
        let topic = settings[.topic]?.value
        if settings[.authKey] != nil && topic == nil { throw CredentialChoice.topicRequired }
        if let topic { try TopicShape.check(topic, label: "\(settings.label(.topic)) \(topic)") }
        let credentials = try PushCredentials.load(settings, signToken: signToken, now: now, in: world)
        let identity = credentials.identity
        let environment = try credentials.environment(settings)
        guard let bundleID = topic.map(Broadcast.bundleID(fromTopic:)) ?? identity?.info.bundleID, !bundleID.isEmpty
        else {
            throw CredentialChoice.noBundleID(topic: settings.label(.topic))
        }
        return BroadcastCredentials(
            identity: identity, bearerToken: credentials.bearerToken, tokenIDs: credentials.tokenIDs,
            environment: environment,
            bundleID: bundleID)
    }
}

/// `--request-id`, checked: a canonical UUID, sent in lower case as APNS.md §11 asks.
func parsedRequestID(_ text: String?) throws(CLIError) -> String? {
    try HeaderValueCheck.canonicalUUID(text, flag: "--request-id")?.lowercased()
}
