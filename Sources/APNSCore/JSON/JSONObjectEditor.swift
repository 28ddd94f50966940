/// Sets members of a JSON object inside the bytes it was read from, changing nothing else: a replaced key
/// keeps its place (every copy of a duplicated key is replaced, so no parser can pick a stale one), a new
/// key goes after the existing members, and every other byte of the object stays as written (whitespace,
/// escapes, number literals, the order of untouched keys).
public enum JSONObjectEditor {
    /// One member to set: its key and the JSON bytes of its value (already valid JSON).
    public struct Member: Sendable, Equatable {
        public let key: String
        public let value: [UInt8]
        public init(_ key: String, _ value: [UInt8]) {
            self.key = key
            self.value = value
        }
    }

    /// The bytes of `object` (read from `source`) with `members` set; `object` must be an object.
    public static func setting(_ members: [Member], in object: JSONValue, of source: [UInt8]) -> [UInt8] {
        let existing = object.members ?? []
        // (range in source, replacement), applied back to front.
        var edits: [(Range<Int>, [UInt8])] = []
        var added: [Member] = []
        for m in members {
            let copies = existing.filter { $0.key.utf8.elementsEqual(m.key.utf8) }
            if copies.isEmpty {
                added.append(m)
            } else {
                for c in copies { edits.append((c.value.start..<c.value.end, m.value)) }
            }
        }
        if !added.isEmpty {
            var text: [UInt8] = []
            for (i, m) in added.enumerated() {
                if i > 0 || !existing.isEmpty { text.append(UInt8(ascii: ",")) }
                JSONWriter.appendQuoted(m.key, to: &text)
                text.append(UInt8(ascii: ":"))
                text.append(contentsOf: m.value)
            }
            let at = existing.map(\.value.end).max() ?? (object.start + 1)
            edits.append((at..<at, text))
        }
        var out = Array(source[object.start..<object.end])
        for (range, bytes) in edits.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            out.replaceSubrange((range.lowerBound - object.start)..<(range.upperBound - object.start), with: bytes)
        }
        return out
    }

    /// A new compact object holding `members` in order.
    public static func object(_ members: [Member]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, m) in members.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendQuoted(m.key, to: &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: m.value)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
