/// A strict RFC 8259 JSON reader that keeps positions, key order, duplicate keys and number literals.
///
/// It takes any bytes without trapping: invalid UTF-8, NUL bytes, huge numbers and lone surrogate
/// escapes are syntax errors with a line and column. Containers are read with an explicit stack, not
/// recursion, so deep nesting cannot overflow the call stack; more than `maximumDepth` levels is an error.
public enum JSONReader {
    /// Deepest nesting of arrays and objects accepted. APNs payloads are shallow; a deeper document
    /// is almost certainly broken or hostile.
    public static let maximumDepth = 512

    /// How many decoded bytes of a string or key the checking parse keeps (`parseCollapsingDuplicates`): a longer
    /// one is checked to its end but kept as its start and its length (`JSONValue.cutLength`,
    /// `JSONMember.keyCutLength`), so one huge string costs no copy of it. Longer than any word the rules know
    /// and any header value they check, so a cut string equals none of them.
    public static let keptTextLimit = 4096

    /// Reads one JSON value that spans all of `bytes` (surrounding whitespace allowed).
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// `parse` for checking, in memory bounded by the distinct keys: each object keeps only the last copy of a
    /// repeated key (the one parsers use), in the place of the first, and the repeats are recorded in
    /// `JSONDuplicateKeys` (the first 20 with positions, the rest counted); strings and keys longer than
    /// `keptTextLimit` are cut. Not for re-writing the document: its objects no longer hold every member.
    ///
    /// With `keepingRootMember`, only the members of a top-level object it says yes to (asked once per distinct
    /// key) are kept, whole; the others, and a top-level array's elements, are read and checked (syntax,
    /// repeated keys) but not kept, and their strings not decoded. Checking a payload of any size then needs
    /// the source and a few bytes for each key of its open objects, not a tree of the whole document.
    public static func parseCollapsingDuplicates(_ bytes: [UInt8], keepingRootMember: ((String) -> Bool)? = nil)
        throws(JSONSyntaxError) -> (JSONValue, JSONDuplicateKeys)
    {
        try parseCollapsingDuplicates(
            bytes,
            keeping: keepingRootMember.map { keep in
                JSONMemberFilter { keep($0) ? .keep(nil) : .leaveOut }
            })
    }

    /// `parseCollapsingDuplicates` keeping, at every level `filter` reaches, only the members it chooses (asked
    /// once per distinct key of each object it applies to): a huge object inside a kept member then costs what the
    /// rules read of it, not a tree of it.
    public static func parseCollapsingDuplicates(_ bytes: [UInt8], keeping filter: JSONMemberFilter?)
        throws(JSONSyntaxError) -> (JSONValue, JSONDuplicateKeys)
    {
        var parser = JSONParser(bytes: bytes)
        // Keys are remembered by 32-bit offsets.
        guard bytes.count < Int(UInt32.max) else {
            throw parser.fail(at: 0, "larger than 4 GiB; no payload is this big")
        }
        parser.collapsesDuplicates = true
        parser.keptLimit = JSONReader.keptTextLimit
        parser.rootFilter = filter
        let value = try parser.parseDocument()
        return (value, parser.duplicates)
    }
}

/// A container being read: the reader's explicit stack instead of recursion.
///
/// A struct mutated in place on the stack (`stack[top].elements.append`), not an enum popped and
/// pushed back: re-binding an enum payload to a `var` copies the array, which made every append
/// O(n) and a payload with 100,000 members take minutes.
private struct OpenContainer {
    /// Byte offset of the `{` or `[`.
    let start: Int
    /// `{` rather than `[`.
    let isObject: Bool
    /// Whether what it holds is kept in the tree; false inside a member `keepingRootMember` left out, where
    /// values are only checked.
    let keeps: Bool
    /// An array's elements so far (when kept).
    var elements: [JSONValue] = []
    /// An object's members so far (when kept).
    var members: [JSONMember] = []
    /// Elements or members read so far, kept or not: an array's count is the index in a repeated key's path.
    var count = 0
    /// The key whose value is being read, and where it starts (objects only).
    var key = KeptString(text: "")
    var keyStart = 0
    /// Whether the value being read is kept (objects: decided per member).
    var keepsValue = true
    /// Which members of this object are kept; nil keeps every member whole. Arrays: see `keepsElements`.
    var filter: JSONMemberFilter?
    /// The filter for the value being read (objects: from `filter`'s choice for its key).
    var valueFilter: JSONMemberFilter?
    /// Whether the member being read is kept with its value not kept (`.listed`).
    var valueShallow = false
    /// Members `.listed` kept so far, and those past `JSONMemberFilter.listedLimit` counted instead.
    var listed = 0
    var unlisted = 0
    /// How each kept member was chosen, by its first key offset, when not kept whole (a repeat is kept the same way).
    var treatments: [(firstKeyStart: Int, filter: JSONMemberFilter?)] = []
    /// When collapsing duplicates: where the first copy of the current key started, nil when it is new.
    var repeatOf: Int?
    /// When collapsing duplicates: every key of the object by its first offset, and the first offset of each
    /// kept member, in source order (so a repeat finds its member by binary search).
    var keyOffsets = JSONKeyOffsets()
    var firstKeyStarts: [Int] = []

