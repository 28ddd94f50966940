import APNSCore

/// Strings, numbers, booleans and dates: TOML 1.0's scalar grammar, checked as strictly as the spec (and
/// Python's `tomllib`) are, so a file apnsctl accepts is one every TOML reader accepts.
extension TOMLParser {
    // MARK: - Strings

    /// `"…"` with escapes.
    mutating func basicString() throws(TOMLSyntaxError) -> String {
        let start = position
        index += 1
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw fail("unterminated string (opened at \(start))", at: start) }
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"): try escape(into: &out)
            case 0x0A, 0x0D:
                throw fail(
                    "unterminated string: a \"…\" string ends on its line (use \"\"\"…\"\"\" for several lines)",
                    at: start)
            default:
                if Self.isControl(c) {
                    throw fail("control character \(Self.describe(c)) in a string; write it as an escape")
                }
                out.append(c)
                index += 1
            }
        }
    }

    /// `'…'`: no escapes.
    mutating func literalString() throws(TOMLSyntaxError) -> String {
        let start = position
        index += 1
        let from = index
        while true {
            guard let c = current else { throw fail("unterminated string (opened at \(start))", at: start) }
            if c == UInt8(ascii: "'") {
                let text = String(decoding: bytes[from..<index], as: UTF8.self)
                index += 1
                return text
            }
            if c == 0x0A || c == 0x0D { throw fail("unterminated string: a '…' string ends on its line", at: start) }
            if Self.isControl(c) { throw fail("control character \(Self.describe(c)) in a string") }
            index += 1
        }
    }

    /// `"""…"""`: escapes, a newline right after the opening quotes is dropped, a backslash at the end of a
    /// line joins it to the next non-blank text.
    mutating func multilineBasicString() throws(TOMLSyntaxError) -> String {
        let start = position
        index += 3
        skipFirstNewline()
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw fail("unterminated \"\"\" string (opened at \(start))", at: start) }
            if closesMultiline(c, quote: UInt8(ascii: "\""), into: &out) { return String(decoding: out, as: UTF8.self) }
            if c == UInt8(ascii: "\\") {
                if lineEndingBackslash() { continue }
                try escape(into: &out)
                continue
            }
            if multilineNewline(c, into: &out) { continue }
            if Self.isControl(c) {
                throw fail("control character \(Self.describe(c)) in a string; write it as an escape")
            }
            out.append(c)
            index += 1
        }
    }

    /// `'''…'''`: no escapes.
    mutating func multilineLiteralString() throws(TOMLSyntaxError) -> String {
        let start = position
        index += 3
        skipFirstNewline()
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw fail("unterminated ''' string (opened at \(start))", at: start) }
            if closesMultiline(c, quote: UInt8(ascii: "'"), into: &out) { return String(decoding: out, as: UTF8.self) }
            if multilineNewline(c, into: &out) { continue }
            if Self.isControl(c) { throw fail("control character \(Self.describe(c)) in a string") }
            out.append(c)
            index += 1
        }
    }

    /// At three closing quotes: consumes them, with the up to two quotes that may end the content just
    /// before them (`""""" ` is a quote, then the delimiter).
    mutating func closesMultiline(_ c: UInt8, quote: UInt8, into out: inout [UInt8]) -> Bool {
        guard c == quote, peek(1) == quote, peek(2) == quote else { return false }
        var quotes = 3
        while peek(quotes) == quote && quotes < 5 { quotes += 1 }
        out.append(contentsOf: [UInt8](repeating: quote, count: quotes - 3))
        index += quotes
        return true
    }

    /// A line break inside a multi-line string, read as a line feed (as Python's tomllib does).
    mutating func multilineNewline(_ c: UInt8, into out: inout [UInt8]) -> Bool {
        if c == 0x0A {
            out.append(0x0A)
            newline()
            return true
        }
        if c == 0x0D, peek(1) == 0x0A {
            out.append(0x0A)
            index += 1
            newline()
            return true
        }
        return false
    }

    mutating func skipFirstNewline() {
        if current == 0x0A {
            newline()
        } else if current == 0x0D, peek(1) == 0x0A {
            index += 1
            newline()
        }
    }

    /// A backslash followed by blanks and a newline: skips it and every blank and newline after it.
    mutating func lineEndingBackslash() -> Bool {
        var i = index + 1
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        guard i < bytes.count, bytes[i] == 0x0A || (bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A)
        else {
            return false
        }
        index = i
        while let c = current {
            if c == 0x20 || c == 0x09 {
                index += 1
            } else if c == 0x0A {
                newline()
            } else if c == 0x0D, peek(1) == 0x0A {
                index += 1
                newline()
            } else {
                break
            }
        }
        return true
    }

    /// One escape sequence at a backslash.
    mutating func escape(into out: inout [UInt8]) throws(TOMLSyntaxError) {
        let at = position
        index += 1
        guard let c = current else { throw fail("unterminated escape", at: at) }
        index += 1
        switch c {
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = c == UInt8(ascii: "u") ? 4 : 8
            guard index + count <= bytes.count,
                let v = UInt32(String(decoding: bytes[index..<(index + count)], as: UTF8.self), radix: 16),
                bytes[index..<(index + count)].allSatisfy({ Self.isHexDigit($0) }),
                let scalar = Unicode.Scalar(v)
            else {
                throw fail(
                    "\\\(Character(Unicode.Scalar(c))) needs \(count) hex digits of a Unicode scalar value", at: at)
            }
            index += count
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw fail("unknown escape \\\(Self.describe(c)); use \\\\ for a backslash, or a '…' string", at: at)
        }
    }

    // MARK: - Numbers and dates

    /// Integers, floats, `inf`/`nan`, and the four date and time forms.
    mutating func numberOrDate() throws(TOMLSyntaxError) -> TOMLValue {
        let start = position
        let from = index
        if looksLikeDate() { return try dateTime(start: start) }
        // A number token: up to a character that may follow a value.
        while let c = current,
            !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ",")
                || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == UInt8(ascii: "#"))
        {
            index += 1
        }
        let text = String(decoding: bytes[from..<index], as: UTF8.self)
        guard !text.isEmpty else { throw fail("expected a value, found \(Self.describe(current ?? 0))", at: start) }
        if let n = Self.integer(text) { return .integer(n) }
        if let d = Self.float(text) { return .float(d) }
        if Self.isIntegerShape(text) { throw fail(Self.integerFault(text), at: start) }
        // An editor's typographic quotes (“…”, ‘…’) are no TOML quotes: the advice puts straight ones in their place.
        let typographic = TypographicQuote.characters
        // (A straight one beside a typographic one, `“com.x"`, goes too: the advice holds one pair.)
        let quote = typographic.union(["\"", "'"])
        let bare = String(text.drop { quote.contains($0) }.reversed().drop { quote.contains($0) }.reversed())
        if text.contains(where: { typographic.contains($0) }) {
            throw fail(
                "\(text) is not a TOML value: typographic quotes are no TOML quotes; write straight ones (\"\(bare)\")",
                at: start)
        }
        // A Boolean as another language writes it: TOML's are lower case, and yes/no/on/off none (quoting them makes
        // a string, which an on/off setting refuses in turn).
        if ["true", "false"].contains(text.lowercased()) {
            throw fail(
                "\(text) is not a TOML value: TOML's Booleans are lower case, \(text.lowercased()) (a string needs quotes: \"\(text)\")",
                at: start)
        }
        if ["yes", "no", "on", "off"].contains(text.lowercased()) {
            throw fail(
                "\(text) is not a TOML value: an on/off setting takes true or false (a string needs quotes: \"\(text)\")",
                at: start)
        }
        throw fail("\(text) is not a TOML value; strings need quotes (\"\(text)\")", at: start)
    }

    func looksLikeDate() -> Bool {
        func digit(_ o: Int) -> Bool { peek(o).map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if digit(0) && digit(1) && digit(2) && digit(3) && peek(4) == UInt8(ascii: "-") { return true }
        return digit(0) && digit(1) && peek(2) == UInt8(ascii: ":")
    }

    /// `1979-05-27T07:32:00Z`, `1979-05-27 07:32:00.999-07:00`, `1979-05-27`, `07:32:00`.
    mutating func dateTime(start: TOMLPosition) throws(TOMLSyntaxError) -> TOMLValue {
        let from = index
        func bad() -> TOMLSyntaxError {
            TOMLSyntaxError(
                "not a valid TOML date or time (use 1979-05-27, 07:32:00 or 1979-05-27T07:32:00Z)", at: start)
        }
        func digits(_ n: Int) throws(TOMLSyntaxError) -> Int {
            var v = 0
            for _ in 0..<n {
                guard let c = current, c >= 0x30, c <= 0x39 else { throw bad() }
                v = v * 10 + Int(c - 0x30)
                index += 1
            }
            return v
        }
        func expect(_ ch: Character) throws(TOMLSyntaxError) {
            guard current == ch.asciiValue else { throw bad() }
            index += 1
        }
        func time() throws(TOMLSyntaxError) {
            let h = try digits(2)
            try expect(":")
            let m = try digits(2)
            try expect(":")
            let s = try digits(2)
            guard h < 24, m < 60, s < 60 else { throw bad() }
            if current == UInt8(ascii: ".") {
                index += 1
                var n = 0
                while let c = current, c >= 0x30, c <= 0x39 {
                    index += 1
                    n += 1
                }
                guard n > 0 else { throw bad() }
            }
        }
        if peek(2) == UInt8(ascii: ":") {
            try time()
        } else {
            let y = try digits(4)
            try expect("-")
            let mo = try digits(2)
            try expect("-")
            let d = try digits(2)
            guard mo >= 1, mo <= 12, d >= 1, d <= Self.daysIn(month: mo, year: y) else { throw bad() }
            let sep = current
            let timeFollows = peek(1).map { $0 >= 0x30 && $0 <= 0x39 } ?? false
            if sep == UInt8(ascii: "T") || sep == UInt8(ascii: "t") || (sep == 0x20 && timeFollows) {
                index += 1
                try time()
                if current == UInt8(ascii: "Z") || current == UInt8(ascii: "z") {
                    index += 1
                } else if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
                    index += 1
                    let oh = try digits(2)
                    try expect(":")
                    let om = try digits(2)
                    guard oh < 24, om < 60 else { throw bad() }
                }
            }
        }
        try checkValueEnd()
        return .dateTime(String(decoding: bytes[from..<index], as: UTF8.self))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }

    /// Digits with single underscores between them (`1_000`), in `radix`.
    static func digitsWithUnderscores(_ s: Substring, radix: Int) -> String? {
        guard let first = s.first, let last = s.last, first != "_", last != "_", !s.contains("__") else { return nil }
        let plain = s.filter { $0 != "_" }
        guard !plain.isEmpty, plain.allSatisfy({ $0.isASCII && $0.hexDigitValue.map { $0 < radix } == true }) else {
            return nil
        }
        return String(plain)
    }

    /// Why digits that `integer` refused are no TOML integer: a leading zero (`05`), an underscore not between two
    /// digits (`1__0`, `_1`, `1_`), or else too many digits for 64 bits.
    static func integerFault(_ text: String) -> String {
        var digits = Substring(text)
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        if digits.first == "_" || digits.last == "_" || digits.contains("__") {
            return "integer \(text): an underscore goes only between two digits (1_000)"
        }
        if digits.count > 1 && digits.first == "0" {
            let sign = text.prefix(text.count - digits.count)
            let rest = digits.drop { $0 == "0" || $0 == "_" }
            return "integer \(text): TOML takes no leading zero; write \(rest.isEmpty ? "0" : sign + rest)"
        }
        return "integer \(text) does not fit in 64 bits"
    }

    static func isIntegerShape(_ text: String) -> Bool {
        var s = Substring(text)
        if s.first == "+" || s.first == "-" { s = s.dropFirst() }
        return !s.isEmpty && s.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "_") }
    }

    /// A TOML integer, or nil.
    static func integer(_ text: String) -> Int64? {
        if let n = plainDecimal(text) { return n }
        var s = Substring(text)
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where s.hasPrefix(prefix) {
            guard let digits = digitsWithUnderscores(s.dropFirst(2), radix: radix) else { return nil }
            return UInt64(digits, radix: radix).flatMap { $0 <= UInt64(Int64.max) ? Int64($0) : nil }
        }
        var negative = false
        if s.first == "+" || s.first == "-" {
            negative = s.first == "-"
            s = s.dropFirst()
        }
        guard let digits = digitsWithUnderscores(s, radix: 10), !(digits.count > 1 && digits.first == "0") else {
            return nil
        }
        guard let magnitude = UInt64(digits) else { return nil }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The usual integer, up to 18 decimal digits without a sign, an underscore or a leading zero, read without
    /// the general path's copies (a settings file near its 1 MiB cap may hold a hundred thousand); nil for any
    /// other text, which `integer` then reads the general way.
    static func plainDecimal(_ text: String) -> Int64? {
        let utf8 = text.utf8
        guard let first = utf8.first, utf8.count <= 18, first != UInt8(ascii: "0") || utf8.count == 1 else {
            return nil
        }
        var n: Int64 = 0
        for b in utf8 {
            guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int64(b - UInt8(ascii: "0"))
        }
        return n
    }

    /// A TOML float, or nil: a decimal integer part, then a fraction, an exponent or both; or `inf`/`nan`.
    static func float(_ text: String) -> Double? {
        var s = Substring(text)
        var sign = ""
        if s.first == "+" || s.first == "-" {
            sign = s.first == "-" ? "-" : ""
            s = s.dropFirst()
        }
        if s == "inf" { return sign == "-" ? -.infinity : .infinity }
        if s == "nan" { return .nan }
        let exponentAt = s.firstIndex(where: { $0 == "e" || $0 == "E" })
        let mantissa = exponentAt.map { s[..<$0] } ?? s
        var normalised = sign
        let dot = mantissa.firstIndex(of: ".")
        let integerPart = dot.map { mantissa[..<$0] } ?? mantissa
        guard let intDigits = digitsWithUnderscores(integerPart, radix: 10),
            !(intDigits.count > 1 && intDigits.first == "0")
        else { return nil }
        normalised += intDigits
        if let dot {
            guard let frac = digitsWithUnderscores(mantissa[mantissa.index(after: dot)...], radix: 10) else {
                return nil
            }
            normalised += "." + frac
        }
        if let exponentAt {
            var e = s[s.index(after: exponentAt)...]
            var eSign = ""
            if e.first == "+" || e.first == "-" {
                eSign = e.first == "-" ? "-" : ""
                e = e.dropFirst()
            }
            guard let expDigits = digitsWithUnderscores(e, radix: 10) else { return nil }
            normalised += "e" + eSign + expDigits
        } else if dot == nil {
            return nil
        }
        return Double(normalised)
    }
}
