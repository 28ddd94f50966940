import APNSHTTP2

/// What broke HTTP/2 on a connection, as values: nghttp2's error code, or the code of the GOAWAY apnsctl sent.
public enum HTTP2Violation: Equatable, Sendable, CustomStringConvertible {
    /// nghttp2 failed `operation` with `code` (what the server sent, or a session that cannot go on).
    case library(code: Int32, operation: String)
    /// The server broke the protocol; apnsctl ended the session with a GOAWAY carrying `code`.
    case goAwaySent(code: UInt32)

    /// The violation as nghttp2 names it.
    init(_ error: NGHTTP2Error) { self = .library(code: error.code, operation: error.operation) }

    public var description: String {
        switch self {
        case .library(let code, let operation): return NGHTTP2Error(code: code, operation: operation).description
        case .goAwaySent(let code):
            return "the server broke the protocol; apnsctl closed the connection with \(HTTP2ErrorCode.name(code))"
        }
    }
}
