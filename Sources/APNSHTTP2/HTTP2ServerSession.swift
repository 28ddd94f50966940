import APNSCore
internal import CNghttp2

/// An owned nghttp2 server session over a byte stream. The caller moves bytes between the socket and
/// `receive`/`prepareOutput` (`HTTP2Pump` does it over TLS), so the same session serves TLS sockets, tests and fuzzers alike, and it never
/// blocks. Requests come out whole (`takeRequests`), answers go in with `respond`.
public final class HTTP2ServerSession: HTTP2Input, HTTP2Output {
    private let session: OpaquePointer
    /// What the callbacks change, reached through `user_data`; released only after `deinit` freed `session`.
    let state: HTTP2ServerState
    /// Frames serialised and not yet taken by the transport.
    private var output = HTTP2OutputBuffer()
    /// Reused storage for each answer's header list.
    private var scratch = NameValueScratch()

    /// The settings this session was created with.
    public var settings: HTTP2ServerSettings { state.settings }
    /// The stream limit advertised most recently (SETTINGS_MAX_CONCURRENT_STREAMS).
    public var advertisedMaxConcurrentStreams: UInt32 { state.advertisedMaxConcurrentStreams }

    /// Creates the session and queues the initial SETTINGS frame (sent by the first `prepareOutput`).
    public init(settings: HTTP2ServerSettings = HTTP2ServerSettings()) throws(NGHTTP2Error) {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let cbs = callbacks else {
            throw NGHTTP2Error(code: NGHTTP2_ERR_NOMEM.rawValue, operation: "creating callbacks")
        }
        defer { nghttp2_session_callbacks_del(cbs) }
        installServerCallbacks(cbs)
        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let opt = option else {
            throw NGHTTP2Error(code: NGHTTP2_ERR_NOMEM.rawValue, operation: "creating options")
        }
        defer { nghttp2_option_del(opt) }
        // Closed streams are not kept for the RFC 7540 priority tree: PRIORITY frames are ignored anyway.
        nghttp2_option_set_no_closed_streams(opt, 1)
        // libcurl resets every stream it has had its whole answer on (RST_STREAM STREAM_CLOSED), and nghttp2's
        // guard against "rapid reset" floods (1,000 resets, then 33 a second) tore a curl client's connection
        // down with INTERNAL_ERROR after about 1,000 pushes. A reset of a stream already answered costs nothing
        // here; the burst stays bounded by what one connection can send.
        nghttp2_option_set_stream_reset_rate_limit(opt, UInt64(UInt32.max), UInt64(UInt32.max))

        let state = HTTP2ServerState(settings: settings)
        var created: OpaquePointer?
        let rc = nghttp2_session_server_new2(&created, cbs, Unmanaged.passUnretained(state).toOpaque(), opt)
        guard rc == 0, let s = created else {
            throw NGHTTP2Error(code: rc, operation: "creating the server session")
        }
        self.session = s
        self.state = state
        let entries: [(Int32, UInt32)] = [
            (Int32(NGHTTP2_SETTINGS_HEADER_TABLE_SIZE.rawValue), settings.headerTableSize),
            (Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), settings.maxConcurrentStreams),
            (Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), settings.maxHeaderListSize),
        ]
        // All stored properties are set: throwing now runs deinit, which frees the session once.
        try submitSettings(entries)
    }

    deinit { nghttp2_session_del(session) }

    // MARK: Input

    /// Feeds bytes read from the peer. Complete requests become available through `takeRequests`.
    /// After a throw the session reads nothing more; flush the output (it may hold a GOAWAY) and close.
    public func receive(_ bytes: UnsafeRawBufferPointer) throws(HTTP2ServerError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let n = nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        if state.streamLimitViolated { throw .streamLimitExceeded(limit: state.advertisedMaxConcurrentStreams) }
        if n < 0 {
            throw .protocolViolation(code: Int32(n), text: String(cString: nghttp2_strerror(Int32(n))))
        }
    }

    /// Requests completed since the last call, in completion order.
    public func takeRequests() -> [HTTP2ServerRequest] {
        guard !state.completed.isEmpty else { return [] }
        let out = state.completed
        state.completed.removeAll(keepingCapacity: true)
        return out
    }

    // MARK: Output

    /// Answers `streamID`: one HEADERS frame with END_STREAM when `body` is empty (APNs' 200),
    /// else HEADERS then DATA (APNs' errors). `:status` is added here.
    public func respond(streamID: Int32, status: Int, headers: [HeaderField], body: [UInt8] = []) throws(NGHTTP2Error) {
        scratch.reset()
        scratch.add(":status", String(status), neverIndex: false)
        for h in headers { scratch.add(h.name, h.value, neverIndex: h.neverIndex) }
        let rc: Int32
        if body.isEmpty {
            rc = scratch.withPairs { nv, count in nghttp2_submit_response(session, streamID, nv, count, nil) }
        } else {
            state.outgoing[streamID] = HTTP2ServerState.OutgoingBody(body)
            var provider = nghttp2_data_provider()
            provider.read_callback = serverReadBody
            rc = scratch.withPairs { nv, count in nghttp2_submit_response(session, streamID, nv, count, &provider) }
            if rc != 0 { state.outgoing[streamID] = nil }
        }
        if rc != 0 { throw NGHTTP2Error(code: rc, operation: "submitting the response on stream \(streamID)") }
    }

    /// Advertises a new SETTINGS_MAX_CONCURRENT_STREAMS (a token connection's limit rises after its first good token).
    public func setMaxConcurrentStreams(_ limit: UInt32) throws(NGHTTP2Error) {
        guard limit != state.advertisedMaxConcurrentStreams else { return }
        try submitSettings([(Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), limit)])
        state.advertisedMaxConcurrentStreams = limit
    }

    /// Queues GOAWAY. `lastStreamID` nil means the last stream this session processed, so open streams up to it
    /// are still answered and later ones are left for the client to resend. `debugData` is APNs' JSON reason or text.
    public func goAway(lastStreamID: Int32? = nil, code: HTTP2ErrorCode = .noError, debugData: [UInt8] = []) {
        state.goAway(session: session, lastStreamID: lastStreamID, code: code, debugData: debugData)
    }

    /// Serialises queued frames, up to `limit` bytes pending (back-pressure for slow peers); true when there are
    /// bytes to write.
    public func prepareOutput(upTo limit: Int = HTTP2Pump.outputChunk) throws(NGHTTP2Error) -> Bool {
        try output.fill(from: session, upTo: limit)
    }

    /// Lends the pending output to `write`, which returns how many bytes it wrote (possibly 0).
    public func withPendingOutput<E: Error>(_ write: (UnsafeRawBufferPointer) throws(E) -> Int) throws(E) {
        _ = try output.lend(write)
    }

    /// Whether bytes are waiting in the output buffer.
    public var hasPendingOutput: Bool { output.hasPending }
    /// How many (the mock stops reading a peer that does not take its answers).
    public var pendingOutputCount: Int { output.pendingCount }

    // MARK: State

    /// Whether the session still expects bytes from the peer.
    public var wantsRead: Bool { nghttp2_session_want_read(session) != 0 }
    /// Whether the session has frames to send.
    public var wantsWrite: Bool { nghttp2_session_want_write(session) != 0 }
    /// Whether the connection can be closed: nothing more to read or write (e.g. after GOAWAY and the last answer).
    public var isFinished: Bool { !wantsRead && !wantsWrite }

    private func submitSettings(_ entries: [(Int32, UInt32)]) throws(NGHTTP2Error) {
        var list = entries.map { nghttp2_settings_entry(settings_id: $0.0, value: $0.1) }
        let rc = list.withUnsafeMutableBufferPointer { buf in
            nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), buf.baseAddress, buf.count)
        }
        if rc != 0 { throw NGHTTP2Error(code: rc, operation: "submitting SETTINGS") }
    }
}
