/// Runs OpenSSL's two-pass `i2d_*` convention (first call sizes, second call writes) in one place,
/// so every encoder checks both the size and the written length the same way.
enum DEREncoding {
    /// The bytes `i2d` writes; nil when OpenSSL reports no size or writes a different length.
    static func encode(_ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let n = i2d(nil)
        guard n > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(n))
        let written = out.withUnsafeMutableBufferPointer { buf -> Int32 in
            var p: UnsafeMutablePointer<UInt8>? = buf.baseAddress
            return i2d(&p)
        }
        return written == n ? out : nil
    }
}
