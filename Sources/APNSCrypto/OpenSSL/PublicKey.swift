internal import COpenSSL

/// An owned public-only `EVP_PKEY`: what the mock verifies provider tokens with.
public final class PublicKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(takingOwnership pointer: OpaquePointer) { self.pointer = pointer }

    /// Parses SubjectPublicKeyInfo DER.
    public convenience init(der: [UInt8]) throws(OpenSSLError) {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_PUBKEY(nil, &p, buf.count)
        }
        guard let k = parsed else { throw OpenSSLError("parsing a public key") }
        self.init(takingOwnership: k)
    }

    /// Parses `-----BEGIN PUBLIC KEY-----` PEM text.
    public convenience init(pem: [UInt8]) throws(OpenSSLError) {
        let bio = try MemoryBIO(bytes: pem)
        guard let k = PEM_read_bio_PUBKEY(bio.pointer, nil, nil, nil) else {
            throw OpenSSLError("reading a public key")
        }
        self.init(takingOwnership: k)
    }

    /// SubjectPublicKeyInfo DER.
    public var der: [UInt8] { (try? KeyDescription.publicDER(pointer)) ?? [] }

    /// `-----BEGIN PUBLIC KEY-----` PEM text.
    public var pem: [UInt8] {
        guard let bio = try? MemoryBIO(), PEM_write_bio_PUBKEY(bio.pointer, pointer) == 1 else { return [] }
        return bio.contents
    }

    /// `RSA 2048`, `EC P-256`, …
    public var typeDescription: String { KeyDescription.describe(pointer) }

    /// Whether the key is EC P-256 (ES256).
    public var isP256: Bool { KeyDescription.isP256(pointer) }

    /// Verifies a DER-encoded signature over SHA-256 of `message` (ECDSA or RSA PKCS#1 v1.5).
    public func verifySHA256(signatureDER: [UInt8], message: [UInt8]) -> Bool {
        guard let ctx = EVP_MD_CTX_new() else {
            OpenSSLError.clearQueue()
            return false
        }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, EVP_sha256(), nil, pointer) == 1 else {
            OpenSSLError.clearQueue()
            return false
        }
        let rc = signatureDER.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { msg in
                EVP_DigestVerify(ctx, sig.baseAddress, sig.count, msg.baseAddress, msg.count)
            }
        }
        OpenSSLError.clearQueue()
        return rc == 1
    }

    deinit { EVP_PKEY_free(pointer) }
}
