import APNSCore
internal import CNghttp2

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
        /// What this stream counts in `unfinishedBytes`: header bytes and the body bytes kept.
        var held: Int { headerBytes + body.count }
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
    /// Bytes held for incomplete requests (`IncomingStream.held`, summed), capped by
    /// `settings.maxUnfinishedRequestBytes`.
    var unfinishedBytes = 0

    init(settings: HTTP2ServerSettings) {
        self.settings = settings
        self.advertisedMaxConcurrentStreams = settings.maxConcurrentStreams
    }

    /// Forgets the incomplete request on `streamID` (completed, closed or refused), releasing what it held.
    @discardableResult
    func forgetIncoming(_ streamID: Int32) -> IncomingStream? {
        guard let stream = incoming.removeValue(forKey: streamID) else { return nil }
        unfinishedBytes -= stream.held
        return stream
    }

    /// Whether holding `more` bytes stays within the cap; if not, the stream is forgotten and reset with
    /// REFUSED_STREAM (the client may send it again: it was not processed).
    func admit(_ more: Int, on streamID: Int32, session: OpaquePointer?) -> Bool {
        guard unfinishedBytes + more > settings.maxUnfinishedRequestBytes else {
            unfinishedBytes += more
            return true
        }
        forgetIncoming(streamID)
        if let session {
            _ = nghttp2_submit_rst_stream(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, HTTP2ErrorCode.refusedStream.rawValue)
        }
        return false
    }

    /// Queues GOAWAY on `session` (the one this state belongs to); see `HTTP2ServerSession.goAway`.
    func goAway(session: OpaquePointer, lastStreamID: Int32?, code: HTTP2ErrorCode, debugData: [UInt8]) {
        let last = lastStreamID ?? nghttp2_session_get_last_proc_stream_id(session)
        _ = debugData.withUnsafeBufferPointer { buf in
            nghttp2_submit_goaway(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, code.rawValue, buf.baseAddress, buf.count)
        }
    }
}
