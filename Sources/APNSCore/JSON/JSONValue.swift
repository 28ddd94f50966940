/// A JSON value as it was read, with the byte range it came from. A validator needs more than
/// Foundation's parser keeps: where each value sits (for `FILE:LINE:COLUMN` messages), the key
/// order, every copy of a duplicated key, and the exact literal of each number.
public struct JSONValue: Sendable {
    /// What the value is; objects keep every member in source order, duplicates included.
    public enum Kind: Sendable {
        case object([JSONMember])
        case array([JSONValue])
        case string(String)
        case number(JSONNumber)
        case bool(Bool)
        case null
    }

    /// The value itself.
    public let kind: Kind
    /// Byte offset of the value's first byte in the source.
    public let start: Int
    /// Byte offset just past the value's last byte.
    public let end: Int
    /// Members of an object read with a `JSONMemberFilter` that were `.listed` past its limit: counted, not kept.
    public internal(set) var unlistedMembers = 0
    /// For a string the checking parse cut (`JSONReader.keptTextLimit`): its whole length in UTF-8 bytes, while
    /// `string` holds only its start. Nil for a string kept whole and for other kinds.
    public internal(set) var cutLength: Int? = nil

    /// Makes a value; the reader is the usual source, tests build them directly.
    public init(kind: Kind, start: Int, end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
    }

    /// The members of an object in source order (duplicates included), nil for other kinds.
    public var members: [JSONMember]? {
        if case .object(let m) = kind { return m }
        return nil
    }

    /// The elements of an array, nil for other kinds.
    public var elements: [JSONValue]? {
        if case .array(let e) = kind { return e }
        return nil
    }

    /// The decoded text of a string, nil for other kinds.
    public var string: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    /// The decoded text of a string kept whole, nil for a cut string and other kinds: what a rule compares or
    /// converts, since the start of a cut string is not its value.
    public var wholeString: String? { cutLength == nil ? string : nil }

    /// The text of a string as messages quote it: whole when kept whole, else its start shortened (`shortened`).
    public var shownString: String? {
        guard let string else { return nil }
        return cutLength == nil ? string : Self.shortened(string)
    }

    /// The number, nil for other kinds (`true` is not a number).
    public var number: JSONNumber? {
        if case .number(let n) = kind { return n }
        return nil
    }

    /// The boolean, nil for other kinds (`1` is not a boolean).
    public var bool: Bool? {
        if case .bool(let b) = kind { return b }
        return nil
    }

    /// Whether this is an object.
    public var isObject: Bool { members != nil }

    /// The last member named `key` (the copy most parsers keep), nil when absent or not an object.
    /// Keys compare by their UTF-8 bytes, as JSON parsers do, not by Unicode canonical equivalence.
    public subscript(key: String) -> JSONValue? { member(key)?.value }

    /// The last member named `key`, with its key position, nil when absent or not an object.
    public func member(_ key: String) -> JSONMember? {
        guard let members else { return nil }
        return members.last { $0.keyCutLength == nil && $0.key.utf8.elementsEqual(key.utf8) }
    }

    /// A short description for messages: `string "5"`, `number 1.5`, `boolean true`, `null`, `object`.
    /// Long strings are cut to keep a message on one readable line.
    public var summary: String {
        switch kind {
        case .object: return "object"
        case .array: return "array"
        case .string(let s):
            let shown = s.unicodeScalars.count > 40 ? Self.shortened(s) : s
            return "string " + JSONWriter.quoted(shown) + (cutLength.map { " (\($0) bytes)" } ?? "")
        case .number(let n): return "number " + n.literal
        case .bool(let b): return "boolean \(b)"
        case .null: return "null"
        }
    }

    /// The first 37 characters of `text` and "...": how messages show a long string or a cut key.
    public static func shortened(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(37))) + "..."
    }
}

