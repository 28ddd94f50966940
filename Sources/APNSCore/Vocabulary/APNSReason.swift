/// A documented APNs rejection reason, with the wire string as raw value.
/// An unknown reason from a server is kept as a string (`ReceivedReason.unknown`) and printed as received.
public enum APNSReason: String, CaseIterable, Sendable, Codable {
    case badCollapseId = "BadCollapseId"
    case badDeviceToken = "BadDeviceToken"
    case badExpirationDate = "BadExpirationDate"
    case badMessageId = "BadMessageId"
    case badPriority = "BadPriority"
    case badTopic = "BadTopic"
    case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
    case duplicateHeaders = "DuplicateHeaders"
    case idleTimeout = "IdleTimeout"
    case invalidPushType = "InvalidPushType"
    case missingDeviceToken = "MissingDeviceToken"
    case missingTopic = "MissingTopic"
    case payloadEmpty = "PayloadEmpty"
    case topicDisallowed = "TopicDisallowed"
    case badCertificate = "BadCertificate"
    case badCertificateEnvironment = "BadCertificateEnvironment"
    case expiredProviderToken = "ExpiredProviderToken"
    case forbidden = "Forbidden"
    case invalidProviderToken = "InvalidProviderToken"
    case missingProviderToken = "MissingProviderToken"
    case unrelatedKeyIdInToken = "UnrelatedKeyIdInToken"
    case badEnvironmentKeyIdInToken = "BadEnvironmentKeyIdInToken"
    case badEnvironmentKeyInToken = "BadEnvironmentKeyInToken"
    case badPath = "BadPath"
    case methodNotAllowed = "MethodNotAllowed"
    case expiredToken = "ExpiredToken"
    case unregistered = "Unregistered"
    case payloadTooLarge = "PayloadTooLarge"
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
    case tooManyRequests = "TooManyRequests"
    case internalServerError = "InternalServerError"
    case serviceUnavailable = "ServiceUnavailable"
    case shutdown = "Shutdown"
    /// Broadcast and channel management: a body that is not valid JSON. For device pushes APNs' answer is
    /// undocumented, and the mock uses this name too.
    case badRequestPayload = "BadRequestPayload"
    // Broadcast push and channel management (APNS.md §11).
    case featureNotEnabled = "FeatureNotEnabled"
    case missingChannelId = "MissingChannelId"
    case badChannelId = "BadChannelId"
    case channelNotRegistered = "ChannelNotRegistered"
    case badRequestParams = "BadRequestParams"
    case missingPushType = "MissingPushType"
    case cannotCreateChannelConfig = "CannotCreateChannelConfig"
    case topicMismatch = "TopicMismatch"

    /// The HTTP status APNs answers with for this reason.
    public var status: Int {
        switch self {
        case .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
            .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
            .missingTopic, .payloadEmpty, .topicDisallowed, .badRequestPayload, .featureNotEnabled,
            .missingChannelId, .badChannelId, .channelNotRegistered, .badRequestParams, .missingPushType,
            .cannotCreateChannelConfig:
            return 400
        case .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden,
            .invalidProviderToken, .missingProviderToken, .unrelatedKeyIdInToken,
            .badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken, .topicMismatch:
            return 403
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .expiredToken, .unregistered: return 410
        case .payloadTooLarge: return 413
        case .tooManyProviderTokenUpdates, .tooManyRequests: return 429
        case .internalServerError: return 500
        case .serviceUnavailable, .shutdown: return 503
        }
    }

    /// One line: what APNs means by this reason.
    public var meaning: String {
        switch self {
        case .badCollapseId: return "The collapse id is longer than 64 bytes."
        case .badDeviceToken: return "The token is not valid for this topic and environment."
        case .badExpirationDate: return "The apns-expiration value is not usable."
        case .badMessageId: return "The apns-id is not a UUID."
        case .badPriority: return "The priority is not 10, 5 or 1, or not allowed for this push type."
        case .badTopic: return "The topic is malformed."
        case .deviceTokenNotForTopic: return "The token belongs to another app or topic."
        case .duplicateHeaders: return "An apns-* header was sent more than once."
        case .idleTimeout: return "The connection was idle for too long."
        case .invalidPushType: return "The apns-push-type is not one APNs knows."
        case .missingDeviceToken: return "The request path has no device token."
        case .missingTopic: return "A topic is required (multi-topic certificate or token auth)."
        case .payloadEmpty: return "The payload is empty."
        case .topicDisallowed: return "These credentials may not push to this topic."
        case .badCertificate: return "The client certificate was rejected."
        case .badCertificateEnvironment: return "The client certificate is for the other environment."
        case .expiredProviderToken: return "The provider token is more than an hour old."
        case .forbidden: return "The action is not permitted."
        case .invalidProviderToken: return "The provider token could not be verified."
        case .missingProviderToken: return "There is neither a client certificate nor a provider token."
        case .unrelatedKeyIdInToken: return "The token's key differs from the one that opened the connection."
        case .badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken:
            return "The signing key is restricted to the other environment."
        case .badPath: return "The request path is not /3/device/<token>."
        case .methodNotAllowed: return "The request method is not POST."
        case .expiredToken: return "The device token has expired."
        case .unregistered: return "The device token is no longer active for this topic."
        case .payloadTooLarge: return "The payload is over the size limit."
        case .tooManyProviderTokenUpdates: return "Provider tokens were replaced too often on this connection."
        case .tooManyRequests: return "Too many notifications were sent to this device in a row."
        case .internalServerError: return "APNs had an internal failure."
        case .serviceUnavailable: return "APNs is unavailable."
        case .shutdown: return "The APNs server is shutting down."
        case .badRequestPayload: return "The payload is not valid JSON."
        case .featureNotEnabled: return "Broadcast push is not enabled for this app."
        case .missingChannelId: return "The request has no apns-channel-id header."
        case .badChannelId: return "The apns-channel-id is malformed."
        case .channelNotRegistered: return "No channel with this id exists in this environment."
        case .badRequestParams: return "The channel settings in the request body are wrong."
        case .missingPushType: return "The request has no push type."
        case .cannotCreateChannelConfig:
            return "The app already has the most channels allowed (10,000 per environment)."
        case .topicMismatch: return "The bundle id in the path does not match the credentials' topic."
        }
    }
}
