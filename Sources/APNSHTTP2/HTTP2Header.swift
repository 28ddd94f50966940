internal import CNghttp2

/// One HTTP/2 header field as the sessions exchange it.
public struct HTTP2Header: Equatable, Sendable {
    public let name: String
    public let value: String
    /// Never put in the HPACK dynamic table: per-request values (`:path`, `apns-id`) and secrets
    /// (`authorization` is indexed on purpose, as APNS.md advises: it repeats on every request).
    public let neverIndex: Bool

    public init(_ name: String, _ value: String, neverIndex: Bool = false) {
        self.name = name
        self.value = value
        self.neverIndex = neverIndex
    }
}

extension Array where Element == HTTP2Header {
    /// The first value of `name` (names are lowercase on the wire).
    public func value(of name: String) -> String? { first { $0.name == name }?.value }
}

/// Lends nghttp2 an `nghttp2_nv` array for `headers` for the duration of `body`.
/// nghttp2 copies names and values during submit (the NO_COPY flags are not set), so the storage
/// only has to live until `body` returns.
func withNameValuePairs<R>(_ headers: [HTTP2Header], _ body: (UnsafePointer<nghttp2_nv>, Int) -> R) -> R {
    var storage: [UInt8] = []
    var offsets: [(name: Int, nameLength: Int, value: Int, valueLength: Int, flags: UInt8)] = []
    for h in headers {
        let n = storage.count
        storage.append(contentsOf: h.name.utf8)
        let v = storage.count
        storage.append(contentsOf: h.value.utf8)
        let flags = h.neverIndex ? UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue) : UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)
        offsets.append((n, h.name.utf8.count, v, h.value.utf8.count, flags))
    }
    storage.append(0)
    return storage.withUnsafeMutableBufferPointer { buf in
        let base = buf.baseAddress ?? UnsafeMutablePointer<UInt8>(bitPattern: 1).unsafelyUnwrapped
        var nvs = offsets.map { o in
            nghttp2_nv(name: base + o.name, value: base + o.value, namelen: o.nameLength, valuelen: o.valueLength, flags: o.flags)
        }
        return nvs.withUnsafeMutableBufferPointer { nvBuf in
            body(UnsafePointer(nvBuf.baseAddress ?? UnsafeMutablePointer<nghttp2_nv>(bitPattern: 8).unsafelyUnwrapped), nvBuf.count)
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
