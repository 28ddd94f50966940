import APNSCore

/// What an HTTP/2 client session reports to its driver after bytes arrive or go out.
/// Events, not callbacks: the driver (APNSClient) decides what an answer means, and the session
/// stays testable by feeding bytes and reading events.
public enum HTTP2ClientEvent: Sendable, Equatable {
    /// A stream ended after the server sent a `:status`: an answer, whatever else happened.
    case response(streamID: Int32, HTTPResponse)
    /// A stream ended without any answer: reset by the server, refused after GOAWAY, or never sent.
    /// Such a request may be sent again on another connection.
    case unanswered(streamID: Int32, errorCode: UInt32)
    /// The server is closing the connection; streams above `lastStreamID` were not processed.
    case goAway(HTTP2GoAway)
}

/// A GOAWAY frame as received. APNs puts `{"reason":"Shutdown"}` in the debug data, but has also been
/// seen sending plain text (`Maximum active streams violated for this endpoint.`), so both are kept.
public struct HTTP2GoAway: Sendable, Equatable {
    /// The highest stream the server processed or may still answer.
    public var lastStreamID: Int32
    /// The HTTP/2 error code (0 = NO_ERROR, a graceful shutdown).
    public var errorCode: UInt32
    /// Opaque debug data, usually JSON or text.
    public var debugData: [UInt8]

    /// A GOAWAY as received.
    public init(lastStreamID: Int32, errorCode: UInt32, debugData: [UInt8]) {
        self.lastStreamID = lastStreamID
        self.errorCode = errorCode
        self.debugData = debugData
    }
}

extension HTTP2ErrorCode {
    /// The name of any HTTP/2 error code (RFC 9113 §7) for messages: `PROTOCOL_ERROR`,
    /// `REFUSED_STREAM`…; codes outside the RFC as `0x…`.
    public static func name(_ code: UInt32) -> String {
        let names = [
            "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
            "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
            "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
        ]
        if Int(code) < names.count { return names[Int(code)] }
        return "0x" + String(code, radix: 16)
    }
}
