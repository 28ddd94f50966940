import APNSCore
import APNSPlatform

/// What the sender is doing, for `--verbose` (rendering lives in the CLI).
public enum SendEvent {
    case connecting(PushEndpoint, attempt: Int)
    case connected(ConnectionInfo)
    /// Opening a connection failed (DNS, TCP, TLS); the sender may try again.
    case connectFailed(TransportFailure)
    case serverSettings(maxConcurrentStreams: UInt32)
    case request(PushTarget, APNSRequest, authority: String)
    case response(PushTarget, HTTPResponse, durationMs: Double)
    /// GOAWAY: the last stream the server will answer, its error code and what its debug data says.
    case goAway(lastStreamID: Int32, GoAwayNotice)
    /// A write failed; answers already sent by the server are still read.
    case writeFailed
    /// The connection ended: why, what it answered, and how many go to the next connection.
    /// `resent`: unanswered requests that go to the next connection (never completely sent, or all of them
    /// with `resendUnknown`); `unknown`: completely sent and unanswered, reported as possibly delivered.
    case connectionLost(ConnectionEnd, answered: Int, resent: Int, unknown: Int)
    /// SIGINT/SIGTERM: nothing new is sent; answers in flight get a grace period.
    case interrupted(signal: Int32, inFlight: Int)
}
