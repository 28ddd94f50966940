internal import CNghttp2
import APNSCore

/// What the server session's C callbacks read and change, reached through nghttp2's `user_data`. A class of
/// its own, as `HTTP2ClientState` is for the client: it exists before the nghttp2 session, so no callback can
/// see a half-built `HTTP2ServerSession`, and the session holds it strongly and frees the nghttp2 session in
/// its `deinit` before releasing it, so no callback can ever reach freed state (no unsafe unowned route
/// back to the session, and no reference counting on the per-frame path either).
final class HTTP2ServerState {
    /// Per-stream state while a request arrives.
    final class IncomingStream {
        var headers: [HeaderField] = []
        var headerBytes = 0
        var body: [UInt8] = []
        var bodySize = 0
    }

    /// A response body being handed to nghttp2 in DATA frames.
    final class OutgoingBody {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// The settings the session was created with.
    let settings: HTTP2ServerSettings
    /// The stream limit advertised most recently (SETTINGS_MAX_CONCURRENT_STREAMS).
    var advertisedMaxConcurrentStreams: UInt32
    var incoming: [Int32: IncomingStream] = [:]
    var outgoing: [Int32: OutgoingBody] = [:]
    var completed: [HTTP2ServerRequest] = []
    /// Client streams nghttp2 has open (from their first HEADERS to their close), answered or not.
    var openStreams: Set<Int32> = []
    /// Highest client stream id seen so far (new streams must exceed it).
    var highestStreamID: Int32 = 0
    /// Set by the invalid-frame callback when a stream broke the limit; turned into an error by `receive`.
    var streamLimitViolated = false
    /// Set once a GOAWAY has been queued by us.
    var goAwaySubmitted = false

    init(settings: HTTP2ServerSettings) {
        self.settings = settings
        self.advertisedMaxConcurrentStreams = settings.maxConcurrentStreams
    }

    /// Queues GOAWAY on `session` (the one this state belongs to); see `HTTP2ServerSession.goAway`.
    func goAway(session: OpaquePointer, lastStreamID: Int32?, code: HTTP2ErrorCode, debugData: [UInt8]) {
        let last = lastStreamID ?? nghttp2_session_get_last_proc_stream_id(session)
        let rc = debugData.withUnsafeBufferPointer { buf in
            nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, code.rawValue, buf.baseAddress, buf.count)
        }
        if rc == 0 { goAwaySubmitted = true }
    }
}
