/// Just enough ASN.1 DER to read and write Apple's topics extension (`1.2.840.113635.100.6.3.6`)
/// in Swift, with every length checked: the bytes come from whatever certificate the user passes.
enum DER {
    /// Universal tags used here.
    enum Tag {
        static let null: UInt8 = 0x05
        static let utf8String: UInt8 = 0x0C
        static let printableString: UInt8 = 0x13
        static let ia5String: UInt8 = 0x16
        static let sequence: UInt8 = 0x30
    }

    /// One tag-length-value element: the tag byte and the content bytes.
    struct Element {
        let tag: UInt8
        let content: ArraySlice<UInt8>

        /// The content as text, for the string types Apple and other issuers use; nil otherwise.
        var string: String? {
            switch tag {
            case Tag.utf8String, Tag.printableString, Tag.ia5String:
                return String(validating: content, as: UTF8.self)
            default:
                return nil
            }
        }

        /// The children of a constructed element (nil when the content is not a valid element list).
        var children: [Element]? { DER.elements(content) }
    }

    /// Splits `bytes` into consecutive elements; nil on any malformed or truncated element
    /// (indefinite lengths and multi-byte tags are not DER for these types and are refused).
    static func elements(_ bytes: ArraySlice<UInt8>) -> [Element]? {
        var out: [Element] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let tag = bytes[i]
            if tag & 0x1F == 0x1F { return nil }
            i += 1
            guard i < bytes.endIndex else { return nil }
            var length = Int(bytes[i])
            i += 1
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard count >= 1, count <= 4, bytes.endIndex - i >= count else { return nil }
                length = 0
                for _ in 0..<count {
                    length = (length << 8) | Int(bytes[i])
                    i += 1
                }
            }
            guard length <= bytes.endIndex - i else { return nil }
            out.append(Element(tag: tag, content: bytes[i..<(i + length)]))
            i += length
        }
        return out
    }

    /// Encodes one element with a definite, minimal length.
    static func encode(tag: UInt8, content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        let n = content.count
        if n < 0x80 {
            out.append(UInt8(n))
        } else {
            var lengthBytes: [UInt8] = []
            var v = n
            while v > 0 {
                lengthBytes.insert(UInt8(v & 0xFF), at: 0)
                v >>= 8
            }
            out.append(0x80 | UInt8(lengthBytes.count))
            out += lengthBytes
        }
        return out + content
    }

    /// A UTF8String element.
    static func utf8(_ text: String) -> [UInt8] { encode(tag: Tag.utf8String, content: Array(text.utf8)) }

    /// A SEQUENCE of already-encoded elements.
    static func sequence(_ parts: [[UInt8]]) -> [UInt8] { encode(tag: Tag.sequence, content: parts.flatMap { $0 }) }
}
