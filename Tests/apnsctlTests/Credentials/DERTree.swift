/// A DER tree, enough to rewrite the key-derivation parameters of PKCS#12 files and encrypted keys in tests:
/// OCTET STRINGs whose contents are whole DER are descended into (PKCS#12 wraps its safes that way); anything
/// else stays bytes.
indirect enum DERTree {
    case primitive(tag: UInt8, bytes: [UInt8])
    case constructed(tag: UInt8, children: [DERTree])
    case wrapped(tag: UInt8, children: [DERTree])

    static func parseAll(_ bytes: [UInt8]) -> [DERTree]? {
        var nodes: [DERTree] = []
        var offset = 0
        while offset < bytes.count {
            guard let (node, next) = parse(bytes, at: offset) else { return nil }
            nodes.append(node)
            offset = next
        }
        return nodes
    }

    static func parse(_ bytes: [UInt8], at start: Int) -> (DERTree, Int)? {
        guard start + 2 <= bytes.count else { return nil }
        let tag = bytes[start]
        var offset = start + 1
        var length = Int(bytes[offset])
        offset += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count >= 1, count <= 4, offset + count <= bytes.count else { return nil }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[offset])
                offset += 1
            }
        }
        guard offset + length <= bytes.count else { return nil }
        let content = Array(bytes[offset..<offset + length])
        let end = offset + length
        if tag & 0x20 != 0 {
            guard let children = parseAll(content) else { return nil }
            return (.constructed(tag: tag, children: children), end)
        }
        if tag == 0x04, content.first == 0x30, let children = parseAll(content) {
            return (.wrapped(tag: tag, children: children), end)
        }
        return (.primitive(tag: tag, bytes: content), end)
    }

    var encoded: [UInt8] {
        switch self {
        case .primitive(let tag, let bytes): return DERTree.header(tag, bytes.count) + bytes
        case .constructed(let tag, let children), .wrapped(let tag, let children):
            let content = children.flatMap(\.encoded)
            return DERTree.header(tag, content.count) + content
        }
    }

    static func header(_ tag: UInt8, _ length: Int) -> [UInt8] {
        if length < 0x80 { return [tag, UInt8(length)] }
        var digits: [UInt8] = []
        var rest = length
        while rest > 0 {
            digits.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [tag, 0x80 | UInt8(digits.count)] + digits
    }

    /// Every INTEGER equal to `from` replaced by `to`.
    func replacingIntegers(_ from: Int64, with to: Int64) -> DERTree {
        switch self {
        case .primitive(let tag, let bytes):
            return tag == 0x02 && bytes == DERTree.integer(from)
                ? .primitive(tag: tag, bytes: DERTree.integer(to)) : self
        case .constructed(let tag, let children):
            return .constructed(tag: tag, children: children.map { $0.replacingIntegers(from, with: to) })
        case .wrapped(let tag, let children):
            return .wrapped(tag: tag, children: children.map { $0.replacingIntegers(from, with: to) })
        }
    }

    /// The minimal two's-complement bytes of a positive value.
    static func integer(_ value: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        } while rest > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return bytes
    }

    /// Each run of consecutive INTEGER children equal to `from` (scrypt's N, r, p) replaced by `to`.
    func replacingIntegerRun(_ from: [Int64], with to: [Int64]) -> DERTree {
        switch self {
        case .primitive:
            return self
        case .constructed(let tag, let children), .wrapped(let tag, let children):
            var replaced = children.map { $0.replacingIntegerRun(from, with: to) }
            let wanted = from.map { DERTree.primitive(tag: 0x02, bytes: DERTree.integer($0)).encoded }
            var index = 0
            while index + from.count <= replaced.count {
                if replaced[index..<index + from.count].map(\.encoded) == wanted {
                    for (offset, value) in to.enumerated() {
                        replaced[index + offset] = .primitive(tag: 0x02, bytes: DERTree.integer(value))
                    }
                    index += from.count
                } else {
                    index += 1
                }
            }
            if case .wrapped = self { return .wrapped(tag: tag, children: replaced) }
            return .constructed(tag: tag, children: replaced)
        }
    }

    /// `bytes` parsed, rewritten by `change`, and encoded again; nil when `bytes` is not one DER element.
    static func rewrite(_ bytes: [UInt8], _ change: (DERTree) -> DERTree) -> [UInt8]? {
        guard let (root, end) = parse(bytes, at: 0), end == bytes.count else { return nil }
        return change(root).encoded
    }
}
