import APNSCore
import APNSHTTP2
import APNSPlatform

/// APNs' checks of broadcast sends and channel management requests (APNS.md §11), first fault wins, in the
/// order of APNSwift's test server where §11 gives one: path and method, repeated headers, credentials,
/// `apns-request-id`, the bundle id against the credentials, then the operation's own checks. Channels live
/// in a `ChannelStore` shared by every event loop.
struct BroadcastChecker: Sendable {
    let rules: MockRules
    let store: ChannelStore

    /// Whether `request` is for a broadcast or management path (anything else is a device push's business).
    static func handles(_ request: HTTP2ServerRequest) -> Bool {
        guard let path = request.headers.first(where: { $0.name == ":path" })?.value else { return false }
        return path.hasPrefix(APNSPath.broadcastPrefix) || path.hasPrefix(APNSPath.channelsPrefix)
    }

    /// Judges `request` on a connection in state `auth` at `now` (epoch seconds).
    func check(
        _ request: HTTP2ServerRequest, auth: inout ConnectionAuthState, now: Int64,
        ids: inout MockIDGenerator
    ) -> MockDecision {
        let f = RequestChecker.Fields(request.headers)
        let requestID = f.requestID.flatMap { UUIDString.isCanonical($0) ? $0 : nil } ?? ids.uuid(uppercase: false)
        var d = MockDecision(
            reason: nil, apnsID: "", timestamp: nil, device: nil, topic: nil, pushType: f.pushType,
            priority: f.priority.flatMap { Int($0) }, auth: auth.kind, payloadSize: request.bodySize,
            firstTokenAccepted: false)
        // Logged as a notification's is (mock.md): a broadcast's expiration decides BadExpirationDate too.
        d.expiration = f.expiration
        var answer = BroadcastAnswer(operation: .broadcast, channel: f.channelID, requestID: requestID)
        let hadToken = auth.hasAcceptedToken
        d.reason = firstFault(request, f, &auth, now: now, into: &d, &answer)
        d.firstTokenAccepted = !hadToken && auth.hasAcceptedToken
        d.broadcast = answer
        return d
    }

    private func firstFault(
        _ request: HTTP2ServerRequest, _ f: RequestChecker.Fields, _ auth: inout ConnectionAuthState,
        now: Int64, into d: inout MockDecision, _ a: inout BroadcastAnswer
    ) -> APNSReason? {
        // 1. Path and method.
        guard let (operation, bundle) = Self.route(path: f.path ?? "", method: f.method ?? "") else { return .badPath }
        a.operation = operation
        d.topic = bundle
        if Self.allowedMethod(operation, f.method) == false { return .methodNotAllowed }
        // 2. Repeated apns-* headers.
        if f.duplicated { return .duplicateHeaders }
        // 3. Credentials.
        if let reason = auth.authorize(authorization: f.authorization, rules: rules, now: now) { return reason }
        // 4. The request id, and the bundle id: no push-type suffix, and one the credentials cover.
        if let id = f.requestID, !UUIDString.isCanonical(id) { return .badMessageId }
        guard RequestChecker.isTopicSyntax(bundle), PushType.inferred(fromTopic: bundle) == nil else {
            return .topicDisallowed
        }
        if let cert = auth.certificate, !cert.topics.contains(bundle) { return .topicMismatch }
        // 5. The operation.
        switch operation {
        case .broadcast: return checkBroadcast(request, f, bundle: bundle)
        case .create: return create(request, f, bundle: bundle, into: &a)
        case .read, .delete: return readOrDelete(f, bundle: bundle, delete: operation == .delete, into: &a)
        case .list:
            var w = JSONWriter()
            w.beginObject()
            w.field(Broadcast.channelsField, store.list(bundleID: bundle, environment: rules.environment))
            w.endObject()
            a.successBody = w.bytes
            return nil
        }
    }

