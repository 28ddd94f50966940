import APNSCore
internal import CNghttp2

/// The fields every request of a batch shares (`:method`, `:scheme`, `:authority` and the list the batch
/// gives: `authorization`, `apns-topic`, `apns-push-type`, …) laid out once, in a block nobody writes to
/// again, and lent to nghttp2 with `NO_COPY_NAME`/`NO_COPY_VALUE`, so that for each request it copies only
/// the `:path`. nghttp2 reads lent bytes until the request's HEADERS frame is sent or given up
/// (`nghttp2_submit_request`), which is always before the stream closes: the session keeps the current block,
/// and every stream submitted with a block keeps it until that stream closes (or the session is deleted), so
/// a block replaced when the bearer token changes lives exactly as long as a request can still need it.
final class LentHeaderBlock {
    let method: String
    let authority: String
    let headers: [HeaderField]
    /// Names (lower-cased, as `NO_COPY_NAME` requires) and values, back to back; never changed after `init`.
    private let bytes: UnsafeMutableRawBufferPointer
    /// The request's field list pointing into `bytes`, with the `:path` value (index `pathIndex`) left empty.
    private let template: [nghttp2_nv]
    private static let pathIndex = 3

    init(method: String, authority: String, headers: [HeaderField]) {
        self.method = method
        self.authority = authority
        self.headers = headers
        let fields =
            [
                (":method", method, false), (":scheme", "https", false), (":authority", authority, false),
                (":path", "", true),
            ] + headers.map { ($0.name, $0.value, $0.neverIndex) }
        var layout: [UInt8] = []
        var offsets: [(name: Int, nameLength: Int, value: Int, valueLength: Int)] = []
        for (name, value, _) in fields {
            let n = layout.count
            layout.append(contentsOf: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
            let v = layout.count
            layout.append(contentsOf: value.utf8)
            offsets.append((n, v - n, v, layout.count - v))
        }
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, layout.count), alignment: 1)
        bytes.copyBytes(from: layout)
        let base = bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
        let lent = UInt8(NGHTTP2_NV_FLAG_NO_COPY_NAME.rawValue | NGHTTP2_NV_FLAG_NO_COPY_VALUE.rawValue)
        let noIndex = UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue)
        template = zip(fields, offsets).enumerated().map { i, pair in
            let (field, o) = pair
            // The path's value is each request's own: nghttp2 copies it.
            let flags =
                (i == Self.pathIndex ? UInt8(NGHTTP2_NV_FLAG_NO_COPY_NAME.rawValue) : lent) | (field.2 ? noIndex : 0)
            return nghttp2_nv(
                name: base + o.name, value: base + o.value, namelen: o.nameLength, valuelen: o.valueLength,
                flags: flags)
        }
    }

    /// Zeroed first, so a request that outlived its block would send visibly broken fields (and fail the tests)
    /// instead of stale ones.
    deinit {
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        bytes.deallocate()
    }

    /// Whether requests with these parts can use this block (the same array storage compares at once).
    func serves(method: String, authority: String, headers: [HeaderField]) -> Bool {
        self.headers == headers && self.method == method && self.authority == authority
    }

    /// Lends nghttp2 the field list for one request to `path`, built in `pairs` (reused between calls).
    func withPairs<R>(path: String, pairs: inout [nghttp2_nv], _ body: (UnsafePointer<nghttp2_nv>, Int) -> R) -> R {
        pairs.removeAll(keepingCapacity: true)
        pairs.append(contentsOf: template)
        var path = path
        return path.withUTF8 { value in
            if let start = value.baseAddress {
                pairs[Self.pathIndex].value = UnsafeMutablePointer(mutating: start)
                pairs[Self.pathIndex].valuelen = value.count
            }
            return pairs.withUnsafeBufferPointer { p in body(p.baseAddress.unsafelyUnwrapped, p.count) }
        }
    }
}
