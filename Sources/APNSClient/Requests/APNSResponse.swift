import APNSCore

/// One answer as it arrived: status, header fields (no pseudo-headers) and body.
public struct APNSResponse: Sendable, Equatable {
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
}
