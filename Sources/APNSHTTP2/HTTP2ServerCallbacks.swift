import APNSCore
internal import CNghttp2

// nghttp2 calls these top-level functions (a C function pointer cannot capture); each recovers the session state
// from user_data and does one small thing. None traps on anything the peer sends: unexpected input makes
// the callback return an nghttp2 error code instead.

/// Wires the server callbacks into `cbs`.
func installServerCallbacks(_ cbs: OpaquePointer) {
    nghttp2_session_callbacks_set_on_begin_headers_callback(cbs, serverBeginHeaders)
    nghttp2_session_callbacks_set_on_header_callback(cbs, serverHeader)
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, serverDataChunk)
    nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, serverFrameReceived)
    nghttp2_session_callbacks_set_on_stream_close_callback(cbs, serverStreamClosed)
    nghttp2_session_callbacks_set_on_invalid_frame_recv_callback(cbs, serverInvalidFrame)
}

/// The session state behind `userData` (the session keeps it alive for as long as nghttp2 can call back).
@inline(__always)
private func serverState(_ userData: UnsafeMutableRawPointer?) -> HTTP2ServerState? {
    guard let userData else { return nil }
    return Unmanaged<HTTP2ServerState>.fromOpaque(userData).takeUnretainedValue()
}

private let callbackFailure = Int32(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue)
private let temporalFailure = Int32(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
private let headersFrame = UInt8(NGHTTP2_HEADERS.rawValue)
private let dataFrame = UInt8(NGHTTP2_DATA.rawValue)
private let endStreamFlag = UInt8(NGHTTP2_FLAG_END_STREAM.rawValue)

/// A client opened a stream: start collecting its request.
private func serverBeginHeaders(
    _ s: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let me = serverState(userData), let frame else { return callbackFailure }
    let hd = frame.pointee.hd
    guard hd.type == headersFrame, frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
    me.incoming[hd.stream_id] = HTTP2ServerState.IncomingStream()
    me.openStreams.insert(hd.stream_id)
    if hd.stream_id > me.highestStreamID { me.highestStreamID = hd.stream_id }
    return 0
}

/// One header field; a header list over the advertised size resets the stream (temporal failure).
private func serverHeader(
    _ s: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
    _ name: UnsafePointer<UInt8>?, _ nameLength: Int,
    _ value: UnsafePointer<UInt8>?, _ valueLength: Int,
    _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let me = serverState(userData), let frame else { return callbackFailure }
    guard let stream = me.incoming[frame.pointee.hd.stream_id] else { return 0 }  // trailers of a gone stream
    let size = nameLength + valueLength + 32
    if stream.headerBytes + size > Int(me.settings.maxHeaderListSize) { return temporalFailure }
    guard me.admit(size, on: frame.pointee.hd.stream_id, session: s) else { return 0 }
    stream.headerBytes += size
    let n = String(decoding: UnsafeBufferPointer(start: name, count: name == nil ? 0 : nameLength), as: UTF8.self)
    let v = String(decoding: UnsafeBufferPointer(start: value, count: value == nil ? 0 : valueLength), as: UTF8.self)
    stream.headers.append(HeaderField(n, v))
    return 0
}

/// Body bytes: kept up to the cap, counted beyond it.
private func serverDataChunk(
    _ s: OpaquePointer?, _ flags: UInt8, _ streamID: Int32,
    _ data: UnsafePointer<UInt8>?, _ length: Int, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let me = serverState(userData) else { return callbackFailure }
    guard let stream = me.incoming[streamID], let data else { return 0 }
    let kept = min(max(0, me.settings.maxBodyBytes - stream.body.count), length)
    if kept > 0 {
        guard me.admit(kept, on: streamID, session: s) else { return 0 }
        stream.body.append(contentsOf: UnsafeBufferPointer(start: data, count: kept))
    }
    stream.bodySize += length
    return 0
}

/// END_STREAM on HEADERS or DATA completes a request.
private func serverFrameReceived(
    _ s: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let me = serverState(userData), let frame else { return callbackFailure }
    let hd = frame.pointee.hd
    guard hd.type == headersFrame || hd.type == dataFrame, hd.flags & endStreamFlag != 0,
        let stream = me.forgetIncoming(hd.stream_id)
    else { return 0 }
    me.completed.append(
        HTTP2ServerRequest(
            streamID: hd.stream_id, headers: stream.headers,
            body: stream.body, bodySize: stream.bodySize))
    return 0
}

/// A stream ended (answered, reset by either side, or refused by GOAWAY): forget it.
private func serverStreamClosed(
    _ s: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let me = serverState(userData) else { return callbackFailure }
    me.forgetIncoming(streamID)
    me.outgoing[streamID] = nil
    me.openStreams.remove(streamID)
    if errorCode != 0 && !me.completed.isEmpty { me.completed.removeAll { $0.streamID == streamID } }
    return 0
}

/// nghttp2 found a frame it rejects. A new stream beyond the advertised limit becomes APNs' own GOAWAY
/// (plain-text debug data) instead of nghttp2's; the callback failure stops reading so nghttp2 adds no second GOAWAY.
private func serverInvalidFrame(
    _ s: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ libErrorCode: Int32,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let me = serverState(userData), let frame else { return callbackFailure }
    let hd = frame.pointee.hd
    let isNewStream = hd.type == headersFrame && hd.stream_id > me.highestStreamID && hd.stream_id % 2 == 1
    guard isNewStream, libErrorCode == Int32(NGHTTP2_ERR_PROTO.rawValue),
        me.openStreams.count >= Int(me.advertisedMaxConcurrentStreams)
    else { return 0 }
    me.streamLimitViolated = true
    guard let s else { return callbackFailure }
    me.goAway(
        session: s, lastStreamID: nil, code: .protocolError, debugData: Array(maximumActiveStreamsViolatedText.utf8))
    return callbackFailure
}

/// Copies the next piece of a response body into nghttp2's DATA frame.
func serverReadBody(
    _ s: OpaquePointer?, _ streamID: Int32, _ buf: UnsafeMutablePointer<UInt8>?, _ length: Int,
    _ dataFlags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    guard let me = serverState(userData), let buf, let dataFlags else { return Int(callbackFailure) }
    guard let body = me.outgoing[streamID] else {
        dataFlags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        return 0
    }
    let n = min(length, body.bytes.count - body.offset)
    if n > 0 {
        body.bytes.withUnsafeBufferPointer { src in
            if let base = src.baseAddress { buf.update(from: base + body.offset, count: n) }
        }
    }
    body.offset += n
    if body.offset >= body.bytes.count {
        dataFlags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        me.outgoing[streamID] = nil
    }
    return n
}
