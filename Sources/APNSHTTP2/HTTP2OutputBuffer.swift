internal import CNghttp2

/// Frames one nghttp2 session serialised and the transport has not taken yet: the output half that the client
/// and the server session share, so both produce, lend and report failures the same way.
struct HTTP2OutputBuffer {
    private var bytes: [UInt8] = []
    private var offset = 0
    /// Bytes produced since the session began (the client marks where each END_STREAM frame ends with it).
    private(set) var produced: UInt64 = 0
    /// Bytes the transport took since the session began.
    private(set) var taken: UInt64 = 0

    var hasPending: Bool { offset < bytes.count }
    var pendingCount: Int { bytes.count - offset }

    /// Serialises frames from `session` until `limit` bytes are pending or nghttp2 has nothing more;
    /// `afterChunk` runs after each chunk nghttp2 returned, given `produced`. True when bytes are pending.
    mutating func fill(from session: OpaquePointer, upTo limit: Int, afterChunk: (UInt64) -> Void = { _ in })
        throws(NGHTTP2Error) -> Bool
    {
        if offset == bytes.count && offset > 0 {
            bytes.removeAll(keepingCapacity: true)
            offset = 0
        }
        while bytes.count - offset < limit {
            var data: UnsafePointer<UInt8>? = nil
            let n = nghttp2_session_mem_send(session, &data)
            if n < 0 { throw NGHTTP2Error(code: Int32(truncatingIfNeeded: n), operation: "preparing frames") }
            guard n > 0, let data else { break }
            bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: n))
            produced += UInt64(n)
            afterChunk(produced)
        }
        return offset < bytes.count
    }

    /// Lends the pending bytes to `write`, which returns how many it took (possibly 0); returns that count.
    mutating func lend<E: Error>(_ write: (UnsafeRawBufferPointer) throws(E) -> Int) throws(E) -> Int {
        guard offset < bytes.count else { return 0 }
        let start = offset
        let outcome: Result<Int, E> = bytes.withUnsafeBytes { all in
            do throws(E) { return .success(try write(UnsafeRawBufferPointer(rebasing: all[start...]))) } catch {
                return .failure(error)
            }
        }
        let written = min(bytes.count - offset, max(0, try outcome.get()))
        offset += written
        taken += UInt64(written)
        return written
    }
}
