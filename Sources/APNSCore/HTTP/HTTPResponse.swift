/// One answer as it arrived: status, header fields (no pseudo-headers) and body. The HTTP/2 session
/// assembles it and the client hands it on unchanged, so the client's public API shows no HTTP/2 type.
public struct HTTPResponse: Sendable, Equatable {
    /// The `:status` (0 when the server sent something that is not a number).
    public var status: Int
    /// Header fields in arrival order.
    public var headers: [HeaderField]
    /// The body (empty for a success; `{"reason":…}` for a rejection; JSON for channel reads).
    public var body: [UInt8]

    /// An answer from its parts.
    public init(status: Int, headers: [HeaderField] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a `:status` field read from its bytes: ASCII digits (nghttp2 lets only three through),
    /// else 0 (not a number).
    public static func status<Bytes: Collection>(fromDigits bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        guard (1...9).contains(bytes.count) else { return 0 }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return 0 }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
