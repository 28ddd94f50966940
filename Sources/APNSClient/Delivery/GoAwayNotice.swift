import APNSHTTP2

/// A GOAWAY as messages name it: its error code, and what its debug data says (the JSON `reason`, else the text).
public struct GoAwayNotice: Equatable, Sendable, CustomStringConvertible {
    /// The HTTP/2 error code (0 = NO_ERROR, a graceful shutdown).
    public let errorCode: UInt32
    /// The debug data's `reason`, else its text; nil when empty.
    public let explanation: String?

    public init(errorCode: UInt32, explanation: String? = nil) {
        self.errorCode = errorCode
        self.explanation = explanation
    }

    /// The GOAWAY as received, its debug data read once.
    init(_ goAway: HTTP2GoAway) {
        self.init(errorCode: goAway.errorCode, explanation: APNSErrorBody.explanation(of: goAway.debugData))
    }

    /// The error code's name, e.g. `NO_ERROR`.
    public var errorName: String { HTTP2ErrorCode.name(errorCode) }

    /// `GOAWAY NO_ERROR: Shutdown`.
    public var description: String { "GOAWAY \(errorName)" + (explanation.map { ": " + $0 } ?? "") }
}
