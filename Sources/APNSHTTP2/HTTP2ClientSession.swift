import APNSCore
internal import CNghttp2

/// An HTTP/2 client over a byte stream, owning one `nghttp2_session`.
///
/// It never touches a socket: the driver feeds received bytes with `receive(_:)`, writes what
/// `withPendingOutput(_:)` lends it, and reads `takeEvents()`. That keeps TLS, polling and timeouts in
/// APNSClient, and lets tests drive the session against an in-process server with plain byte arrays.
public final class HTTP2ClientSession: HTTP2Input, HTTP2Output {
    private let pointer: OpaquePointer
    /// The mutable state callbacks reach through `user_data`; outlives the session (freed after `deinit`).
    /// Internal, not private: tests check that no ended stream is left in it.
    let state: HTTP2ClientState
    /// Frames serialised by nghttp2 and not yet taken by the transport; its byte counts tell when a request
    /// is completely written (the transport took the byte that ends its END_STREAM frame).
    private var output = HTTP2OutputBuffer()
    /// Streams whose END_STREAM frame is serialised, with the output offset that frame ends at, in order.
    private var endStreamOffsets: [(streamID: Int32, end: UInt64)] = []
    private var endStreamHead = 0
    /// Streams whose request was completely written since the last `takeWrittenRequests`.
    private var writtenRequests: [Int32] = []
    /// The fields the requests share, lent to nghttp2 (replaced when they change, e.g. a new bearer token).
    private var lent: LentHeaderBlock? = nil
    /// Reused storage for the field list of each submitted request.
    private var pairs: [nghttp2_nv] = []

