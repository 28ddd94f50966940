/// What a credential file encoded in base64 on one line is, read from its first bytes: a CI secret made with
/// `base64 -w0 push.p12` starts `MII` just as a `.p8`'s body does, and the two need different advice (decode the
/// file, or add the key's BEGIN and END lines).
public enum Base64DERKind: Sendable, Equatable {
    /// A private key (PKCS#8, or PKCS#1 / SEC1): version 0 or 1 first.
    case privateKey
    /// An encrypted PKCS#8 key: an algorithm identifier first.
    case encryptedPrivateKey
    /// A PKCS#12 bag (`.p12`): version 3 first.
    case pkcs12
    /// An X.509 certificate (`.cer`): a to-be-signed sequence first.
    case certificate

    /// The kind of DER the base64 text `core` starts with; nil when its start is none of these.
    public init?(base64 core: String) {
        let bytes = VariableEcho.base64URLDecoded(Substring(core.prefix(32)))
        guard let inner = Self.contents(of: bytes, at: 0), inner < bytes.count else { return nil }
        switch bytes[inner] {
        case 0x02:
            guard inner + 2 < bytes.count, bytes[inner + 1] == 1 else { return nil }
            switch bytes[inner + 2] {
            case 0, 1: self = .privateKey
            case 3: self = .pkcs12
            default: return nil
            }
        case 0x30:
            guard let first = Self.contents(of: bytes, at: inner), first < bytes.count else { return nil }
            switch bytes[first] {
            case 0x06: self = .encryptedPrivateKey
            case 0xA0, 0x02: self = .certificate
            default: return nil
            }
        default: return nil
        }
    }

    /// How a whole PEM file encoded in base64 starts (`-----BEGIN` encoded): decoded, it is PEM text.
    public static let encodedPEMStart = "LS0tLS1CRUdJT"

    /// Whether `bytes` are base64 text (standard alphabet and padding), with the line breaks `base64` wraps at 76
    /// columns: the form a file kept as a CI secret takes.
    public static func isBase64Text(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.allSatisfy { b in
            (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2B
                || b == 0x2F || b == 0x3D || b == 0x0A || b == 0x0D
        }
    }

    /// Where the contents of the SEQUENCE at `offset` start; nil when no SEQUENCE header is there.
    private static func contents(of bytes: [UInt8], at offset: Int) -> Int? {
        guard offset + 1 < bytes.count, bytes[offset] == 0x30 else { return nil }
        let length = bytes[offset + 1]
        guard length & 0x80 != 0 else { return offset + 2 }
        let count = Int(length & 0x7F)
        guard (1...4).contains(count) else { return nil }
        return offset + 2 + count
    }
}
