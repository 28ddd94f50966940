/// A strict RFC 8259 JSON reader that keeps positions, key order, duplicate keys and number literals.
///
/// It takes any bytes without trapping: invalid UTF-8, NUL bytes, huge numbers and lone surrogate
/// escapes are syntax errors with a line and column. Containers are read with an explicit stack, not
/// recursion, so deep nesting cannot overflow the call stack; more than `maximumDepth` levels is an error.
public enum JSONReader {
    /// Deepest nesting of arrays and objects accepted. APNs payloads are shallow; a deeper document
    /// is almost certainly broken or hostile.
    public static let maximumDepth = 512

    /// Reads one JSON value that spans all of `bytes` (surrounding whitespace allowed).
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }
}

/// A container being read: the reader's explicit stack instead of recursion.
private enum OpenContainer {
    case array(start: Int, elements: [JSONValue])
    case object(start: Int, members: [JSONMember], key: String, keyStart: Int)
}

/// The reader's state over one byte buffer.
private struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: document and containers

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.isEmpty { throw fail(at: 0, "empty input: expected a JSON value") }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw fail(at: 0, "byte order mark (EF BB BF) before the JSON; save the file as UTF-8 without BOM")
        }
        var stack: [OpenContainer] = []
        var value: JSONValue
        readValue: while true {
            skipWhitespace()
            guard index < bytes.count else { throw unexpected(at: index, expected: "a JSON value") }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "{"):
                try checkDepth(stack.count, at: start)
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
                    index += 1
                    value = JSONValue(kind: .object([]), start: start, end: index)
                } else {
                    let (key, keyStart) = try parseKey(after: "'{'")
                    stack.append(.object(start: start, members: [], key: key, keyStart: keyStart))
                    continue readValue
                }
            case UInt8(ascii: "["):
                try checkDepth(stack.count, at: start)
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    index += 1
                    value = JSONValue(kind: .array([]), start: start, end: index)
                } else {
                    stack.append(.array(start: start, elements: []))
                    continue readValue
                }
            case UInt8(ascii: "\""):
                value = JSONValue(kind: .string(try parseString()), start: start, end: index)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = JSONValue(kind: .number(try parseNumber()), start: start, end: index)
            default:
                value = try parseLiteral()
            }

            // A value is complete: hand it to the enclosing container, closing containers as they end.
            while let top = stack.popLast() {
                skipWhitespace()
                switch top {
                case .array(let arrayStart, var elements):
                    elements.append(value)
                    if peek == UInt8(ascii: ",") {
                        let comma = index
                        index += 1
                        skipWhitespace()
                        if peek == UInt8(ascii: "]") {
                            throw fail(at: comma, "trailing comma before ']'; remove the comma")
                        }
                        stack.append(.array(start: arrayStart, elements: elements))
                        continue readValue
                    }
                    guard peek == UInt8(ascii: "]") else {
                        throw fail(at: index, "expected ',' or ']' after an array element, found \(found(index))")
                    }
                    index += 1
                    value = JSONValue(kind: .array(elements), start: arrayStart, end: index)
                case .object(let objectStart, var members, let key, let keyStart):
                    members.append(JSONMember(key: key, keyStart: keyStart, value: value))
                    if peek == UInt8(ascii: ",") {
                        let comma = index
                        index += 1
                        skipWhitespace()
                        if peek == UInt8(ascii: "}") {
                            throw fail(at: comma, "trailing comma before '}'; remove the comma")
                        }
                        let (nextKey, nextKeyStart) = try parseKey(after: "','")
                        stack.append(.object(start: objectStart, members: members, key: nextKey, keyStart: nextKeyStart))
                        continue readValue
                    }
                    guard peek == UInt8(ascii: "}") else {
                        throw fail(at: index, "expected ',' or '}' after an object member, found \(found(index))")
                    }
                    index += 1
                    value = JSONValue(kind: .object(members), start: objectStart, end: index)
                }
            }
            break readValue
        }
        skipWhitespace()
        if index < bytes.count {
            throw fail(at: index, "unexpected \(found(index)) after the JSON value; a payload holds exactly one JSON object")
        }
        return value
    }

    /// Reads `"key"` and the `:` after it (whitespace already skipped).
    mutating func parseKey(after context: String) throws(JSONSyntaxError) -> (String, Int) {
        let keyStart = index
        guard peek == UInt8(ascii: "\"") else {
            throw unexpected(at: index, expected: "a string key in double quotes after \(context)")
        }
        let key = try parseString()
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else {
            throw fail(at: index, "expected ':' after the object key \(JSONWriter.quoted(key)), found \(found(index))")
        }
        index += 1
        return (key, keyStart)
    }

    func checkDepth(_ open: Int, at offset: Int) throws(JSONSyntaxError) {
        if open >= JSONReader.maximumDepth {
            throw fail(at: offset, "nesting deeper than \(JSONReader.maximumDepth) levels of arrays and objects; flatten the payload")
        }
    }

    // MARK: scalars

    /// Reads `true`, `false`, `null`, or explains the common non-JSON words and characters.
    mutating func parseLiteral() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        for (word, kind) in [("true", JSONValue.Kind.bool(true)), ("false", .bool(false)), ("null", .null)]
        where matches(word) {
            index += word.utf8.count
            if let next = peek, isWordByte(next) { break }
            return JSONValue(kind: kind, start: start, end: index)
        }
        index = start
        var end = start
        while end < bytes.count, isWordByte(bytes[end]), end - start < 32 { end += 1 }
        let word = String(decoding: bytes[start..<end], as: UTF8.self)
        switch word {
        case "NaN", "Infinity", "inf", "nan":
            throw fail(at: start, "\(word) is not valid JSON; use a finite number or null")
        case "True", "TRUE", "False", "FALSE", "Null", "NULL", "nil", "None", "undefined":
            throw fail(at: start, "found '\(word)'; JSON literals are lowercase true, false and null")
        default: break
        }
        switch bytes[start] {
        case UInt8(ascii: "+"):
            throw fail(at: start, "found '+'; JSON numbers have no plus sign")
        case UInt8(ascii: "."):
            throw fail(at: start, "found '.'; JSON numbers need a digit before the decimal point (0.5)")
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            throw fail(at: start, "expected a JSON value, found \(found(start))")
        default:
            throw unexpected(at: start, expected: "a JSON value (object, array, string, number, true, false or null)")
        }
    }

    /// "expected X, found Y", or a plainer message for the usual non-JSON habits (comments, single quotes).
    func unexpected(at offset: Int, expected: String) -> JSONSyntaxError {
        switch offset < bytes.count ? bytes[offset] : 0 {
        case UInt8(ascii: "/"):
            return fail(at: offset, "comments are not allowed in JSON; remove them")
        case UInt8(ascii: "'"):
            return fail(at: offset, "expected \(expected), found \"'\"; JSON strings and keys use double quotes")
        default:
            return fail(at: offset, "expected \(expected), found \(found(offset))")
        }
    }

    /// Reads a number per RFC 8259: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        var isInteger = true
        if peek == UInt8(ascii: "-") {
            index += 1
            guard let d = peek, isDigit(d) else {
                throw fail(at: index, "expected a digit after '-', found \(found(index))")
            }
        }
        if peek == UInt8(ascii: "0") {
            index += 1
            if let d = peek, isDigit(d) {
                throw fail(at: start, "numbers may not start with a leading zero; remove it")
            }
        } else {
            while let d = peek, isDigit(d) { index += 1 }
        }
        if peek == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let d = peek, isDigit(d) else {
                throw fail(at: index, "expected a digit after the decimal point, found \(found(index))")
            }
            while let d = peek, isDigit(d) { index += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let d = peek, isDigit(d) else {
                throw fail(at: index, "expected a digit in the exponent, found \(found(index))")
            }
            while let d = peek, isDigit(d) { index += 1 }
        }
        return JSONNumber(literal: String(decoding: bytes[start..<index], as: UTF8.self), isIntegerLiteral: isInteger)
    }

    /// Reads a string starting at its opening quote; checks UTF-8 and escapes byte by byte.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let open = index
        index += 1
        let contentStart = index
        // Fast path: plain ASCII without escapes.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: bytes[contentStart..<(index - 1)], as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { break }
            index += 1
        }
        var decoded = Array(bytes[contentStart..<index])
        while true {
            guard index < bytes.count else {
                throw fail(at: open, "unterminated string; add the closing '\"'")
            }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &decoded)
            case 0..<0x20:
                throw fail(at: index, "control character \(hex4(UInt32(b))) inside a string; write it as \(escapeHint(b))")
            case 0x80...:
                let length = try utf8SequenceLength(at: index)
                decoded.append(contentsOf: bytes[index..<(index + length)])
                index += length
            default:
                decoded.append(b)
                index += 1
            }
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
                throw fail(at: escape, "lone low surrogate \\u\(hexDigits(unit)) in a string; a \\uDC00-\\uDFFF escape must follow a \\uD800-\\uDBFF one")
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw fail(at: escape, "lone high surrogate \\u\(hexDigits(unit)) in a string; follow it with a \\uDC00-\\uDFFF escape")
                }
                let second = index
                index += 2
                let low = try parseHex4(escapeAt: second)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail(at: escape, "lone high surrogate \\u\(hexDigits(unit)) in a string; follow it with a \\uDC00-\\uDFFF escape")
                }
                scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw fail(at: escape, "invalid \\u escape")
            }
            decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw fail(at: escape, "invalid escape \(describeEscape(c)) in a string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
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
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default:
            throw fail(at: start, "invalid UTF-8 byte \(hexByte(lead)) in a string; save the file as UTF-8")
        }
        for k in 1..<length {
            let i = start + k
            guard i < bytes.count else {
                throw fail(at: start, "truncated UTF-8 sequence at the end of input; save the file as UTF-8")
            }
            let range: ClosedRange<UInt8> = k == 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[i]) else {
                throw fail(at: start, "invalid UTF-8 sequence starting with byte \(hexByte(lead)) in a string; save the file as UTF-8")
            }
        }
        return length
    }

    // MARK: helpers

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func matches(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count else { return false }
        for k in 0..<w.count where bytes[index + k] != w[k] { return false }
        return true
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    func isWordByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || isDigit(b) || b == UInt8(ascii: "_")
    }

    func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Describes what sits at `offset` for a message: `'x'`, `end of input`, `byte 0xFF`, `'“' (U+201C)`.
    func found(_ offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let b = bytes[offset]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b < 0x80 { return "character \(hex4(UInt32(b)))" }
        if let length = try? utf8SequenceLength(at: offset) {
            var iterator = bytes[offset..<(offset + length)].makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                let hint = (0x201C...0x201D).contains(scalar.value) || (0x2018...0x2019).contains(scalar.value)
                    ? "; JSON needs straight double quotes" : ""
                let v = scalar.value
                let invisible = v < 0xA0 || (0x200B...0x200F).contains(v) || (0x2028...0x202E).contains(v)
                    || (0x2060...0x206F).contains(v) || v == 0xFEFF || v >= 0xFFF0 && v <= 0xFFFF
                if invisible { return "character \(hex4(v))" }  // never print controls or bidi overrides raw
                return "'\(Character(scalar))' (\(hex4(v)))\(hint)"
            }
        }
        return "byte \(hexByte(b)) (not UTF-8)"
    }

    func describeEscape(_ c: UInt8) -> String {
        c >= 0x21 && c < 0x7F ? "'\\\(Character(Unicode.Scalar(c)))'" : "'\\' followed by byte \(hexByte(c))"
    }

    func escapeHint(_ b: UInt8) -> String {
        switch b {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        default: return "\\u00" + hexDigits(UInt32(b)).suffix(2)
        }
    }

    func fail(at offset: Int, _ message: String) -> JSONSyntaxError {
        let position = LineTable.position(of: offset, in: bytes)
        return JSONSyntaxError(offset: offset, line: position.line, column: position.column, message: message)
    }
}

/// `U+000A`-style name of a code point.
private func hex4(_ value: UInt32) -> String { "U+" + hexDigits(value) }

/// Upper-case hex, at least four digits.
private func hexDigits(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// `0xFF`-style name of a byte.
private func hexByte(_ b: UInt8) -> String {
    let digits = String(b, radix: 16, uppercase: true)
    return "0x" + (digits.count < 2 ? "0" + digits : digits)
}