/// One `"key": value` pair of an object, with the byte offset of the key's opening quote.
public struct JSONMember: Sendable {
    /// The decoded key.
    public let key: String
    /// Byte offset of the key's opening quote.
    public let keyStart: Int
    /// The value.
    public let value: JSONValue
    /// For a key the checking parse cut (`JSONReader.keptTextLimit`): its whole length in UTF-8 bytes, while
    /// `key` holds only its start (so it equals no known key). Nil when `key` is all of it.
    public let keyCutLength: Int?

    /// Makes a member; the reader is the usual source.
    public init(key: String, keyStart: Int, value: JSONValue, keyCutLength: Int? = nil) {
        self.key = key
        self.keyStart = keyStart
        self.value = value
        self.keyCutLength = keyCutLength
    }

    /// The key as messages and paths show it: whole, or the start of a cut key shortened.
    public var shownKey: String { keyCutLength == nil ? key : JSONValue.shortened(key) }
}

/// A JSON number kept as its literal text, so `1`, `1.0` and `1e0` stay distinguishable
/// (APNs rules want the integer `1`, and a badge of `1.5` must be reported as written).
public struct JSONNumber: Sendable, Equatable {
    /// The number exactly as written in the source; for a literal the checking parse cut (`cutValue`), its
    /// start shortened, as messages show it.
    public let literal: String
    /// True when the literal has no fraction and no exponent (`5`, `-3`), whatever its size.
    public let isIntegerLiteral: Bool
    /// For a literal longer than `JSONReader.keptTextLimit` read by the checking parse: its value, read from all
    /// of it. Nil when `literal` is all of it.
    public private(set) var cutValue: Double? = nil

    /// Wraps a literal the reader has already checked against RFC 8259's number grammar.
    public init(literal: String, isIntegerLiteral: Bool) {
        self.literal = literal
        self.isIntegerLiteral = isIntegerLiteral
    }

    /// A checked literal too long to keep (`JSONReader.keptTextLimit`): its start for messages and its value,
    /// from at most 40 significant digits and the decimal exponent, so no copy of it is made.
    init(cut text: ArraySlice<UInt8>, isIntegerLiteral: Bool) {
        literal = JSONValue.shortened(String(decoding: text.prefix(64), as: UTF8.self))
        self.isIntegerLiteral = isIntegerLiteral
        var (digits, scale, exponent) = ("", 0, 0)
        var (afterPoint, inExponent, exponentSign) = (false, false, 1)
        for b in text {
            switch b {
            case UInt8(ascii: "."): afterPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "-") where inExponent: exponentSign = -1
            case UInt8(ascii: "0")...UInt8(ascii: "9") where inExponent:
                exponent = min(exponent * 10 + Int(b - UInt8(ascii: "0")), 1 << 40)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if digits.isEmpty && b == UInt8(ascii: "0") {
                    if afterPoint { scale -= 1 }
                } else if digits.utf8.count < 40 {
                    digits.append(Character(Unicode.Scalar(b)))
                    if afterPoint { scale -= 1 }
                } else if !afterPoint {
                    scale += 1
                }
            default: break
            }
        }
        let sign = text.first == UInt8(ascii: "-") ? "-" : ""
        cutValue = Double("\(sign)\(digits.isEmpty ? "0" : digits)e\(scale + exponentSign * exponent)") ?? .nan
    }

    /// The checked literal `text` as the checking parse keeps it: whole, or cut past `JSONReader.keptTextLimit`.
    init(reading text: ArraySlice<UInt8>) {
        let isInteger = !text.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        self =
            text.count > JSONReader.keptTextLimit
            ? JSONNumber(cut: text, isIntegerLiteral: isInteger)
            : JSONNumber(literal: String(decoding: text, as: UTF8.self), isIntegerLiteral: isInteger)
    }

    /// The value of an integer literal that fits an `Int`; nil for `1.0`, `1e2` or a huge integer.
    public var intValue: Int? { isIntegerLiteral && cutValue == nil ? Int(literal) : nil }

    /// The value as a Double (huge literals become infinity, never a trap).
    public var doubleValue: Double { cutValue ?? Double(literal) ?? .nan }

    /// Whether the literal is exactly the integer `1` (what `content-available` needs).
    public var isIntegerOne: Bool { literal == "1" && cutValue == nil }
}