    /// A send: channel, push type, expiration, priority, the channel's policy, then the body.
    private func checkBroadcast(_ request: HTTP2ServerRequest, _ f: RequestChecker.Fields, bundle: String)
        -> APNSReason?
    {
        if let reason = channelFault(f.channelID) { return reason }
        guard let type = f.pushType else { return .missingPushType }
        guard type.lowercased() == Broadcast.pushType.rawValue else { return .invalidPushType }
        guard let e = f.expiration, !e.isEmpty, e.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            return .badExpirationDate
        }
        guard let p = f.priority, p == "10" || p == "5" || p == "1" else { return .badPriority }
        guard let id = f.channelID,
            let storage = store.storage(of: id, bundleID: bundle, environment: rules.environment)
        else {
            return .channelNotRegistered
        }
        if storage == .none && e.contains(where: { $0 != "0" }) { return .badExpirationDate }
        if request.bodySize == 0 { return .payloadEmpty }
        if request.bodySize > APNSLimit.broadcastPayloadBytes { return .payloadTooLarge }
        if !MockBody.isJSONObject(request.body) { return .badRequestPayload }
        return nil
    }

    /// A create: the body must be `{"message-storage-policy":0|1,"push-type":"LiveActivity"}`.
    private func create(
        _ request: HTTP2ServerRequest, _ f: RequestChecker.Fields, bundle: String,
        into a: inout BroadcastAnswer
    ) -> APNSReason? {
        if request.bodySize == 0 { return .payloadEmpty }
        guard let root = try? JSONReader.parse(request.body), root.isObject else { return .badRequestPayload }
        guard let type = root[Broadcast.pushTypeField] else { return .missingPushType }
        guard type.string?.lowercased() == Broadcast.channelPushType.lowercased() else { return .invalidPushType }
        guard let n = root[Broadcast.storagePolicyField]?.number, let raw = n.intValue,
            let storage = ChannelStorage(rawValue: raw)
        else { return .badRequestParams }
        guard let id = store.create(bundleID: bundle, environment: rules.environment, storage: storage) else {
            return .cannotCreateChannelConfig
        }
        a.channel = id
        a.createdChannel = id
        a.successStatus = 201
        return nil
    }

    /// A read (200 with the policy) or delete (204) of an existing channel.
    private func readOrDelete(_ f: RequestChecker.Fields, bundle: String, delete: Bool, into a: inout BroadcastAnswer)
        -> APNSReason?
    {
        if let reason = channelFault(f.channelID) { return reason }
        guard let id = f.channelID,
            let storage = store.storage(of: id, bundleID: bundle, environment: rules.environment)
        else {
            return .channelNotRegistered
        }
        if delete {
            guard store.delete(id, bundleID: bundle, environment: rules.environment) else {
                return .channelNotRegistered
            }
            a.successStatus = 204
            return nil
        }
        var w = JSONWriter()
        w.beginObject()
        w.field(Broadcast.storagePolicyField, storage.rawValue)
        w.field(Broadcast.pushTypeField, Broadcast.channelPushType)
        w.endObject()
        a.successBody = w.bytes
        return nil
    }

    /// `MissingChannelId` or `BadChannelId`, nil for a well-formed id.
    private func channelFault(_ id: String?) -> APNSReason? {
        guard let id else { return .missingChannelId }
        return Broadcast.isChannelIDSyntax(id) ? nil : .badChannelId
    }

    /// The operation and bundle id of a broadcast or management path; nil for any other path.
    static func route(path: String, method: String) -> (BroadcastAnswer.Operation, String)? {
        if path.hasPrefix(APNSPath.broadcastPrefix) {
            let bundle = String(path.dropFirst(APNSPath.broadcastPrefix.count))
            return bundle.isEmpty || bundle.contains("/") ? nil : (.broadcast, bundle)
        }
        guard path.hasPrefix(APNSPath.channelsPrefix) else { return nil }
        let rest = path.dropFirst(APNSPath.channelsPrefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.count == 2, !rest[0].isEmpty else { return nil }
        switch rest[1] {
        case "all-channels": return (.list, String(rest[0]))
        case "channels":
            switch method {
            case "GET": return (.read, String(rest[0]))
            case "DELETE": return (.delete, String(rest[0]))
            default: return (.create, String(rest[0]))
            }
        default: return nil
        }
    }

    /// POST for sends and creates, GET for reads and lists, DELETE for deletes.
    static func allowedMethod(_ operation: BroadcastAnswer.Operation, _ method: String?) -> Bool {
        switch operation {
        case .broadcast, .create: return method == "POST"
        case .read, .list: return method == "GET"
        case .delete: return method == "DELETE"
        }
    }
}
