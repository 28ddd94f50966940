/// Writes compact JSON with correct string escaping, for machine output (`-o json`), request bodies
/// and messages that quote user text. Commas between members and elements are placed automatically.
///
///     var w = JSONWriter()
///     w.beginObject(); w.field("file", "a.json"); w.field("valid", true); w.endObject()
///     w.text  // {"file":"a.json","valid":true}
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    /// For each open container: whether the next item is its first (no comma before it).
    private var firstInContainer: [Bool] = []
    /// True right after a key, when the value must follow without a comma.
    private var afterKey = false

    /// Starts an empty writer.
    public init() {}

    /// Starts an empty writer with room for `capacity` bytes (a result line: no regrowth while it is written).
    public init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// The JSON written so far, as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Opens an object (as a value, an element, or a member's value after `key`).
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        firstInContainer.append(true)
    }
    /// Closes the innermost object.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        _ = firstInContainer.popLast()
    }
    /// Opens an array.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        firstInContainer.append(true)
    }
    /// Closes the innermost array.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        _ = firstInContainer.popLast()
    }

    /// Writes a member key; the next value call writes its value.
    public mutating func key(_ name: String) {
        separate()
        JSONWriter.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        separate()
        JSONWriter.appendQuoted(value, to: &bytes)
    }
    /// Writes an integer value.
    public mutating func number(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }
    /// Writes a floating-point value; infinity and NaN, which JSON cannot hold, become null.
    public mutating func number(_ value: Double) {
        separate()
        bytes.append(contentsOf: (value.isFinite ? String(value) : "null").utf8)
    }
    /// Writes a boolean value.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }
    /// Writes null.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }
    /// Writes already-valid JSON (for example a payload being embedded) as the next value.
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// A JSON document given as bytes (a payload) as the next value, compacted onto one line; as a string when
    /// the bytes are not JSON.
    public mutating func embedded(_ json: [UInt8]) {
        guard let compact = JSONCompactor.minify(json) else {
            string(String(decoding: json, as: UTF8.self))
            return
        }
        raw(Self.escapingInvisibles(compact))
    }

    /// Valid JSON with the characters `string` escapes beyond the C0 controls (DEL, C1 controls, U+2028 and
    /// U+2029, the bidirectional overrides) as `\u` escapes: valid JSON holds them raw only inside strings, where
    /// the escape means the same character, so a payload embedded in output reaches no terminal raw.
    public static func escapingInvisibles(_ json: [UInt8]) -> [UInt8] {
        func escaped(at i: Int) -> (scalar: UInt32, length: Int)? {
            let b = json[i]
            if b == 0x7F { return (0x7F, 1) }
            if b == 0xC2, i + 1 < json.count, (0x80...0x9F).contains(json[i + 1]) { return (UInt32(json[i + 1]), 2) }
            guard b == 0xE2, i + 2 < json.count else { return nil }
            let (b1, b2) = (json[i + 1], json[i + 2])
            if b1 == 0x80, (0xA8...0xAE).contains(b2) { return (0x2000 + UInt32(b2 - 0x80), 3) }
            if b1 == 0x81, (0xA6...0xA9).contains(b2) { return (0x2040 + UInt32(b2 - 0x80), 3) }
            return nil
        }
        guard json.indices.contains(where: { escaped(at: $0) != nil }) else { return json }
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 16)
        var i = 0
        while i < json.count {
            guard let (v, length) = escaped(at: i) else {
                out.append(json[i])
                i += 1
                continue
            }
            out += [0x5C, UInt8(ascii: "u"), hex[Int(v >> 12 & 0xF)], hex[Int(v >> 8 & 0xF)]]
            out += [hex[Int(v >> 4 & 0xF)], hex[Int(v & 0xF)]]
            i += length
        }
        return out
    }

    /// `"name": "value"`, or `"name": null` for nil.
    public mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }
    /// `"name": 12`, or null for nil.
    public mutating func field(_ name: String, _ value: Int?) {
        key(name)
        if let value { number(value) } else { null() }
    }
    /// `"name": 23.8`, or null for nil.
    public mutating func field(_ name: String, _ value: Double?) {
        key(name)
        if let value { number(value) } else { null() }
    }
    /// `"name": true`, or null for nil.
    public mutating func field(_ name: String, _ value: Bool?) {
        key(name)
        if let value { bool(value) } else { null() }
    }
    /// `"name": ["a","b"]`.
    public mutating func field(_ name: String, _ values: [String]) {
        key(name)
        beginArray()
        for v in values { string(v) }
        endArray()
    }

    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = firstInContainer.indices.last else { return }
        if firstInContainer[last] { firstInContainer[last] = false } else { bytes.append(UInt8(ascii: ",")) }
    }

    /// `text` as a JSON string literal with its quotes: `"say \"hi\"\n"`.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal. Quotes, backslashes and control characters are escaped,
    /// and so are DEL, the C1 controls, U+2028/U+2029 and the bidirectional overrides and isolates
    /// (U+202A–U+202E, U+2066–U+2069), which are legal raw but can break a terminal, reorder what it shows or
    /// break a JavaScript consumer (the characters `PrintableText.escapingControls` escapes for text, as `\u202e`);
    /// other characters are written as UTF-8.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Fast path: printable ASCII with nothing to escape (tokens, ids, reasons) is copied as it is.
        var text = text
        let copied = text.withUTF8 { bytes -> Bool in
            for b in bytes where b < 0x20 || b >= 0x7F || b == 0x22 || b == 0x5C { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied {
            out.append(UInt8(ascii: "\""))
            return
        }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), hex[Int(v >> 12 & 0xF)], hex[Int(v >> 8 & 0xF)],
                    hex[Int(v >> 4 & 0xF)], hex[Int(v & 0xF)],
                ])
            case 0..<0x80:
                out.append(UInt8(v))
            default:
                UTF8.encode(scalar) { out.append($0) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
