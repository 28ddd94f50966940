import APNSCore
internal import CNghttp2

// nghttp2 callbacks of the client session: small top-level functions that recover the session state
// from `user_data` and record what happened. None of them trusts the peer: odd input is ignored or cut.

@inline(__always)
private func clientState(_ userData: UnsafeMutableRawPointer?) -> HTTP2ClientState? {
    guard let userData else { return nil }
    return Unmanaged<HTTP2ClientState>.fromOpaque(userData).takeUnretainedValue()
}

/// A new header block on a stream: informational (1xx) blocks are followed by the real one, so the
/// collected fields restart here.
func clientOnBeginHeaders(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let state = clientState(userData), let frame else { return 0 }
    let id = frame.pointee.hd.stream_id
    if state.streams[id]?.status == nil { state.streams[id]?.headers.removeAll() }
    return 0
}

/// One response header field: `:status` is parsed, other pseudo-headers dropped, the rest kept.
func clientOnHeader(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
    _ name: UnsafePointer<UInt8>?, _ nameLength: Int,
    _ value: UnsafePointer<UInt8>?, _ valueLength: Int,
    _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let state = clientState(userData), let frame, let name else { return 0 }
    // One hash lookup per field; the stream is then changed in place through its index.
    guard let index = state.streams.index(forKey: frame.pointee.hd.stream_id) else { return 0 }
    let nameBuffer = UnsafeBufferPointer(start: name, count: nameLength)
    let valueBuffer = UnsafeBufferPointer(start: value, count: value == nil ? 0 : valueLength)
    if nameLength > 0 && name[0] == UInt8(ascii: ":") {
        if nameLength == 7 && nameBuffer.elementsEqual(":status".utf8) {
            let code = HTTPResponse.status(fromDigits: valueBuffer)
            // 1xx answers are interim; a final status follows.
            if code < 100 || code >= 200 { state.streams.values[index].status = code }
        }
        return 0
    }
    if state.streams.values[index].headers.count < 64 {
        let field = HeaderField(
            String(decoding: nameBuffer, as: UTF8.self), String(decoding: valueBuffer, as: UTF8.self))
        state.streams.values[index].headers.appendReserving(field)
    }
    return 0
}

/// A piece of a response body, kept up to `maximumResponseBody` bytes.
func clientOnDataChunk(
    _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32,
    _ data: UnsafePointer<UInt8>?, _ length: Int, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let state = clientState(userData), let data, let current = state.streams[streamID]?.responseBody.count else {
        return 0
    }
    let room = max(0, HTTP2ClientState.maximumResponseBody - current)
    if room > 0 {
        state.streams[streamID]?.responseBody.append(
            contentsOf: UnsafeBufferPointer(start: data, count: min(room, length)))
    }
    return 0
}

/// A stream ended (answered, reset, or refused because of GOAWAY or a failed send).
func clientOnStreamClose(
    _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    clientState(userData)?.close(streamID: streamID, errorCode: errorCode)
    return 0
}

/// Whole frames: SETTINGS (the server's stream limit is now known) and GOAWAY.
func clientOnFrameReceived(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let state = clientState(userData), let frame else { return 0 }
    switch frame.pointee.hd.type {
    case UInt8(NGHTTP2_SETTINGS.rawValue):
        if frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0 { state.receivedSettings = true }
    case UInt8(NGHTTP2_GOAWAY.rawValue):
        let g = frame.pointee.goaway
        var debug: [UInt8] = []
        if let data = g.opaque_data, g.opaque_data_len > 0 {
            debug = Array(UnsafeBufferPointer(start: data, count: min(g.opaque_data_len, 4096)))
        }
        let goAway = HTTP2GoAway(lastStreamID: g.last_stream_id, errorCode: g.error_code, debugData: debug)
        state.events.append(.goAway(goAway))
    default:
        break
    }
    return 0
}

/// Frames this side sent: a frame ending a request (END_STREAM) marks where that request is complete
/// in the output; a GOAWAY means nghttp2 gave up on a misbehaving server (or `terminate`).
func clientOnFrameSent(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let state = clientState(userData), let frame else { return 0 }
    let type = frame.pointee.hd.type
    if type == UInt8(NGHTTP2_GOAWAY.rawValue) {
        state.sentGoAwayCode = frame.pointee.goaway.error_code
    } else if (type == UInt8(NGHTTP2_DATA.rawValue) || type == UInt8(NGHTTP2_HEADERS.rawValue))
        && frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
    {
        state.endStreamFrames.append(frame.pointee.hd.stream_id)
    }
    return 0
}

/// Copies the next piece of a request body into nghttp2's frame buffer; EOF ends the stream.
func clientReadBody(
    _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?,
    _ length: Int, _ dataFlags: UnsafeMutablePointer<UInt32>?,
    _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    guard let state = clientState(userData), let buffer, let dataFlags,
        let stream = state.streams[streamID]
    else {
        return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
    }
    let remaining = stream.body.count - stream.bodyOffset
    let n = min(remaining, length)
    if n > 0 {
        stream.body.withUnsafeBufferPointer { src in
            if let base = src.baseAddress { buffer.update(from: base + stream.bodyOffset, count: n) }
        }
    }
    state.streams[streamID]?.bodyOffset += n
    if stream.bodyOffset + n >= stream.body.count {
        dataFlags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
    }
    return n
}

extension Array where Element == HeaderField {
    /// Appends, making room for a typical answer's few fields at the first one (not 1, then 2, then 4).
    mutating func appendReserving(_ field: HeaderField) {
        if isEmpty { reserveCapacity(4) }
        append(field)
    }
}
