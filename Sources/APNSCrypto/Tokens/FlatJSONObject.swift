/// Reads the two tiny JSON objects of a JWT (header and claims): one level, string and integer values.
/// Anything else (nesting, floats, bad escapes, trailing bytes) makes the whole object unreadable,
/// which the verifier reports as a malformed token.
struct FlatJSONObject {
    enum Value: Equatable {
        case string(String)
        case integer(Int64)
        /// `true`, `false`, `null`: kept so that such members do not make a token malformed.
        case literal(String)
    }

    private(set) var members: [String: Value] = [:]

    /// The member's text, if it is a string.
    func string(_ key: String) -> String? {
        if case .string(let s)? = members[key] { return s }
        return nil
    }

    /// The member's value, if it is an integer.
    func integer(_ key: String) -> Int64? {
        if case .integer(let v)? = members[key] { return v }
        return nil
    }

    /// Parses `bytes`; nil when they are not one flat JSON object.
    init?(_ bytes: [UInt8]) {
        var p = Cursor(bytes: bytes)
        p.skipSpace()
        guard p.take(UInt8(ascii: "{")) else { return nil }
        p.skipSpace()
        if !p.take(UInt8(ascii: "}")) {
            while true {
                p.skipSpace()
                guard let key = p.string() else { return nil }
                p.skipSpace()
                guard p.take(UInt8(ascii: ":")) else { return nil }
                p.skipSpace()
                guard let value = p.value(), members[key] == nil else { return nil }
                members[key] = value
                p.skipSpace()
                if p.take(UInt8(ascii: ",")) { continue }
                guard p.take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        p.skipSpace()
        guard p.atEnd else { return nil }
    }

    private struct Cursor {
        let bytes: [UInt8]
        var i = 0

        var atEnd: Bool { i >= bytes.count }

        mutating func skipSpace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        mutating func take(_ c: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
            return true
        }

        mutating func value() -> Value? {
            guard i < bytes.count else { return nil }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { return string().map(Value.string) }
            if c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39) { return integer().map(Value.integer) }
            for word in ["true", "false", "null"] {
                let w = Array(word.utf8)
                if bytes.count - i >= w.count && bytes[i..<(i + w.count)].elementsEqual(w) {
                    i += w.count
                    return .literal(word)
                }
            }
            return nil
        }

        mutating func integer() -> Int64? {
            var negative = false
            if take(UInt8(ascii: "-")) { negative = true }
            var v: Int64 = 0
            var digits = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int64(bytes[i] - 0x30))
                if o1 || o2 { return nil }
                v = a
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if i < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[i]) { return nil }
            return negative ? -v : v
        }

        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]
                i += 1
                if c == UInt8(ascii: "\"") { return String(validating: out, as: UTF8.self) }
                if c < 0x20 { return nil }
                guard c == UInt8(ascii: "\\") else { out.append(c); continue }
                guard i < bytes.count else { return nil }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard bytes.count - i >= 4,
                          let code = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16),
                          let scalar = Unicode.Scalar(code) else { return nil }
                    i += 4
                    out += Array(String(Character(scalar)).utf8)
                default: return nil
                }
            }
            return nil
        }
    }
}
