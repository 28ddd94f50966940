internal import COpenSSL

/// An owned OpenSSL `X509`. Raw field access is in `X509Certificate+Fields.swift`; Apple's push extensions are
/// read by `CertificateInfo` with the markers of `ApplePush.swift`.
public final class X509Certificate: @unchecked Sendable {
    /// The owned `X509*`; never stored by a borrower.
    let pointer: OpaquePointer

    /// Takes ownership of an `X509*` (it is freed in `deinit`).
    init(takingOwnership pointer: OpaquePointer) { self.pointer = pointer }

    /// Parses one DER certificate.
    public convenience init(der: [UInt8]) throws(OpenSSLError) {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_X509(nil, &p, buf.count)
        }
        guard let x = parsed else { throw OpenSSLError("parsing a DER certificate") }
        self.init(takingOwnership: x)
    }

    /// Every certificate in PEM text, in file order (empty when there is none).
    public static func all(pem: [UInt8]) throws(OpenSSLError) -> [X509Certificate] {
        let bio = try MemoryBIO(bytes: pem)
        var out: [X509Certificate] = []
        // `_AUX` reads `TRUSTED CERTIFICATE` blocks too (`openssl x509 -trustout`), trust settings aside.
        while let x = PEM_read_bio_X509_AUX(bio.pointer, nil, nil, nil) {
            out.append(X509Certificate(takingOwnership: x))
        }
        OpenSSLError.clearQueue()  // the loop always ends on PEM_R_NO_START_LINE
        return out
    }

    /// The DER encoding.
    public var der: [UInt8] { DEREncoding.encode { i2d_X509(pointer, $0) } ?? [] }

    /// The PEM encoding (`-----BEGIN CERTIFICATE-----`).
    public var pem: [UInt8] {
        guard let bio = try? MemoryBIO() else { return [] }
        guard PEM_write_bio_X509(bio.pointer, pointer) == 1 else { return [] }
        return bio.contents
    }

    /// Another owner of the same certificate (`X509_up_ref`).
    func retainedPointer() -> OpaquePointer {
        X509_up_ref(pointer)
        return pointer
    }

    deinit { X509_free(pointer) }
}
