internal import COpenSSL

/// A CMS (PKCS#7) SignedData structure read from DER: a provisioning profile is one, its content an XML
/// property list. Reading the content takes no trust decision, so the signature is not verified here and
/// callers say so.
public final class CMSSignedData {
    private let pointer: OpaquePointer

    /// Parses `der`; anything that is not a DER CMS structure is an `OpenSSLError`.
    public init(der: [UInt8]) throws(OpenSSLError) {
        let bio = try MemoryBIO(bytes: der)
        guard let parsed = d2i_CMS_bio(bio.pointer, nil) else { throw OpenSSLError("reading a CMS structure") }
        pointer = parsed
    }

    deinit { CMS_ContentInfo_free(pointer) }

    /// Whether the structure is SignedData (a profile is never anything else).
    public var isSignedData: Bool {
        guard let type = CMS_get0_type(pointer) else { return false }
        return OBJ_obj2nid(type) == NID_pkcs7_signed
    }

    /// The signed content's bytes (copied), or nil when the structure carries none (a detached signature).
    public var content: [UInt8]? {
        guard let slot = CMS_get0_content(pointer), let octets = slot.pointee else { return nil }
        let count = Int(ASN1_STRING_length(octets))
        guard count >= 0, let data = ASN1_STRING_get0_data(octets) else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }
}