    init(start: Int, isObject: Bool, keeps: Bool, filter: JSONMemberFilter?) {
        (self.start, self.isObject, self.keeps, self.filter) = (start, isObject, keeps, filter)
        keepsValue = keeps
    }

    /// Adds a kept `member`; when collapsing and its key was seen (`repeatOf`), it replaces the earlier copy
    /// in place.
    mutating func add(_ member: JSONMember, collapsing: Bool) {
        guard collapsing, let first = repeatOf else {
            members.append(member)
            if collapsing { firstKeyStarts.append(member.keyStart) }
            return
        }
        if let slot = slot(firstKeyStart: first) { members[slot] = member }
    }

    /// The member whose key was first seen at `offset`, nil when that member was not kept.
    func slot(firstKeyStart offset: Int) -> Int? {
        var low = 0
        var high = firstKeyStarts.count
        while low < high {
            let mid = (low + high) / 2
            if firstKeyStarts[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low < firstKeyStarts.count && firstKeyStarts[low] == offset ? low : nil
    }
}

/// The reader's state over one byte buffer (strings and UTF-8 are in `JSONParser+Strings.swift`).
struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    /// `JSONReader.parseCollapsingDuplicates`: repeats replace earlier copies and are recorded in `duplicates`.
    var collapsesDuplicates = false
    var duplicates = JSONDuplicateKeys()
    /// Which top-level members to keep (and, through its choices, what of them); nil keeps everything.
    var rootFilter: JSONMemberFilter?
    /// How many decoded bytes of a string or key are kept (`JSONReader.keptTextLimit`); nil keeps them whole.
    var keptLimit: Int?

    /// A parser at the start of `bytes`.
    init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: document and containers

    /// Reads the one value that must fill the whole input, with containers on an explicit stack.
    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.isEmpty { throw fail(at: 0, "empty input: expected a JSON value") }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw fail(at: 0, "byte order mark (EF BB BF) before the JSON; save the file as UTF-8 without BOM")
        }
        // UTF-32 (its byte order mark, or three NULs beside the first character), before UTF-16, whose mark
        // UTF-32LE's begins with: converted as UTF-16, it would be garbage.
        if bytes.count >= 4,
            bytes[0] == 0xFF && bytes[1] == 0xFE && bytes[2] == 0 && bytes[3] == 0
                || bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0xFE && bytes[3] == 0xFF
                || (bytes[0] != 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] == 0)
                || (bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] != 0)
        {
            throw fail(
                at: 0, "UTF-32 text, not UTF-8, which APNs takes; save it as UTF-8 (iconv -f UTF-32 -t UTF-8)")
        }
        // UTF-16: APNs takes UTF-8.
        if UTF16Text.starts(bytes) {
            throw fail(
                at: 0,
                "UTF-16 text (as Windows PowerShell's > writes it), not UTF-8, which APNs takes; save it as UTF-8 (iconv -f UTF-16 -t UTF-8, or Out-File -Encoding utf8)"
            )
        }
        var stack: [OpenContainer] = []
        var value: JSONValue
        readValue: while true {
            skipWhitespace()
            guard index < bytes.count else { throw unexpected(at: index, expected: "a JSON value") }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[index] == UInt8(ascii: "{")
                try checkDepth(stack.count, at: start)
                index += 1
                skipWhitespace()
                if peek == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    value = JSONValue(kind: isObject ? .object([]) : .array([]), start: start, end: index)
                } else {
                    // A top-level array's elements are never read by the rules: with a filter they are only checked.
                    var keeps = stack.isEmpty ? isObject || rootFilter == nil : stack[stack.count - 1].keepsValue
                    let filter =
                        stack.isEmpty
                        ? rootFilter : stack[stack.count - 1].isObject ? stack[stack.count - 1].valueFilter : nil
                    if !isObject, let filter, !filter.keepsElements { keeps = false }
                    stack.append(OpenContainer(start: start, isObject: isObject, keeps: keeps, filter: filter))
                    if isObject { try beginMember(of: &stack, after: "'{'") }
                    continue readValue
                }
            case UInt8(ascii: "\""):
                let read = try readString(keeping: keepsValue(in: stack))
                value = JSONValue(kind: .string(read.text), start: start, end: index)
                value.cutLength = read.cutLength
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let keep = keepsValue(in: stack)
                value = JSONValue(kind: .number(try parseNumber(keeping: keep)), start: start, end: index)
            default:
                value = try parseLiteral()
            }

            // A value is complete: hand it to the enclosing container, closing containers as they end.
            while let top = stack.indices.last {
                skipWhitespace()
                if !stack[top].isObject {
                    if stack[top].keeps { stack[top].elements.append(value) }
                    stack[top].count += 1
                    if peek == UInt8(ascii: ",") {
                        let comma = index
                        index += 1
                        skipWhitespace()
                        if peek == UInt8(ascii: "]") {
                            throw fail(at: comma, "trailing comma before ']'; remove the comma")
                        }
                        continue readValue
                    }
                    guard peek == UInt8(ascii: "]") else {
                        throw fail(at: index, "expected ',' or ']' after an array element, found \(found(index))")
                    }
                    index += 1
                    let closed = stack.removeLast()
                    value = JSONValue(kind: .array(closed.elements), start: closed.start, end: index)
                } else {
                    let (key, keyStart) = (stack[top].key, stack[top].keyStart)
                    if stack[top].keepsValue || stack[top].valueShallow {
                        stack[top].add(
                            JSONMember(key: key.text, keyStart: keyStart, value: value, keyCutLength: key.cutLength),
                            collapsing: collapsesDuplicates)
                    }
                    stack[top].count += 1
                    if let firstKeyStart = stack[top].repeatOf {
                        duplicates.record {
                            JSONDuplicateKeys.Occurrence(
                                path: Self.path(in: stack), key: Self.shown(key),
                                keyStart: keyStart, firstKeyStart: firstKeyStart)
                        }
                    }
                    if peek == UInt8(ascii: ",") {
                        let comma = index
                        index += 1
                        skipWhitespace()
                        if peek == UInt8(ascii: "}") {
                            throw fail(at: comma, "trailing comma before '}'; remove the comma")
                        }
                        try beginMember(of: &stack, after: "','")
                        continue readValue
                    }
                    guard peek == UInt8(ascii: "}") else {
                        throw fail(at: index, "expected ',' or '}' after an object member, found \(found(index))")
                    }
                    index += 1
                    let closed = stack.removeLast()
                    value = JSONValue(kind: .object(closed.members), start: closed.start, end: index)
                    value.unlistedMembers = closed.unlisted
                }
            }
            break readValue
        }
        skipWhitespace()
        if index < bytes.count {
            throw fail(
                at: index, "unexpected \(found(index)) after the JSON value; a payload holds exactly one JSON object")
        }
        return value
    }

    /// Whether the value being read is kept: read through the stack in place, since `stack.last` would copy the
    /// whole container (a retain and release of each of its arrays, for every value of the document).
    private func keepsValue(in stack: [OpenContainer]) -> Bool {
        stack.isEmpty || stack[stack.count - 1].keepsValue
    }

    /// `a.b[2].key`: the path of the key being read in the innermost open object, as validation messages print it.
    private static func path(in stack: [OpenContainer]) -> String {
        var path = ""
        for container in stack {
            if container.isObject {
                path += path.isEmpty ? shown(container.key) : "." + shown(container.key)
            } else {
                path += "[\(container.count)]"
            }
        }
        return path
    }

    /// A key as messages show it: whole, or the start of a cut key shortened.
    static func shown(_ key: KeptString) -> String {
        key.cutLength == nil ? key.text : JSONValue.shortened(key.text)
    }

    /// Reads the next member's key into the innermost open object and decides what becomes of its value: when
    /// collapsing, whether the key repeats an earlier one (found by `JSONKeyOffsets`), and whether the value is
    /// kept (a repeat of a kept member replaces it; a new key as the object's `JSONMemberFilter` chooses).
    private mutating func beginMember(of stack: inout [OpenContainer], after context: String) throws(JSONSyntaxError) {
        let top = stack.count - 1
        let (key, keyStart) = try parseKey(after: context)
        (stack[top].key, stack[top].keyStart) = (key, keyStart)
        guard collapsesDuplicates else { return }
        let first = stack[top].keyOffsets.firstStart(ofKeyAt: keyStart, in: self)
        stack[top].repeatOf = first
        (stack[top].valueFilter, stack[top].valueShallow) = (nil, false)
        guard stack[top].keeps else {
            stack[top].keepsValue = false
            return
        }
        guard let filter = stack[top].filter else {
            stack[top].keepsValue = first.map { stack[top].slot(firstKeyStart: $0) != nil } ?? true
            return
        }
        if let first {
            // A repeat replaces a kept first copy, kept the same way.
            guard stack[top].slot(firstKeyStart: first) != nil else {
                stack[top].keepsValue = false
                return
            }
            let treatment = stack[top].treatments.first { $0.firstKeyStart == first }
            stack[top].keepsValue = treatment == nil || treatment?.filter != nil
            stack[top].valueShallow = !stack[top].keepsValue
            stack[top].valueFilter = treatment?.filter
            return
        }
        switch filter.choose(key.text) {
        case .keep(let inner):
            stack[top].keepsValue = true
            stack[top].valueFilter = inner
            if let inner { stack[top].treatments.append((keyStart, inner)) }
        case .leaveOut:
            stack[top].keepsValue = false
        case .listed:
            stack[top].keepsValue = false
            if stack[top].listed < JSONMemberFilter.listedLimit {
                stack[top].listed += 1
                stack[top].valueShallow = true
                stack[top].treatments.append((keyStart, nil))
            } else {
                stack[top].unlisted += 1
            }
        }
    }

    /// Reads `"key"` and the `:` after it (whitespace already skipped).
    mutating func parseKey(after context: String) throws(JSONSyntaxError) -> (KeptString, Int) {
        let keyStart = index
        guard peek == UInt8(ascii: "\"") else {
            throw unexpected(at: index, expected: "a string key in double quotes after \(context)")
        }
        let key = try readString()
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else {
            let shown = key.text.utf8.count > JSONReader.keptTextLimit ? JSONValue.shortened(key.text) : Self.shown(key)
            throw fail(
                at: index, "expected ':' after the object key \(JSONWriter.quoted(shown)), found \(found(index))")
        }
        index += 1
        return (key, keyStart)
    }

    /// Fails when opening one more container would pass `JSONReader.maximumDepth`.
    func checkDepth(_ open: Int, at offset: Int) throws(JSONSyntaxError) {
        if open >= JSONReader.maximumDepth {
            throw fail(
                at: offset,
                "nesting deeper than \(JSONReader.maximumDepth) levels of arrays and objects; flatten the payload")
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

    /// Reads a number per RFC 8259: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; with `keeping`
    /// false its literal is left empty (a value nothing reads); past the parser's `keptLimit` it is cut.
    mutating func parseNumber(keeping: Bool = true) throws(JSONSyntaxError) -> JSONNumber {
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
        if keeping, let keptLimit, index - start > keptLimit {
            return JSONNumber(cut: bytes[start..<index], isIntegerLiteral: isInteger)
        }
        return JSONNumber(
            literal: keeping ? String(decoding: bytes[start..<index], as: UTF8.self) : "", isIntegerLiteral: isInteger)
    }

    // MARK: helpers

    /// The current byte, nil at the end.
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Skips the four whitespace bytes RFC 8259 allows (no others).
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Whether `word` starts at the current byte.
    func matches(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count else { return false }
        for k in 0..<w.count where bytes[index + k] != w[k] { return false }
        return true
    }

    /// ASCII 0-9.
    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// Letters, digits and `_`: the bytes of a bare word such as `True` or `NaN`.
    func isWordByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || isDigit(b) || b == UInt8(ascii: "_")
    }

    /// The value of one hex digit, nil for other bytes.
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
        if b < 0x80 { return "character \(Self.hex4(UInt32(b)))" }
        if let length = try? utf8SequenceLength(at: offset) {
            var iterator = bytes[offset..<(offset + length)].makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                let hint = TypographicQuote.isTypographic(scalar) ? "; JSON needs straight double quotes" : ""
                let v = scalar.value
                let invisible =
                    v < 0xA0 || (0x200B...0x200F).contains(v) || (0x2028...0x202E).contains(v)
                    || (0x2060...0x206F).contains(v) || v == 0xFEFF || v >= 0xFFF0 && v <= 0xFFFF
                if invisible { return "character \(Self.hex4(v))" }  // never print controls or bidi overrides raw
                return "'\(Character(scalar))' (\(Self.hex4(v)))\(hint)"
            }
        }
        return "byte \(Self.hexByte(b)) (not UTF-8)"
    }

    /// A syntax error at `offset`, with its line and column.
    func fail(at offset: Int, _ message: String) -> JSONSyntaxError {
        let position = LineTable.position(of: offset, in: bytes)
        return JSONSyntaxError(offset: offset, line: position.line, column: position.column, message: message)
    }
}
