/// Splits PEM text into its `-----BEGIN X-----` … `-----END X-----` blocks without decoding them, so
/// the loader can count certificates and keys, see encryption markers, and spot a truncated block
/// before asking OpenSSL to parse each block on its own.
struct PEMBlock {
    /// `CERTIFICATE`, `PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`, `RSA PRIVATE KEY`, …
    let label: String
    /// The whole block, BEGIN and END lines included, as OpenSSL's PEM readers want it.
    let text: [UInt8]

    var isCertificate: Bool { label == "CERTIFICATE" || label == "TRUSTED CERTIFICATE" || label == "X509 CERTIFICATE" }
    var isPrivateKey: Bool { label.hasSuffix("PRIVATE KEY") }
    /// PKCS#8 `ENCRYPTED PRIVATE KEY`, or a traditional key with `Proc-Type: 4,ENCRYPTED`.
    var isEncrypted: Bool {
        label == "ENCRYPTED PRIVATE KEY" || String(decoding: text, as: UTF8.self).contains("Proc-Type: 4,ENCRYPTED")
    }

    /// Whether `bytes` look like PEM text at all.
    static func looksLikePEM(_ bytes: [UInt8]) -> Bool { find(Array("-----BEGIN ".utf8), in: bytes, from: 0) != nil }

    /// Every complete block in order; `truncatedLabel` names a block whose END line is missing.
    static func scan(_ bytes: [UInt8]) -> (blocks: [PEMBlock], truncatedLabel: String?) {
        let begin = Array("-----BEGIN ".utf8)
        let dashes = Array("-----".utf8)
        var blocks: [PEMBlock] = []
        var i = 0
        while let start = find(begin, in: bytes, from: i) {
            let labelStart = start + begin.count
            guard let labelEnd = find(dashes, in: bytes, from: labelStart) else { return (blocks, "?") }
            let label = String(decoding: bytes[labelStart..<labelEnd], as: UTF8.self)
            let end = Array("-----END \(label)-----".utf8)
            guard let endStart = find(end, in: bytes, from: labelEnd + dashes.count) else { return (blocks, label) }
            let stop = endStart + end.count
            var block = Array(bytes[start..<stop])
            block.append(0x0A)
            blocks.append(PEMBlock(label: label, text: block))
            i = stop
        }
        return (blocks, nil)
    }

    private static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count, from <= hay.count - needle.count else { return nil }
        var i = from
        let first = needle[0]
        while i <= hay.count - needle.count {
            if hay[i] == first && hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
