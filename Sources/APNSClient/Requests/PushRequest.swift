import APNSCore

/// Everything about a notification that is the same for every device: the settled headers
/// (after defaults and inference) and the payload bytes exactly as they will be sent.
public struct PushRequest: Sendable {
    public var topic: String
    public var pushType: PushType
    /// `apns-priority`; nil sends none (widgets and controls by default).
    public var priority: Priority?
    /// `apns-expiration` in UNIX seconds (0 = try once); nil leaves it to APNs.
    public var expiration: Int64?
    public var collapseID: String?
    /// `apns-id`; nil lets APNs pick one (it echoes it in the answer).
    public var apnsID: String?
    /// The provider token (JWT) for token auth; nil with certificate auth.
    public var bearerToken: String?
    /// The body, byte for byte.
    public var payload: [UInt8]

    /// A request with every header settled.
    public init(
        topic: String, pushType: PushType, priority: Priority?, expiration: Int64? = nil,
        collapseID: String? = nil, apnsID: String? = nil, bearerToken: String? = nil, payload: [UInt8]
    ) {
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
        self.bearerToken = bearerToken
        self.payload = payload
    }

    /// `/3/device/<hex>`.
    public static func path(for device: DeviceToken) -> String { APNSPath.device(device.hex) }

    /// The request for `device` (nil: the path is left empty, for a template). Stable values
    /// (`authorization`, topic, push type) are indexed by HPACK so they cost a byte or two after the
    /// first request; per-request values are sent without indexing, as APNS.md §1 advises.
    public func request(for device: DeviceToken?) -> APNSRequest {
        APNSRequest(method: "POST", path: device.map(Self.path(for:)) ?? "", headers: commonHeaders, body: payload)
    }

    /// The `apns-*`, `authorization` and `content-*` fields (no pseudo-headers).
    public var commonHeaders: [HeaderField] {
        var h: [HeaderField] = []
        if let bearerToken { h.append(.bearer(bearerToken)) }
        h.append(HeaderField(APNSHeader.topic.name, topic))
        h.append(HeaderField(APNSHeader.pushType.name, pushType.rawValue))
        if let priority { h.append(HeaderField(APNSHeader.priority.name, String(priority.rawValue))) }
        if let expiration { h.append(HeaderField(APNSHeader.expiration.name, String(expiration), neverIndex: true)) }
        if let collapseID { h.append(HeaderField(APNSHeader.collapseID.name, collapseID, neverIndex: true)) }
        if let apnsID { h.append(HeaderField(APNSHeader.id.name, apnsID, neverIndex: true)) }
        h.append(HeaderField(APNSHeader.contentType.name, "application/json"))
        h.append(HeaderField("content-length", String(payload.count)))
        return h
    }
}

/// Keeps bearer tokens out of output: `--verbose` and `--dry-run` show only the first 10 characters.
public enum SecretRedaction {
    /// `bearer eyJhbGciOi…` for an `authorization` value; other values unchanged.
    public static func display(_ header: HeaderField) -> String {
        guard header.name == APNSHeader.authorization.name else { return header.value }
        let parts = header.value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return "…" }
        return "\(parts[0]) \(parts[1].prefix(10))…"
    }
}
