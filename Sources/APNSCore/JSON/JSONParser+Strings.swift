/// String reading for `JSONParser`: escapes, surrogate pairs and byte-exact UTF-8 checks,
/// each fault reported at the byte where it starts.
extension JSONParser {
    /// Reads a string starting at its opening quote; checks UTF-8 and escapes byte by byte. With `keeping`
    /// false the string is checked the same way but not decoded (the result is empty), so a value nothing will
    /// read costs no copy of its text however long it is.
    mutating func parseString(keeping: Bool = true) throws(JSONSyntaxError) -> String {
        try readString(keeping: keeping).text
    }

    /// `parseString`, keeping at most `keptLimit` decoded bytes (whole characters) when the parser has a limit:
    /// a longer string is checked to its end but only its start is kept, with its whole length.
    mutating func readString(keeping: Bool = true) throws(JSONSyntaxError) -> KeptString {
        let open = index
        index += 1
        let contentStart = index
        let limit = keeping ? keptLimit ?? .max : 0
        // Fast path: plain ASCII without escapes.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                guard keeping else { return KeptString(text: "") }
                let length = index - 1 - contentStart
                let kept = bytes[contentStart..<(contentStart + min(length, limit))]
                return KeptString(text: String(decoding: kept, as: UTF8.self), cutLength: length > limit ? length : nil)
            }
            if b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { break }
            index += 1
        }
        // Bytes are kept while they fit under the limit; once a character does not, none after it is.
        var decoded = Array(bytes[contentStart..<(contentStart + min(index - contentStart, limit))])
        var length = index - contentStart
        var full = length > limit
        var escape: [UInt8] = []
        while true {
            guard index < bytes.count else {
                throw fail(at: open, "unterminated string; add the closing '\"'")
            }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                guard keeping else { return KeptString(text: "") }
                return KeptString(text: String(decoding: decoded, as: UTF8.self), cutLength: full ? length : nil)
            case UInt8(ascii: "\\"):
                escape.removeAll(keepingCapacity: true)
                try parseEscape(into: &escape)
                keep(escape[...], into: &decoded, length: &length, full: &full, limit: limit)
            case 0x0A, 0x0D:
                // Most often a string whose closing quote is missing, at the end of this line.
                throw fail(
                    at: index,
                    "a line break inside a string: its closing quote is missing? (a line break in a value is written \\n)"
                )
            case 0..<0x20:
                throw fail(
                    at: index, "control character \(Self.hex4(UInt32(b))) inside a string; write it as \(escapeHint(b))"
                )
            case 0x80...:
                let sequence = try utf8SequenceLength(at: index)
                keep(bytes[index..<(index + sequence)], into: &decoded, length: &length, full: &full, limit: limit)
                index += sequence
            default:
                keep(bytes[index...index], into: &decoded, length: &length, full: &full, limit: limit)
                index += 1
            }
        }
    }

    /// Counts one character's UTF-8 into `length` and appends it to `decoded` unless the string is already
    /// `full` or it would pass `limit`.
    private func keep(
        _ character: ArraySlice<UInt8>, into decoded: inout [UInt8], length: inout Int, full: inout Bool, limit: Int
    ) {
        length += character.count
        if !full && decoded.count + character.count <= limit {
            decoded.append(contentsOf: character)
        } else {
            full = true
        }
    }

    /// Reads one backslash escape and appends its UTF-8; surrogate pairs must be complete.
    mutating func parseEscape(into decoded: inout [UInt8]) throws(JSONSyntaxError) {
        let escape = index
        index += 1
        guard let c = peek else { throw fail(at: escape, "unterminated escape at the end of input") }
        index += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(c)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeAt: escape)
            var scalarValue = unit
            if (0xDC00...0xDFFF).contains(unit) {
                throw fail(
                    at: escape,
                    "lone low surrogate \\u\(Self.hexDigits(unit)) in a string; a \\uDC00-\\uDFFF escape must follow a \\uD800-\\uDBFF one"
                )
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw fail(
                        at: escape,
                        "lone high surrogate \\u\(Self.hexDigits(unit)) in a string; follow it with a \\uDC00-\\uDFFF escape"
                    )
                }
                let second = index
                index += 2
                let low = try parseHex4(escapeAt: second)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail(
                        at: escape,
                        "lone high surrogate \\u\(Self.hexDigits(unit)) in a string; follow it with a \\uDC00-\\uDFFF escape"
                    )
                }
                scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw fail(at: escape, "invalid \\u escape")
            }
            decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw fail(
                at: escape,
                "invalid escape \(describeEscape(c)) in a string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
            )
        }
    }

    /// Reads the four hex digits of a `\u` escape.
    mutating func parseHex4(escapeAt escape: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let h = peek, let digit = hexValue(h) else {
                throw fail(at: escape, "\\u must be followed by four hex digits, found \(found(index))")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Length of the well-formed UTF-8 sequence at `at` (Unicode Table 3-7), or an error naming the bad byte.
    func utf8SequenceLength(at start: Int) throws(JSONSyntaxError) -> Int {
        let lead = bytes[start]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default:
            throw fail(at: start, "invalid UTF-8 byte \(Self.hexByte(lead)) in a string; save the file as UTF-8")
        }
        for k in 1..<length {
            let i = start + k
            guard i < bytes.count else {
                throw fail(at: start, "truncated UTF-8 sequence at the end of input; save the file as UTF-8")
            }
            let range: ClosedRange<UInt8> = k == 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[i]) else {
                throw fail(
                    at: start,
                    "invalid UTF-8 sequence starting with byte \(Self.hexByte(lead)) in a string; save the file as UTF-8"
                )
            }
        }
        return length
    }

    /// `'\x'` for a bad escape letter, or the byte when it is not printable.
    func describeEscape(_ c: UInt8) -> String {
        c >= 0x21 && c < 0x7F ? "'\\\(Character(Unicode.Scalar(c)))'" : "'\\' followed by byte \(Self.hexByte(c))"
    }

    /// How to write control byte `b` inside a JSON string.
    func escapeHint(_ b: UInt8) -> String {
        switch b {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        default: return "\\u00" + Self.hexDigits(UInt32(b)).suffix(2)
        }
    }
}

/// Hex spellings for messages.
extension JSONParser {
    /// `U+000A`-style name of a code point.
    static func hex4(_ value: UInt32) -> String { "U+" + Self.hexDigits(value) }

    /// Upper-case hex, at least four digits.
    static func hexDigits(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `0xFF`-style name of a byte.
    static func hexByte(_ b: UInt8) -> String {
        let digits = String(b, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }
}
