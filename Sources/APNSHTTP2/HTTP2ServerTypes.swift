import APNSCore

/// One complete HTTP/2 request as the server session delivers it: all headers and the body.
/// Servers (the mock) decide on complete requests only, so partial state never leaks out.
public struct HTTP2ServerRequest: Sendable {
    /// The stream the answer must go on.
    public let streamID: Int32
    /// Header fields in arrival order, pseudo-headers included; repeats are kept so `DuplicateHeaders` can be seen.
    public let headers: [HeaderField]
    /// The body, at most `HTTP2ServerSettings.maxBodyBytes` of it.
    public let body: [UInt8]
    /// The size the peer sent, which may exceed `body.count` when the cap cut it short.
    public let bodySize: Int

    public init(streamID: Int32, headers: [HeaderField], body: [UInt8], bodySize: Int) {
        self.streamID = streamID
        self.headers = headers
        self.body = body
        self.bodySize = bodySize
    }
}

/// What a server session advertises and enforces. Defaults follow what APNs was seen to send
/// (`4096, 1000, 65535, 16384, 8000`, APNS.md §1).
public struct HTTP2ServerSettings: Sendable, Equatable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS sent first (1 on a token connection until a token is accepted).
    public var maxConcurrentStreams: UInt32
    /// SETTINGS_HEADER_TABLE_SIZE.
    public var headerTableSize: UInt32
    /// SETTINGS_MAX_HEADER_LIST_SIZE; a request whose headers exceed it is reset.
    public var maxHeaderListSize: UInt32
    /// Body bytes kept per request; the rest is counted, not stored, so a huge body cannot exhaust memory.
    public var maxBodyBytes: Int
    /// Header and body bytes held for requests not yet complete, across the connection: a stream that would
    /// go past it is reset with REFUSED_STREAM (safe to retry), so one client cannot make the server hold
    /// unbounded memory with many half-sent requests.
    public var maxUnfinishedRequestBytes: Int

    public init(
        maxConcurrentStreams: UInt32 = APNSLimit.observedMaxConcurrentStreams, headerTableSize: UInt32 = 4096,
        maxHeaderListSize: UInt32 = 8000, maxBodyBytes: Int = 64 * 1024,
        maxUnfinishedRequestBytes: Int = 16 * 1024 * 1024
    ) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.headerTableSize = headerTableSize
        self.maxHeaderListSize = maxHeaderListSize
        self.maxBodyBytes = maxBodyBytes
        self.maxUnfinishedRequestBytes = maxUnfinishedRequestBytes
    }
}

/// HTTP/2 error codes the server sends in GOAWAY and RST_STREAM (RFC 9113 §7).
public enum HTTP2ErrorCode: UInt32, Sendable {
    case noError = 0x0
    case protocolError = 0x1
    case internalError = 0x2
    case refusedStream = 0x7
}

/// Why a server session stopped reading: the peer broke the protocol, or opened more streams than allowed.
public enum HTTP2ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// nghttp2 rejected the peer's bytes (bad preface, malformed frames, flow-control violations…).
    case protocolViolation(code: Int32, text: String)
    /// The peer opened a stream beyond the advertised SETTINGS_MAX_CONCURRENT_STREAMS; a GOAWAY was queued.
    case streamLimitExceeded(limit: UInt32)

    public var description: String {
        switch self {
        case .protocolViolation(_, let text): return "HTTP/2 protocol error from the client: \(text)"
        case .streamLimitExceeded(let limit): return "the client opened more than \(limit) concurrent streams"
        }
    }
}

/// The GOAWAY debug text APNs sends when a client exceeds the stream limit (observed; plain text, not JSON).
public let maximumActiveStreamsViolatedText = "Maximum active streams violated for this endpoint."
