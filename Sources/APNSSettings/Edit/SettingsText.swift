/// The settings file as lines, for editing in place: every line the edit does not touch stays byte for byte
/// (comments, blank lines, key order, `\r\n` endings). Where keys and tables are comes from the project's
/// TOML reader (each key's line) and from reading a line or a few on their own, so a value written over
/// several lines (an array) is one span.
struct SettingsText {
    /// The lines without their `\n`; a `\r` before it stays part of the line. A file ending in `\n` has an
    /// empty last element, so joining with `\n` gives the bytes back.
    private(set) var lines: [String]

    init(_ bytes: [UInt8]) {
        // Split on the byte, not the Character: Swift reads "\r\n" as one Character.
        lines =
            bytes.isEmpty
            ? []
            : bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    var bytes: [UInt8] { Array(lines.joined(separator: "\n").utf8) }

    /// Line `i` without a `\r` ending.
    func content(_ i: Int) -> String { Self.withoutCarriageReturn(lines[i]) }

    static func withoutCarriageReturn(_ line: String) -> String {
        line.utf8.last == 0x0D ? String(decoding: line.utf8.dropLast(), as: UTF8.self) : line
    }

    /// A table of the file: `[]` is the top level, `["profiles", "dev"]`, `["devices"]`,
    /// `["profiles", "dev", "devices"]`.
    typealias TablePath = [String]

    // MARK: Finding

    /// The 0-based index of the line holding `[a.b]` for `path` (spaces and quoted parts allowed), if any.
    func headerLine(_ path: TablePath) -> Int? {
        lines.indices.first { Self.headerPath(content($0)) == path }
    }

    /// The table path of a `[header]` line, or nil for any other line (an array of tables included).
    static func headerPath(_ line: String) -> TablePath? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("["), !trimmed.hasPrefix("[[") else { return nil }
        guard let root = try? TOMLParser.parse(Array(line.utf8)) else { return nil }
        var path: TablePath = []
        var table = root
        while table.keys.count == 1, let key = table.keys.first, case .table(let inner)? = table[key]?.value {
            path.append(key)
            table = inner
        }
        return path.isEmpty || !table.keys.isEmpty ? nil : path
    }

    /// The 0-based index of the first `[header]` line at or after `start`, else the line count.
    func nextHeader(after start: Int) -> Int {
        var i = start
        while i < lines.count {
            if Self.headerPath(content(i)) != nil { return i }
            i += 1
        }
        return lines.count
    }

    /// The first line of the comment lines right above line `index` (`index` itself when there are none): a
    /// comment touching a header belongs to it.
    func commentsAbove(_ index: Int) -> Int {
        var first = index
        while first > 0, content(first - 1).drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") { first -= 1 }
        return first
    }

    /// The lines a key's value occupies, from its key's 0-based line: that line and, for a value written
    /// over several lines, the following ones up to the first point where they read as TOML on their own.
    func span(from first: Int) -> ClosedRange<Int> {
        var last = first
        var text = content(first)
        while (try? TOMLParser.parse(Array(text.utf8))) == nil, last + 1 < lines.count {
            last += 1
            text += "\n" + content(last)
        }
        return first...last
    }

    // MARK: Editing

    /// `key = value` with `value`'s TOML text, keeping the key as written, the spaces around `=` and a
    /// trailing comment of the span's last line.
    mutating func replaceValue(span: ClosedRange<Int>, with value: String) {
        let first = content(span.lowerBound)
        let firstBytes = Array(first.utf8)
        guard let equals = Self.separator(firstBytes) else { return }
        var valueStart = equals + 1
        while valueStart < firstBytes.count, firstBytes[valueStart] == 0x20 || firstBytes[valueStart] == 0x09 {
            valueStart += 1
        }
        let prefix = String(decoding: firstBytes[..<valueStart], as: UTF8.self)
        let tail = Self.trailingComment(of: content(span.upperBound), isKeyLine: span.count == 1)
        let carriageReturn = lines[span.upperBound].utf8.last == 0x0D ? "\r" : ""
        lines.replaceSubrange(span, with: [prefix + value + tail + carriageReturn])
    }

    /// Removes the lines of `span`.
    mutating func remove(span: ClosedRange<Int>) { lines.removeSubrange(span) }

    /// Inserts `newLines` before the 0-based line `index`, with the file's line ending.
    mutating func insert(_ newLines: [String], at index: Int) {
        let ending = lines.first?.utf8.last == 0x0D ? "\r" : ""
        lines.insert(contentsOf: newLines.map { $0 + ending }, at: index)
    }

    /// Appends `newLines` as a new paragraph at the end (a blank line first unless the file is empty or
    /// already ends with one), keeping the final newline.
    mutating func appendParagraph(_ newLines: [String]) {
        let ending = lines.first?.utf8.last == 0x0D ? "\r" : ""
        while let last = lines.last, last.isEmpty || last == "\r" { lines.removeLast() }
        var added = newLines
        if !lines.isEmpty { added.insert("", at: 0) }
        lines += added.map { $0 + ending } + [""]
    }

    // MARK: Reading one line

    /// The byte offset of the `=` between a key and its value: the first outside quotes.
    static func separator(_ bytes: [UInt8]) -> Int? {
        var quote: UInt8? = nil
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if let q = quote {
                if c == 0x5C && q == 0x22 { i += 1 } else if c == q { quote = nil }
            } else if c == 0x22 || c == 0x27 {
                quote = c
            } else if c == 0x3D {
                return i
            }
            i += 1
        }
        return nil
    }

    /// The blanks and `# comment` after a value on `line` (empty when there is none): the first `#` before
    /// which the line still reads as TOML. `isKeyLine`: the line starts with the key (else it is the last line of
    /// a value written over several).
    static func trailingComment(of line: String, isKeyLine: Bool) -> String {
        let bytes = Array(line.utf8)
        for (i, c) in bytes.enumerated() where c == UInt8(ascii: "#") {
            let before = Array(bytes[..<i])
            let reads = isKeyLine ? (try? TOMLParser.parse(before)) != nil : !before.contains(UInt8(ascii: "\""))
            guard reads else { continue }
            var start = i
            while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
            return String(decoding: bytes[start...], as: UTF8.self)
        }
        return ""
    }
}