    /// A client session that has queued its connection preface and SETTINGS (ENABLE_PUSH=0).
    /// `assumedPeerConcurrency` is the stream limit used until the server's SETTINGS arrive
    /// (APNs allows a single stream on a token connection until a push succeeds, so callers pass 1).
    public init(assumedPeerConcurrency: UInt32 = 1) throws(NGHTTP2Error) {
        let state = HTTP2ClientState()
        var callbacks: OpaquePointer? = nil
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else {
            throw NGHTTP2Error(code: NGHTTP2_ERR_NOMEM.rawValue, operation: "creating callbacks")
        }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_header_callback(callbacks, clientOnHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, clientOnDataChunk)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, clientOnStreamClose)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, clientOnFrameReceived)
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, clientOnBeginHeaders)
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, clientOnFrameSent)

        var option: OpaquePointer? = nil
        guard nghttp2_option_new(&option) == 0, let option else {
            throw NGHTTP2Error(code: NGHTTP2_ERR_NOMEM.rawValue, operation: "creating options")
        }
        defer { nghttp2_option_del(option) }
        nghttp2_option_set_peer_max_concurrent_streams(option, max(1, assumedPeerConcurrency))

        var session: OpaquePointer? = nil
        let userData = Unmanaged.passUnretained(state).toOpaque()
        let rc = nghttp2_session_client_new2(&session, callbacks, userData, option)
        guard rc == 0, let session else { throw NGHTTP2Error(code: rc, operation: "creating the client session") }
        self.pointer = session
        self.state = state

        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20),
        ]
        let submitted = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        // All stored properties are set: throwing now runs deinit, which frees the session once.
        if submitted != 0 { throw NGHTTP2Error(code: submitted, operation: "submitting SETTINGS") }
    }

    deinit { nghttp2_session_del(pointer) }

    /// Queues a request from its parts (`:scheme` is https); returns its stream id. `body` empty sends
    /// END_STREAM on the HEADERS frame; the body array is shared, not copied, so one payload sent to many
    /// devices costs one buffer. The fields other than `:path` are laid out once per batch and lent to nghttp2
    /// (`LentHeaderBlock`), so a request costs nghttp2 a copy of its path only, and no allocation of ours.
    public func submitRequest(
        method: String, authority: String, path: String, headers: [HeaderField],
        body: [UInt8]
    ) throws(NGHTTP2Error) -> Int32 {
        let block: LentHeaderBlock
        if let current = lent, current.serves(method: method, authority: authority, headers: headers) {
            block = current
        } else {
            block = LentHeaderBlock(method: method, authority: authority, headers: headers)
            lent = block
        }
        var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: clientReadBody)
        let streamID: Int32 = block.withPairs(path: path, pairs: &pairs) { nv, count in
            if body.isEmpty { return nghttp2_submit_request(pointer, nil, nv, count, nil, nil) }
            return withUnsafePointer(to: &provider) { nghttp2_submit_request(pointer, nil, nv, count, $0, nil) }
        }
        guard streamID > 0 else { throw NGHTTP2Error(code: streamID, operation: "submitting a request") }
        state.streams[streamID] = HTTP2ClientState.Stream(body: body, lentHeaders: block)
        return streamID
    }

    /// Feeds bytes received from the server. Protocol violations by the server throw (the connection is
    /// then unusable); answers and GOAWAY become events.
    public func receive(_ bytes: UnsafeRawBufferPointer) throws(NGHTTP2Error) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let consumed = nghttp2_session_mem_recv(pointer, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        if consumed < 0 {
            throw NGHTTP2Error(code: Int32(truncatingIfNeeded: consumed), operation: "reading from the server")
        }
    }

    /// Serialises queued frames, up to `limit` bytes pending; true when there are bytes to write.
    public func prepareOutput(upTo limit: Int = HTTP2Pump.outputChunk) throws(NGHTTP2Error) -> Bool {
        try output.fill(from: pointer, upTo: limit) { produced in
            // nghttp2 reports a frame as sent in the same call that returns its last bytes (or earlier,
            // for a header block split into CONTINUATION frames): the offset is never later than the truth.
            if !state.endStreamFrames.isEmpty {
                for id in state.endStreamFrames { endStreamOffsets.append((id, produced)) }
                state.endStreamFrames.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Lends the pending output to `write`, which returns how many bytes it wrote (possibly 0).
    public func withPendingOutput<E: Error>(_ write: (UnsafeRawBufferPointer) throws(E) -> Int) throws(E) {
        guard try output.lend(write) > 0 else { return }
        let taken = output.taken
        while endStreamHead < endStreamOffsets.count && endStreamOffsets[endStreamHead].end <= taken {
            writtenRequests.append(endStreamOffsets[endStreamHead].streamID)
            endStreamHead += 1
        }
        if endStreamHead == endStreamOffsets.count && endStreamHead > 0 {
            endStreamOffsets.removeAll(keepingCapacity: true)
            endStreamHead = 0
        }
    }

    /// Streams whose whole request (up to END_STREAM) the transport took since the last call, in order.
    /// From then on the server may process the request (RFC 9113 §8.7), so an unanswered one has an
    /// unknown outcome; before, it can safely be sent again.
    public func takeWrittenRequests() -> [Int32] {
        guard !writtenRequests.isEmpty else { return [] }
        let ids = writtenRequests
        writtenRequests.removeAll(keepingCapacity: true)
        return ids
    }

    /// Whether bytes are waiting in the output buffer (call `prepareOutput` first to fill it).
    public var hasPendingOutput: Bool { output.hasPending }

    /// Events since the last call, in the order they happened.
    public func takeEvents() -> [HTTP2ClientEvent] {
        guard !state.events.isEmpty else { return [] }
        let events = state.events
        state.events.removeAll(keepingCapacity: true)
        return events
    }

    /// Whether nghttp2 still expects to read (false once the session is finished, e.g. after GOAWAY
    /// with no open stream left).
    public var wantsRead: Bool { nghttp2_session_want_read(pointer) != 0 }
    /// Whether nghttp2 has frames to send.
    public var wantsWrite: Bool { nghttp2_session_want_write(pointer) != 0 }
    /// Whether the server's first SETTINGS frame has arrived (its stream limit is known).
    public var receivedServerSettings: Bool { state.receivedSettings }
    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS (`UInt32.max` when it set none).
    public var serverMaxConcurrentStreams: UInt32 {
        nghttp2_session_get_remote_settings(pointer, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)
    }
    /// The error code of a GOAWAY this side sent because the server broke the protocol (nil: none sent,
    /// or a graceful NO_ERROR one from `terminate`).
    public var protocolErrorSent: UInt32? { state.sentGoAwayCode.flatMap { $0 == 0 ? nil : $0 } }

    /// Queues GOAWAY: no new streams; the driver flushes it before closing.
    public func terminate(errorCode: UInt32 = 0) {
        _ = nghttp2_session_terminate_session(pointer, errorCode)
    }
}

/// State shared with the C callbacks. A class of its own so the session's `user_data` can point at it
/// before the session object finishes initialising.
final class HTTP2ClientState {
    /// One request's progress.
    struct Stream {
        var body: [UInt8]
        /// The block this request's lent fields point into: kept until the stream closes.
        let lentHeaders: LentHeaderBlock
        var bodyOffset = 0
        var status: Int? = nil
        var headers: [HeaderField] = []
        var responseBody: [UInt8] = []
    }

    /// Answers larger than this are cut: APNs error bodies are under 100 bytes.
    static let maximumResponseBody = 64 * 1024
    var streams: [Int32: Stream] = [:]
    var events: [HTTP2ClientEvent] = []
    var receivedSettings = false
    var sentGoAwayCode: UInt32? = nil
    /// Streams whose END_STREAM frame nghttp2 serialised in the current `mem_send` call.
    var endStreamFrames: [Int32] = []

    /// A stream ended: an answer if a final `:status` arrived, else unanswered.
    func close(streamID: Int32, errorCode: UInt32) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        if let status = stream.status {
            events.append(
                .response(
                    streamID: streamID,
                    HTTPResponse(status: status, headers: stream.headers, body: stream.responseBody)))
        } else {
            events.append(.unanswered(streamID: streamID, errorCode: errorCode))
        }
    }
}
