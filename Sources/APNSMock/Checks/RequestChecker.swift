import APNSCore
import APNSHTTP2
import APNSPlatform

/// APNs' checks of one device-push request, as a pure function of the request, the connection's auth state
/// and the clock: no sockets, so every reason is unit-tested. Order follows APNS.md §9; the first fault wins.
public struct RequestChecker: Sendable {
    public let rules: MockRules

    public init(rules: MockRules) { self.rules = rules }

    /// The request's fields the checks read, gathered in one pass over the headers.
    struct Fields {
        var method: String?
        var path: String?
        var authorization: String?
        var apnsID: String?
        var pushType: String?
        var priority: String?
        var expiration: String?
        var collapseID: String?
        var topic: String?
        var channelID: String?
        var requestID: String?
        var duplicated = false

        init(_ headers: [HeaderField]) {
            var seen: [String] = []
            for h in headers {
                switch h.name {
                case ":method": method = h.value
                case ":path": path = h.value
                case APNSHeader.authorization.name: authorization = h.value
                default:
                    guard h.name.hasPrefix(APNSHeader.apnsPrefix) else { continue }
                    if seen.contains(h.name) { duplicated = true }
                    seen.append(h.name)
                    switch APNSHeader(rawValue: h.name) {
                    case .id?: apnsID = h.value
                    case .pushType?: pushType = h.value
                    case .priority?: priority = h.value
                    case .expiration?: expiration = h.value
                    case .collapseID?: collapseID = h.value
                    case .topic?: topic = h.value
                    case .channelID?: channelID = h.value
                    case .requestID?: requestID = h.value
                    default: break
                    }
                }
            }
        }
    }

    /// Judges `request` on a connection in state `auth` at `now` (epoch seconds). A newly accepted bearer token
    /// updates `auth`; `ids` makes the `apns-id` when the request has no usable one.
    public func check(
        _ request: HTTP2ServerRequest, auth: inout ConnectionAuthState, now: Int64,
        ids: inout MockIDGenerator
    ) -> MockDecision {
        let f = Fields(request.headers)
        var d = MockDecision(
            reason: nil, apnsID: "", timestamp: nil, device: nil, topic: f.topic, pushType: f.pushType,
            priority: f.priority.flatMap { Int($0) }, auth: auth.kind, payloadSize: request.bodySize,
            firstTokenAccepted: false)
        d.expiration = f.expiration
        let hadToken = auth.hasAcceptedToken
        d.reason = firstFault(request, f, &auth, now: now, into: &d)
        d.firstTokenAccepted = !hadToken && auth.hasAcceptedToken
        // The event of a Live Activity push, whether its type was sent or is the topic's; the log's push_type stays
        // what the request sent (a test of "our server sends apns-push-type" reads it).
        let type = d.pushType.flatMap(PushType.init(rawValue:)) ?? d.topic.flatMap(PushType.inferred(fromTopic:))
        if type == .liveactivity {
            d.liveActivityEvent = MockBody.liveActivityEvent(request.body)
        }
        rules.onRequest?(request, d)
        if d.apnsID.isEmpty { d.apnsID = ids.uuid() }
        if let reason = d.reason, reason.status == 410 { d.timestamp = rules.unregisteredSince }
        return d
    }

    private func firstFault(
        _ request: HTTP2ServerRequest, _ f: Fields, _ auth: inout ConnectionAuthState, now: Int64,
        into d: inout MockDecision
    ) -> APNSReason? {
        if let id = f.apnsID, UUIDString.isCanonical(id) { d.apnsID = id }
        // 1. Method and path.
        guard f.method == "POST" else { return .methodNotAllowed }
        guard let path = f.path, let inPath = APNSPath.deviceToken(inPath: path) else { return .badPath }
        let token = String(inPath)
        guard !token.isEmpty else { return .missingDeviceToken }
        d.device = token
        // 2. Repeated apns-* headers.
        if f.duplicated { return .duplicateHeaders }
        // 3. Credentials.
        if let reason = auth.authorize(authorization: f.authorization, rules: rules, now: now) { return reason }
        // 4. Header syntax.
        if let id = f.apnsID, !UUIDString.isCanonical(id) { return .badMessageId }
        var pushType: PushType?
        if let raw = f.pushType {
            guard let known = PushType(rawValue: raw) else { return .invalidPushType }
            pushType = known
        }
        if let p = f.priority, p != "10", p != "5", p != "1" { return .badPriority }
        if pushType == .background, f.priority == "10" { return .badPriority }
        if let e = f.expiration, e.isEmpty || !e.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) { return .badExpirationDate }
        if let c = f.collapseID, c.utf8.count > APNSLimit.collapseIDBytes { return .badCollapseId }
        // 5. Topic.
        if let reason = checkTopic(f.topic, pushType: &pushType, auth: auth, into: &d) { return reason }
        // 6. Device token.
        guard DeviceToken.isPlainHex(token) else { return .badDeviceToken }
        // Tokens are 32 bytes or longer (simulators' since Xcode 14); APNs refuses a shorter one.
        if token.utf8.count < DeviceToken.issuedHexDigits { return .badDeviceToken }
        // APNs never issues the all-zero token: it is refused after the credentials and topic were accepted,
        // which is what `apnsctl doctor`'s probe relies on.
        if Self.isZeroToken(token) && !rules.acceptsZeroToken { return .badDeviceToken }
        if !rules.unregistered.isEmpty || !rules.rejections.isEmpty {
            let key = token.lowercased()
            if rules.unregistered.contains(key) { return .unregistered }
            if let reason = rules.rejections[key] { return reason }
        }
        // 7. Body.
        if request.bodySize == 0 { return .payloadEmpty }
        if request.bodySize > (pushType ?? .alert).defaultSizeLimit { return .payloadTooLarge }
        if !MockBody.isJSONObject(request.body) { return .badRequestPayload }
        return nil
    }

    /// Step 5: the topic must be present when the credentials cover several, well-formed, and covered.
    private func checkTopic(
        _ sent: String?, pushType: inout PushType?, auth: ConnectionAuthState,
        into d: inout MockDecision
    ) -> APNSReason? {
        var topic = sent
        if topic == nil {
            // A single-topic certificate implies its topic; token auth and multi-topic certificates need one.
            guard let cert = auth.certificate, cert.topics.count == 1 else { return .missingTopic }
            topic = cert.topics[0]
            d.topic = topic
        }
        guard let topic, Self.isTopicSyntax(topic) else { return .badTopic }
        if pushType == nil { pushType = PushType.inferred(fromTopic: topic) }
        if let type = pushType, !type.topicSuffix.isEmpty, !topic.hasSuffix(type.topicSuffix) { return .badTopic }
        if let cert = auth.certificate {
            if pushType == .location { return .topicDisallowed }
            if !cert.topics.contains(topic) { return .topicDisallowed }
        }
        return nil
    }

    /// Only `0` digits: a token APNs never issues (`apnsctl doctor` probes with 64 of them).
    static func isZeroToken(_ token: String) -> Bool { token.utf8.allSatisfy { $0 == 48 } }

    /// Reverse-DNS shape: letters, digits, `-`, `_` in non-empty dot-separated parts, at most 255 bytes.
    static func isTopicSyntax(_ topic: String) -> Bool {
        let u = topic.utf8
        guard !u.isEmpty, u.count <= 255, u.first != 46, u.last != 46 else { return false }
        var previousDot = false
        for c in u {
            let isDot = c == 46
            if isDot && previousDot { return false }
            previousDot = isDot
            let ok =
                isDot || c == 45 || c == 95 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
            if !ok { return false }
        }
        return true
    }
}
