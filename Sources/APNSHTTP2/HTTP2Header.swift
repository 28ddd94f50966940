import APNSCore
internal import CNghttp2

/// Header lists laid out for nghttp2 (the server's answers) in buffers kept between calls: `reset`, `add` each
/// field, then `withPairs`. nghttp2 copies names and values during submit (the NO_COPY flags are not set), so
/// the buffers are free again afterwards. Requests lend their shared fields instead (`LentHeaderBlock`).
struct NameValueScratch {
    private var storage: [UInt8] = []
    private var entries: [(name: Int, nameLength: Int, value: Int, valueLength: Int, flags: UInt8)] = []
    private var pairs: [nghttp2_nv] = []

    /// Forgets the previous list, keeping the capacity.
    mutating func reset() {
        storage.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Appends one field.
    mutating func add(_ name: String, _ value: String, neverIndex: Bool) {
        let n = storage.count
        storage.append(contentsOf: name.utf8)
        let v = storage.count
        storage.append(contentsOf: value.utf8)
        let flags = neverIndex ? UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue) : UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)
        entries.append((n, v - n, v, storage.count - v, flags))
    }

    /// Lends nghttp2 the `nghttp2_nv` array for the fields added since `reset`.
    mutating func withPairs<R>(_ body: (UnsafePointer<nghttp2_nv>, Int) -> R) -> R {
        storage.append(0)
        pairs.removeAll(keepingCapacity: true)
        return storage.withUnsafeMutableBufferPointer { buf in
            guard let base = buf.baseAddress else { return body(UnsafePointer(bitPattern: 8).unsafelyUnwrapped, 0) }
            for e in entries {
                pairs.append(
                    nghttp2_nv(
                        name: base + e.name, value: base + e.value, namelen: e.nameLength,
                        valuelen: e.valueLength, flags: e.flags))
            }
            return pairs.withUnsafeBufferPointer { p in
                body(p.baseAddress ?? UnsafePointer(bitPattern: 8).unsafelyUnwrapped, p.count)
            }
        }
    }
}

/// A failure reported by nghttp2, named by `nghttp2_strerror`.
public struct NGHTTP2Error: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    public var description: String { "HTTP/2 \(operation): \(String(cString: nghttp2_strerror(code)))" }
}
