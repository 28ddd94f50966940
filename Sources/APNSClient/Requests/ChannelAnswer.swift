import APNSCore

/// What a successful channel management answer says (APNS.md §11): the new id of a create (header
/// `apns-channel-id`, no body), a read's policy and push type (JSON body), a list's ids (JSON body).
/// The body is untrusted: a missing or odd field is nil, never a failure.
public struct ChannelAnswer: Sendable, Equatable {
    /// `apns-channel-id` of a 201 (create).
    public var channelID: String?
    /// `message-storage-policy` of a read.
    public var storage: ChannelStorage?
    /// `push-type` of a read, as received (`LiveActivity`).
    public var pushType: String?
    /// `channels` of a list, in the order received.
    public var channels: [String]?

    /// Reads `response`'s header and JSON body.
    public init(_ response: HTTPResponse) {
        channelID = response.headers.value(of: APNSHeader.channelID.name).map {
            PrintableText.unescapedLine($0, limit: 1024)
        }
        guard !response.body.isEmpty, let root = try? JSONReader.parse(response.body), root.isObject else { return }
        if let n = root[Broadcast.storagePolicyField]?.number, n.isIntegerLiteral, let raw = n.intValue {
            storage = ChannelStorage(rawValue: raw)
        }
        pushType = root[Broadcast.pushTypeField]?.string.map { PrintableText.unescapedLine($0, limit: 64) }
        if let list = root[Broadcast.channelsField]?.elements {
            channels = list.compactMap { $0.string }.map { PrintableText.unescapedLine($0, limit: 1024) }
        }
    }
}

extension PushEndpoint {
    /// Apple's channel management host for `environment` (sandbox port 2195, production 2196).
    public init(channelManagement environment: APNSEnvironment) {
        let (host, port) = environment.channelManagementHost
        self.init(host: host, port: port)
    }
}
