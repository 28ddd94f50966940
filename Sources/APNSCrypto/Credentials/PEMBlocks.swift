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
            let inner = bytes[(labelEnd + dashes.count)..<endStart]
            // Most blocks are laid out as OpenSSL writes them: taken as they are, without building them again.
            let text =
                isCanonical(inner) ? Array(bytes[start..<stop]) + [0x0A] : canonical(label: label, inner: Array(inner))
            blocks.append(PEMBlock(label: label, text: text))
            i = stop
        }
        return (blocks, nil)
    }

    /// The block as OpenSSL reads it, from the text between its BEGIN and END lines laid out again: a key pasted
    /// into YAML (indented), a CI secret or `.env` file that flattened its line breaks into spaces or into the two
    /// characters `\n`, keep every byte of the key, but OpenSSL's reader refuses them, and the advice for a damaged
    /// file (download it again) cannot be followed for a `.p8`, which Apple lets download once. Header lines
    /// (`Proc-Type:`, `DEK-Info:`) stay as they are, and the base64 body is wrapped at 64 characters.
    static func canonical(label: String, inner: [UInt8]) -> [UInt8] {
        var text: [UInt8] = []
        var k = 0
        while k < inner.count {
            // `\n` and `\r` as two characters are line breaks that were escaped.
            if inner[k] == UInt8(ascii: "\\"), k + 1 < inner.count,
                inner[k + 1] == UInt8(ascii: "n") || inner[k + 1] == UInt8(ascii: "r")
            {
                text.append(0x0A)
                k += 2
            } else {
                text.append(inner[k])
                k += 1
            }
        }
        let lines: [[UInt8]] = text.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).map { line in
            Array(line.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
        }.filter { !$0.isEmpty }
        let colon = UInt8(ascii: ":")
        let headers = lines.filter { $0.contains(colon) }
        var body: [UInt8] = []
        for line in lines where !line.contains(colon) { body += line.filter { !isBlank($0) } }
        var out = Array("-----BEGIN \(label)-----\n".utf8)
        for header in headers { out += header + [0x0A] }
        if !headers.isEmpty { out.append(0x0A) }
        var j = 0
        while j < body.count {
            out += body[j..<min(j + 64, body.count)] + [0x0A]
            j += 64
        }
        out += Array("-----END \(label)-----\n".utf8)
        return out
    }

    private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    /// Whether the text between a block's BEGIN and END lines is lines of base64 of at most 64 characters each,
    /// separated by LF alone: OpenSSL's own layout, which `canonical` would write again unchanged.
    static func isCanonical(_ inner: ArraySlice<UInt8>) -> Bool {
        guard inner.first == 0x0A, inner.last == 0x0A else { return false }
        var length = 0
        for b in inner {
            if b == 0x0A {
                length = 0
                continue
            }
            let base64 =
                (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B
                || b == 0x2F || b == 0x3D
            guard base64, length < 64 else { return false }
            length += 1
        }
        return true
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
