import APNSCore

/// What apnsctl tells a user to check after each APNs reason, naming its own flags and commands. The
/// meaning of a reason is a protocol fact and lives in APNSCore (`APNSReason.meaning`); the advice is
/// apnsctl's, so a renamed flag changes here only.
extension APNSReason {
    /// One line: what to check or do next.
    var hint: String {
        switch self {
        case .badCollapseId: return "Shorten --collapse-id to at most 64 bytes."
        case .badDeviceToken:
            return
                "Tokens from a debug build need --env sandbox; TestFlight, Ad Hoc and App Store builds need --env production. Check the hex copy is complete."
        case .badExpirationDate: return "Give epoch seconds or 0, not a TTL; --expiration 1h converts for you."
        case .badMessageId: return "--apns-id needs a canonical 8-4-4-4-12 hex UUID."
        case .badPriority: return "Use --priority 10, 5 or 1; background pushes need 5."
        case .badTopic: return "Check the bundle id and the push type's topic suffix."
        case .deviceTokenNotForTopic:
            return "--topic must be the bundle id of the app that registered this token, with the push type's suffix."
        case .duplicateHeaders: return "A proxy or apnsctl repeated a header; please report it."
        case .idleTimeout: return "Send again; a new connection is opened."
        case .invalidPushType: return "Use one of: \(PushType.allNames)."
        case .missingDeviceToken: return "Pass --device, and check --endpoint has no path."
        case .missingTopic: return "Pass --topic."
        case .payloadEmpty: return "Give a payload file, inline JSON or --alert."
        case .topicDisallowed:
            return
                "The certificate's topics (apnsctl inspect) lack this topic, or the push type needs token auth (location)."
        case .badCertificate:
            return "Not an APNs certificate, or revoked or broken: re-export it and run apnsctl inspect."
        case .badCertificateEnvironment:
            return "Match --env to the environments apnsctl inspect shows for the certificate."
        case .expiredProviderToken: return "Check the system clock (iat comes from it); use --no-token-cache once."
        case .forbidden: return "Check the developer account, the key and the app id."
        case .invalidProviderToken:
            return "--key-id must match the .p8 file and --team-id the key's team; has the key been revoked?"
        case .missingProviderToken: return "Pass --cert or --auth-key."
        case .unrelatedKeyIdInToken: return "Use one signing key per connection."
        case .badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken:
            return "Use the --env the key is restricted to, or a key for both environments."
        case .badPath: return "Check --endpoint: it should be https://host:port with no path."
        case .methodNotAllowed: return "Did a proxy rewrite the request?"
        case .expiredToken: return "Get a fresh token from the app."
        case .unregistered: return "Stop sending to this token unless the app registers it again."
        case .payloadTooLarge: return "Shrink the payload; try --minify."
        case .tooManyProviderTokenUpdates:
            return "Reuse provider tokens for 20 to 60 minutes (the token cache does); avoid --no-token-cache in loops."
        case .tooManyRequests: return "Wait, then retry."
        case .internalServerError: return "Retry later with back-off."
        case .serviceUnavailable: return "Retry later with back-off."
        case .shutdown: return "Send again in a moment; a new connection is opened."
        case .badRequestPayload: return "Run apnsctl validate on the payload."
        case .featureNotEnabled:
            return
                "Turn on Broadcast Push for the app id in Certificates, Identifiers & Profiles, then create channels again."
        case .missingChannelId: return "Pass --channel with the id apnsctl channel create printed."
        case .badChannelId: return "Pass the channel id exactly as apnsctl channel create or list printed it (base64)."
        case .channelNotRegistered:
            return
                "Check --env and the app (--topic, else the certificate's bundle id): a channel belongs to one app and one environment; apnsctl channel list shows theirs; deleted channels are gone for good."
        case .badRequestParams: return "Use --storage none or most-recent; if apnsctl sent this, please report it."
        case .missingPushType:
            return "Broadcasts need apns-push-type: liveactivity; if apnsctl sent this, please report it."
        case .cannotCreateChannelConfig:
            return "Delete channels you no longer use (apnsctl channel list, then channel delete)."
        case .topicMismatch:
            return
                "--topic (or the certificate's bundle id) must name the app the credentials belong to; check apnsctl inspect."
        }
    }

    /// The hint for a broadcast or channel request where it differs from the device-push one, else `hint`
    /// (the same wire string, but another flag to change: a nonzero `apns-expiration` is refused on a No
    /// Message Stored channel).
    func hint(broadcast: Bool) -> String {
        guard broadcast else { return hint }
        switch self {
        case .badExpirationDate:
            return
                "A No Message Stored channel (--storage none) takes only --expiration 0 (the default); send without --expiration, or with --expiration 0 to replace an APNSCTL_EXPIRATION or a profile's, or use a most-recent channel."
        case .invalidPushType: return "Broadcasts take only --push-type liveactivity (the default with --channel)."
        case .badPath: return "Check --endpoint: it should be https://host:port with no path."
        case .topicDisallowed:
            return "The bundle id (from --topic or the certificate) must be the app's, without a push-type suffix."
        case .payloadTooLarge: return "Shrink the payload to 5120 bytes or less; try --minify."
        case .payloadEmpty: return "Give a Live Activity update or end payload."
        case .badPriority: return "Use --priority 10, 5 or 1."
        default: return hint
        }
    }

    /// The three token kinds of Live Activities, said after each token reason of a liveactivity push.
    static let liveActivityTokens =
        "Live Activities use three different tokens: a push-to-start token (start), the activity's update token (update and end) and the device token (neither)."

    /// The token a PushKit push goes to, said first after a token reason of a voip or pushtotalk push: the app's
    /// device token pasted in its place is the likely cause.
    static func pushKitToken(_ pushType: PushType) -> String {
        pushType == .voip
            ? "A VoIP push goes to the app's PushKit token (PKPushRegistry's pushCredentials), not the device token it registers for notifications."
            : "A push-to-talk push goes to the channel's push token (PTChannelManager's ephemeral push token), not the device token."
    }

    /// `hint(broadcast:)`, told for a `liveactivity`, `voip` or `pushtotalk` push where the token kind changes the
    /// advice.
    func hint(for pushType: PushType?, broadcast: Bool) -> String {
        if let pushType, pushType == .voip || pushType == .pushtotalk, !broadcast,
            self == .badDeviceToken || self == .deviceTokenNotForTopic
        {
            return Self.pushKitToken(pushType) + " " + hint(broadcast: broadcast)
        }
        guard pushType == .liveactivity, !broadcast else { return hint(broadcast: broadcast) }
        switch self {
        case .unregistered:
            return Self.liveActivityTokens
                + " An update token ends with its activity, and iOS issues a new push-to-start token after one is used: send with the token the app reported last (pushTokenUpdates, pushToStartTokenUpdates)."
        case .badDeviceToken:
            return Self.liveActivityTokens
                + " Check you sent the right one, copied whole; tokens from a debug build need --env sandbox, TestFlight and App Store ones --env production."
        case .deviceTokenNotForTopic:
            return Self.liveActivityTokens
                + " Use one of the first two, from the app whose bundle id comes before .push-type.liveactivity in the topic."
        default:
            return hint(broadcast: broadcast)
        }
    }
}
