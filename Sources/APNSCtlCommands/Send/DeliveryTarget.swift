import APNSClient
import APNSCore
import APNSCrypto

/// Where a planned run goes and how its results are named: what `send` and `send --channel` hand to delivery,
/// taken from their plans.
struct DeliveryTarget {
    let route: SendRoute
    let identity: PushIdentity?
    /// How many targets, or nil for a stream of unknown length.
    let total: Int?
    /// Names the targets in messages (`device`, `channel`).
    let noun: String
    /// `--env auto`'s second environment.
    var fallback: SendFallback? = nil
    /// The device push's topic and type, for the notes on its results; nil for broadcasts.
    var topic: String? = nil
    var pushType: PushType? = nil
    var deviceName: ((String) -> String?)? = nil
    /// Keeps the run in the send history; nil when it is off.
    var recorder: SendRecorder? = nil
    /// The provider token sent, with token auth: its `iat` tells a wrong clock from an old token.
    var bearerToken: String? = nil
    /// How a run that outlasts `bearerToken` gets a new one.
    var tokenRenewal: ProviderTokenRenewal? = nil
}

/// `--env auto`'s second environment, with what to send there: the same request, to the devices the
/// first environment answered `BadDeviceToken`.
struct SendFallback {
    let route: SendRoute
    let request: PushRequest
    let devices: DeviceSource
}
