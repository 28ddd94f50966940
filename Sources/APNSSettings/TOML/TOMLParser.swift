import APNSCore

/// A TOML 1.0 reader that keeps the line and column of every key, which the settings need for messages
/// and origins (`config.toml:7`) and which the TOML libraries available to the build do not expose. It reads
/// bytes, never traps on input, and stops at the first problem with its position. Nesting is bounded so a
/// hostile file cannot exhaust the stack, and every construct costs time linear in its length.
public struct TOMLParser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0

    /// The most levels a value may sit below the root: each key name (of a header or a dotted key) and each
    /// array position is a level, so `a.b.c = 1` is at level 3 and the `1` in `a = [[1]]` too. Deeper is
    /// refused, so reading, building and freeing the tables never recurse deeper than this.
    static let maximumDepth = 64

    /// Parses a whole document into its root table.
    public static func parse(_ bytes: [UInt8]) throws(TOMLSyntaxError) -> TOMLTable {
        var parser = TOMLParser(bytes: bytes)
        return try parser.document()
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var position: TOMLPosition { TOMLPosition(line: line, column: index - lineStart + 1) }
    var atEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }
    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    func fail(_ message: String, at location: TOMLPosition? = nil) -> TOMLSyntaxError {
        TOMLSyntaxError(message, at: location ?? position)
    }

    // MARK: - Document structure

    mutating func document() throws(TOMLSyntaxError) -> TOMLTable {
        try checkEncoding()
        let root = TOMLTableBuilder(origin: .header, at: TOMLPosition(line: 1, column: 1), level: 0)
        var table = root
        while true {
            skipBlank()
            guard let c = current else { break }
            if c == UInt8(ascii: "[") {
                table = try header(root: root)
            } else if c == UInt8(ascii: "#") || c == 0x0A || c == 0x0D {
                try endOfLine()
                continue
            } else {
                try keyValue(into: table, inline: false)
            }
            try endOfLine()
        }
        return root.build()
    }

    /// Refuses text that is not UTF-8 up front, naming the line of the first bad byte.
    mutating func checkEncoding() throws(TOMLSyntaxError) {
        // Python's tomllib refuses a byte-order mark too; say what it is rather than "expected a key".
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw TOMLSyntaxError(
                "the file starts with a byte-order mark; save it as UTF-8 without BOM",
                at: TOMLPosition(line: 1, column: 1))
        }
        // An editor's or PowerShell's UTF-16 save, which would read as binary here.
        if UTF16Text.starts(bytes) {
            throw TOMLSyntaxError(
                "UTF-16 text (as Windows PowerShell's > writes it), not UTF-8, which TOML must be; save it as "
                    + "UTF-8 (iconv -f UTF-16 -t UTF-8, or Out-File -Encoding utf8)",
                at: TOMLPosition(line: 1, column: 1))
        }
        var decoder = UTF8()
        var iterator = bytes[index...].makeIterator()
        var offset = index
        var lineNo = 1
        var start = index
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s):
                if s == "\n" {
                    lineNo += 1
                    start = offset + 1
                }
                offset += String(s).utf8.count
            case .emptyInput: break loop
            case .error:
                throw TOMLSyntaxError(
                    "the file is not UTF-8 text (TOML must be UTF-8)",
                    at: TOMLPosition(line: lineNo, column: offset - start + 1))
            }
        }
    }

    /// Spaces and tabs.
    mutating func skipBlank() {
        while let c = current, c == 0x20 || c == 0x09 { index += 1 }
    }

    /// After a key/value pair or a header: blanks, an optional comment, then a newline or the end.
    mutating func endOfLine() throws(TOMLSyntaxError) {
        skipBlank()
        if current == UInt8(ascii: "#") { try comment() }
        guard let c = current else { return }
        if c == 0x0A {
            newline()
            return
        }
        if c == 0x0D, peek(1) == 0x0A {
            index += 1
            newline()
            return
        }
        if c == 0x0D { throw fail("a carriage return must be followed by a line feed") }
        throw fail("expected the end of the line, found \(Self.describe(c)); one key = value per line")
    }

    /// Consumes a line feed at `index`.
    mutating func newline() {
        index += 1
        line += 1
        lineStart = index
    }

    /// `# …` up to the end of the line; control characters other than tab are not allowed in it.
    mutating func comment() throws(TOMLSyntaxError) {
        while let c = current, c != 0x0A {
            if c == 0x0D && peek(1) == 0x0A { return }
            if Self.isControl(c) { throw fail("control character \(Self.describe(c)) in a comment") }
            index += 1
        }
    }

    /// Blanks, comments and newlines (inside arrays).
    mutating func skipBlankLinesAndComments() throws(TOMLSyntaxError) {
        while let c = current {
            if c == 0x20 || c == 0x09 {
                index += 1
            } else if c == 0x0A {
                newline()
            } else if c == 0x0D, peek(1) == 0x0A {
                index += 1
                newline()
            } else if c == UInt8(ascii: "#") {
                try comment()
            } else {
                return
            }
        }
    }

    /// `[a.b]` or `[[a.b]]`: the table the following pairs go into.
    mutating func header(root: TOMLTableBuilder) throws(TOMLSyntaxError) -> TOMLTableBuilder {
        let start = position
        index += 1
        let isArray = current == UInt8(ascii: "[")
        if isArray { index += 1 }
        skipBlank()
        let path = try key(below: 0)
        skipBlank()
        guard current == UInt8(ascii: "]") else {
            throw fail("expected ] to close the table header [\(Self.dotted(path))")
        }
        index += 1
        if isArray {
            guard current == UInt8(ascii: "]") else { throw fail("expected ]] to close [[\(Self.dotted(path))]") }
            index += 1
        }
        let name = Self.dotted(path)
        var table = root
        for component in path.dropLast() {
            switch table[component.name] {
            case nil:
                let made = TOMLTableBuilder(origin: .implicit, at: component.position, level: table.level + 1)
                table.set(component.name, .table(made))
                table = made
            case .table(let t):
                if t.origin == .inline {
                    throw fail("[\(name)]: \(component.name) is an inline table, which cannot be extended", at: start)
                }
                table = t
            case .tables(let array):
                guard let last = array.elements.last else { throw fail("[\(name)]: empty array of tables", at: start) }
                table = last
            case .value:
                throw fail("[\(name)]: \(component.name) already holds a value, not a table", at: start)
            }
            // Through an array of tables a name is two levels (the name and the position in the array).
            if table.level > Self.maximumDepth { throw tooDeep(at: component.position) }
        }
        guard let last = path.last else { throw fail("empty table name", at: start) }
        if isArray {
            let element = TOMLTableBuilder(origin: .arrayElement, at: start, level: table.level + 2)
            if element.level > Self.maximumDepth { throw tooDeep(at: last.position) }
            switch table[last.name] {
            case nil: table.set(last.name, .tables(TOMLTableArray(first: element, at: start)))
            case .tables(let array): array.append(element)
            default: throw fail("[[\(name)]]: \(name) is already defined, and not as an array of tables", at: start)
            }
            return element
        }
        if table.level + 1 > Self.maximumDepth { throw tooDeep(at: last.position) }
        switch table[last.name] {
        case nil:
            let made = TOMLTableBuilder(origin: .header, at: start, level: table.level + 1)
            table.set(last.name, .table(made))
            return made
        case .table(let t) where t.origin == .implicit:
            t.origin = .header
            return t
        case .table(let t):
            if table.otherForm(of: last.name) != nil {
                throw fail(Self.otherForm(name, line: t.position.line), at: start)
            }
            throw fail(
                "[\(name)] is defined twice (first at line \(t.position.line)); put its keys under one header",
                at: start)
        default:
            throw fail("[\(name)]: \(name) is already defined as a value", at: start)
        }
    }

    /// `key = value` into `table`; a dotted key creates or extends tables made by dotted keys.
    mutating func keyValue(into table: TOMLTableBuilder, inline: Bool) throws(TOMLSyntaxError) {
        let start = position
        let path = try key(below: table.level)
        skipBlank()
        guard current == UInt8(ascii: "=") else {
            if atEnd || current == 0x0A || current == 0x0D {
                throw fail("expected = after the key \(Self.quotedKey(Self.dotted(path))); every key needs a value")
            }
            throw fail("expected = after the key \(Self.quotedKey(Self.dotted(path)))")
        }
        index += 1
        skipBlank()
        let value = try value(at: table.level + path.count)
        var target = table
        for component in path.dropLast() {
            switch target[component.name] {
            case nil:
                let made = TOMLTableBuilder(
                    origin: inline ? .inline : .dotted, at: component.position, level: target.level + 1)
                target.set(component.name, .table(made))
                target = made
            case .table(let t)
            where t.origin == .dotted || t.origin == .implicit || (inline && t.origin == .inline && t !== table):
                target = t
            default:
                throw fail(
                    "\(Self.quotedKey(Self.dotted(path))): \(component.name) is already defined, so a dotted key cannot add to it",
                    at: start)
            }
        }
        guard let last = path.last else { throw fail("empty key", at: start) }
        if let existing = target[last.name] {
            let first: TOMLPosition
            var advice = "keep the line you mean and delete the other"
            switch existing {
            case .value(_, let p): first = p
            case .table(let t):
                first = t.position
                advice = "it names a table there, so keep one of the two: the table's lines or this one"
            case .tables(let array):
                first = array.position
                advice = "it names tables there, so keep one of the two: the tables' lines or this one"
            }
            if target.otherForm(of: last.name) != nil {
                throw fail(Self.otherForm(Self.quotedKey(Self.dotted(path)), line: first.line), at: start)
            }
            // Which copy was meant only the user knows; no command edits a file that is not TOML.
            throw fail(
                "duplicate key \(Self.quotedKey(Self.dotted(path))) (first at line \(first.line)); a key is given "
                    + "once: \(advice)", at: start)
        }
        target.set(last.name, .value(value, start))
    }

    /// Two names that look alike and differ only in Unicode form: TOML reads two, apnsctl one.
    static func otherForm(_ name: String, line: Int) -> String {
        "\(name) is the name of line \(line) written in another Unicode form (an accent as one character there and "
            + "two here, or the other way round); apnsctl reads the two as one name: type both the same way"
    }

    /// A key component with where it starts.
    struct KeyPart {
        let name: String
        let position: TOMLPosition
    }

    /// A bare, quoted or dotted key in a table at `level`: a name that would sit deeper than `maximumDepth`
    /// is refused where it starts, before the rest of a hostile key is read.
    mutating func key(below level: Int) throws(TOMLSyntaxError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            skipBlank()
            let start = position
            if level + parts.count + 1 > Self.maximumDepth { throw tooDeep(at: start) }
            guard let c = current else { throw fail("expected a key, found the end of the file") }
            if c == UInt8(ascii: "\"") {
                if peek(1) == c && peek(2) == c { throw fail("a key cannot be a multi-line string") }
                parts.append(KeyPart(name: try basicString(), position: start))
            } else if c == UInt8(ascii: "'") {
                if peek(1) == c && peek(2) == c { throw fail("a key cannot be a multi-line string") }
                parts.append(KeyPart(name: try literalString(), position: start))
            } else {
                let from = index
                while let b = current, Self.isBareKey(b) { index += 1 }
                guard index > from else {
                    throw fail(
                        "expected a key (letters, digits, - and _, or a quoted string), found \(Self.describe(c))")
                }
                parts.append(KeyPart(name: String(decoding: bytes[from..<index], as: UTF8.self), position: start))
            }
            skipBlank()
            guard current == UInt8(ascii: ".") else { return parts }
            index += 1
        }
    }

    // MARK: - Values

    /// The value at `level` (its key's level, or one below its array's).
    mutating func value(at level: Int) throws(TOMLSyntaxError) -> TOMLValue {
        guard level <= Self.maximumDepth else { throw tooDeep(at: position) }
        guard let c = current else { throw fail("expected a value, found the end of the file") }
        switch c {
        case UInt8(ascii: "\""):
            if peek(1) == c && peek(2) == c { return .string(try multilineBasicString()) }
            return .string(try basicString())
        case UInt8(ascii: "'"):
            if peek(1) == c && peek(2) == c { return .string(try multilineLiteralString()) }
            return .string(try literalString())
        case UInt8(ascii: "["): return try array(at: level)
        case UInt8(ascii: "{"): return try inlineTable(at: level)
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return try boolean()
        case 0x0A, 0x0D: throw fail("expected a value after =, found the end of the line")
        default: return try numberOrDate()
        }
    }

    mutating func boolean() throws(TOMLSyntaxError) -> TOMLValue {
        if bytes[index...].starts(with: Array("true".utf8)) {
            index += 4
            try checkValueEnd()
            return .boolean(true)
        }
        if bytes[index...].starts(with: Array("false".utf8)) {
            index += 5
            try checkValueEnd()
            return .boolean(false)
        }
        throw fail("expected a value; strings need quotes (\"…\"), booleans are true or false")
    }

    /// After a bare value: something that may follow one (blank, comma, bracket, comment, newline, end).
    func checkValueEnd() throws(TOMLSyntaxError) {
        guard let c = current else { return }
        switch c {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#"): return
        default: throw fail("unexpected \(Self.describe(c)) after the value; strings need quotes")
        }
    }

    mutating func array(at level: Int) throws(TOMLSyntaxError) -> TOMLValue {
        index += 1
        var items: [TOMLNode] = []
        while true {
            try skipBlankLinesAndComments()
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            let at = position
            items.append(TOMLNode(try value(at: level + 1), at: at))
            try skipBlankLinesAndComments()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            if atEnd { throw fail("unterminated array: expected ] or ,") }
            throw fail("expected , or ] in the array, found \(Self.describe(current ?? 0))")
        }
    }

    mutating func inlineTable(at level: Int) throws(TOMLSyntaxError) -> TOMLValue {
        let table = TOMLTableBuilder(origin: .inline, at: position, level: level)
        index += 1
        skipBlank()
        if current == UInt8(ascii: "}") {
            index += 1
            return .table(table.build())
        }
        while true {
            skipBlank()
            try keyValue(into: table, inline: true)
            skipBlank()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if current == UInt8(ascii: "}") {
                index += 1
                return .table(table.build())
            }
            if current == 0x0A || current == 0x0D {
                throw fail("an inline table must be on one line; use a [table] header for more keys")
            }
            if atEnd { throw fail("unterminated inline table: expected }") }
            throw fail("expected , or } in the inline table, found \(Self.describe(current ?? 0))")
        }
    }

    /// Nesting past `maximumDepth`, at the name or value that would be too deep.
    func tooDeep(at location: TOMLPosition) -> TOMLSyntaxError {
        fail(
            "nested more than \(Self.maximumDepth) levels deep (each key name and each array is a level); flatten the file",
            at: location)
    }

    // MARK: - Characters

    static func isBareKey(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
    }

    /// Control characters TOML allows nowhere but as escapes (tab is allowed).
    static func isControl(_ c: UInt8) -> Bool { (c < 0x20 && c != 0x09) || c == 0x7F }

    /// A byte for a message: printable ASCII quoted, a control character by its code point (`U+0000`, as the JSON
    /// reader names one), anything else (a byte of a character) as `\xNN`.
    static func describe(_ c: UInt8) -> String {
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        if c == 0x20 { return "a space" }
        if isControl(c) || c == 0x09 {
            let hex = String(c, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        let hex = String(c, radix: 16, uppercase: false)
        return "\\x" + (hex.count == 1 ? "0" + hex : hex)
    }

    static func dotted(_ path: [KeyPart]) -> String { path.map(\.name).joined(separator: ".") }

    /// A key name for a message, control characters escaped.
    static func quotedKey(_ key: String) -> String {
        var out = "\""
        for s in key.unicodeScalars {
            if s.value < 0x20 || s.value == 0x7F {
                out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(s)
            }
        }
        return out + "\""
    }
}
