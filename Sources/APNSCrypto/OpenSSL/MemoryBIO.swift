internal import COpenSSL

/// An owned OpenSSL memory BIO: the bridge between Swift byte arrays and OpenSSL's PEM/DER readers and writers.
final class MemoryBIO {
    let pointer: OpaquePointer

    /// A read-only BIO over a copy of `bytes`.
    init(bytes: [UInt8]) throws(OpenSSLError) {
        guard let b = BIO_new(BIO_s_mem()) else { throw OpenSSLError("allocating a memory BIO") }
        pointer = b
        if !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { BIO_write(b, $0.baseAddress, Int32($0.count)) }
            if n != Int32(bytes.count) { throw OpenSSLError("filling a memory BIO") }
        }
    }

    /// An empty BIO to write into.
    convenience init() throws(OpenSSLError) { try self.init(bytes: []) }

    /// Everything written so far.
    var contents: [UInt8] {
        var ptr: UnsafeMutablePointer<CChar>? = nil
        let n = COpenSSL_BIO_get_mem_data(pointer, &ptr)
        guard n > 0, let p = ptr else { return [] }
        return p.withMemoryRebound(to: UInt8.self, capacity: n) { Array(UnsafeBufferPointer(start: $0, count: n)) }
    }

    deinit { BIO_free(pointer) }
}
