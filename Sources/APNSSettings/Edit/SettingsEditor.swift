import APNSCore

/// Edits the settings file's text in place, one key at a time: the key's own lines change, a new key goes after
/// the last key of its table (a new table at the end), and every other byte stays. The result is then read as
/// a load would (`SettingsFile.parse`), and every key but the edited one must read back as before, so an edit
/// that a file's unusual layout would turn into something else is refused instead of written.
public struct SettingsEditor: Sendable {
    public let path: String
    /// The file's bytes as edited so far.
    public private(set) var bytes: [UInt8]

    /// Whether the file must read as settings before and after each edit, or only as TOML (`forRepair`).
    private let strict: Bool

    /// `bytes` is the file as read (empty for a file that does not exist yet); it must load.
    public init(path: String, bytes: [UInt8]) throws(SettingsProblem) {
        (self.path, self.bytes, strict) = (path, bytes, true)
        _ = try SettingsFile.parse(bytes, path: path)
    }

    /// An editor for a file that may not load as settings (an unknown or misspelt key, a bad value) but is TOML:
    /// removing the line at fault is how it is mended, and every other key must still read back as before.
    public static func forRepair(path: String, bytes: [UInt8]) throws(SettingsProblem) -> SettingsEditor {
        do { return try SettingsEditor(path: path, bytes: bytes) } catch {
            let editor = SettingsEditor(path: path, bytes: bytes, strict: false)
            _ = try editor.root()
            return editor
        }
    }

    private init(path: String, bytes: [UInt8], strict: Bool) {
        (self.path, self.bytes, self.strict) = (path, bytes, strict)
    }

    /// The file as it reads now.
    public var file: SettingsFile {
        get throws(SettingsProblem) { try SettingsFile.parse(bytes, path: path) }
    }

    /// The file's `default-profile` as written, when it is a name, whether or not the file loads.
    public var defaultProfileName: String? {
        guard case .string(let name)? = (try? root())?["default-profile"]?.value, !name.isEmpty else { return nil }
        return name
    }

    /// The names of the file's profiles, in file order, whether or not the file loads (nil when it is not TOML).
    public var profileNames: [String]? {
        guard let root = try? root() else { return nil }
        guard case .table(let profiles)? = root["profiles"]?.value else { return [] }
        return profiles.entries.map { name, _ in name }
    }

    /// The profiles whose own table holds `key`, in file order, whether or not the file loads.
    public func profilesHolding(_ key: String) -> [String] {
        guard case .table(let profiles)? = (try? root())?["profiles"]?.value else { return [] }
        return profiles.entries.compactMap { name, node in
            guard case .table(let table) = node.value, table[key] != nil else { return nil }
            return name
        }
    }

    /// Whether the top level holds `key` itself (not a table), whether or not the file loads.
    public func topLevelHolds(_ key: String) -> Bool {
        guard let node = (try? root())?[key] else { return false }
        if case .table = node.value { return false }
        return true
    }

    /// Sets `key` of the table at `table` to the TOML `value` text; returns the key's 1-based line.
    @discardableResult
    public mutating func set(_ key: String, to value: String, in table: [String]) throws(SettingsProblem) -> Int {
        let before = try root()
        var text = SettingsText(bytes)
        try refuseUnheaded(table, in: before, text: text)
        let line: Int
        if let node = Self.table(table, in: before)?[key] {
            let span = text.span(from: node.position.line - 1)
            text.replaceValue(span: span, with: value)
            line = node.position.line
        } else if !table.isEmpty, Self.table(table, in: before) != nil, text.headerLine(table) == nil,
            let sub = text.lines.indices.first(where: {
                SettingsText.headerPath(text.content($0)).map { $0.starts(with: table) } == true
            })
        {
            // A table that exists only through its sub-tables (`[profiles.dev.devices]` written by add-device) gets
            // its own header, before the first of them: a key after theirs would land in a sub-table.
            let index = text.commentsAbove(sub)
            text.insert([Self.header(table), "\(ProfileValueText.key(key)) = \(value)", ""], at: index)
            line = index + 2
        } else if let tableNode = Self.table(table, in: before) {
            let index = insertionLine(for: table, tableNode: tableNode, text: text)
            text.insert(["\(ProfileValueText.key(key)) = \(value)"], at: index)
            if table.isEmpty, index < text.lines.count - 1, SettingsText.headerPath(text.content(index + 1)) != nil {
                text.insert([""], at: index + 1)
            }
            line = index + 1
        } else if table.first == "profiles", let devices = text.headerLine(["devices"]) {
            // A new profile goes before the device names, as a reader expects profiles first.
            let index = text.commentsAbove(devices)
            text.insert([Self.header(table), "\(ProfileValueText.key(key)) = \(value)", ""], at: index)
            line = index + 2
        } else {
            text.appendParagraph([Self.header(table), "\(ProfileValueText.key(key)) = \(value)"])
            line = text.lines.count - 1
        }
        try commit(text, before: before, changed: (table, key), expected: ProfileValueText.tomlValue(value))
        return line
    }

    /// Removes `key` from the table at `table`; false when it was not there (nothing changes).
    public mutating func remove(_ key: String, from table: [String]) throws(SettingsProblem) -> Bool {
        let before = try root()
        guard let node = Self.table(table, in: before)?[key] else { return false }
        var text = SettingsText(bytes)
        try refuseUnheaded(table, in: before, text: text)
        text.remove(span: text.span(from: node.position.line - 1))
        try commit(text, before: before, changed: (table, key), expected: nil)
        return true
    }

    /// A table the file writes without a header of its own or of a sub-table (`profiles.dev.topic = "a"`,
    /// `dev = { topic = "a" }` under `[profiles]`): TOML reads it, but its keys are not lines this edits in place.
    private func refuseUnheaded(_ table: [String], in root: TOMLTable, text: SettingsText) throws(SettingsProblem) {
        guard !table.isEmpty, Self.table(table, in: root) != nil, text.headerLine(table) == nil,
            !text.lines.indices.contains(where: {
                SettingsText.headerPath(text.content($0)).map { $0.starts(with: table) } == true
            })
        else { return }
        let header = Self.header(table)
        throw .usage(
            "\(path): \(header) is written as dotted keys or an inline table, which config edits cannot change in "
                + "place; write it as a \(header) table of its own (one key per line), or edit the file by hand")
    }

    /// The line index a new key of `table` goes to: after its last key (a value over several lines included),
    /// else right after its header; at the top level, before the first table and the comments above it.
    private func insertionLine(for table: [String], tableNode: TOMLTable, text: SettingsText) -> Int {
        let keyLines = tableNode.entries.compactMap { entry -> Int? in
            if case .table = entry.node.value,
                SettingsText.headerPath(text.content(entry.node.position.line - 1)) != nil
            {
                return nil
            }
            return entry.node.position.line - 1
        }
        if table.isEmpty {
            let firstHeader = text.nextHeader(after: 0)
            let own = keyLines.filter { $0 < firstHeader }
            if let last = own.max() { return text.span(from: last).upperBound + 1 }
            // Above the blank lines before the first table too: each unset and set again of a top-level key would
            // otherwise add one more blank line above the table.
            var index = text.commentsAbove(firstHeader)
            while index > 0, text.content(index - 1).allSatisfy({ $0 == " " || $0 == "\t" }) { index -= 1 }
            return index
        }
        let header = text.headerLine(table) ?? text.lines.count
        let end = text.nextHeader(after: header + 1)
        let own = keyLines.filter { $0 > header && $0 < end }
        if let last = own.max() { return text.span(from: last).upperBound + 1 }
        return min(header + 1, text.lines.count)
    }

    /// Checks `text` as a load would and as an edit of `changed` only, then keeps it.
    private mutating func commit(
        _ text: SettingsText, before: TOMLTable, changed: (table: [String], key: String), expected: TOMLValue?
    ) throws(SettingsProblem) {
        let edited = text.bytes
        if strict { _ = try SettingsFile.parse(edited, path: path) }
        guard let after = try? TOMLParser.parse(edited) else { throw layoutProblem(changed) }
        var old = Self.flatten(before)
        var new = Self.flatten(after)
        let changedKey = (changed.table + [changed.key]).joined(separator: "\u{0}")
        let got = new.removeValue(forKey: changedKey)
        old.removeValue(forKey: changedKey)
        // The tables leading to the key may be new.
        for depth in 1...max(1, changed.table.count) where depth <= changed.table.count {
            let marker = changed.table.prefix(depth).joined(separator: "\u{0}") + "\u{0}"
            old.removeValue(forKey: marker)
            new.removeValue(forKey: marker)
        }
        guard old == new, got == expected.map(Self.canonical) else { throw layoutProblem(changed) }
        bytes = edited
    }

    private func layoutProblem(_ changed: (table: [String], key: String)) -> SettingsProblem {
        .usage(
            "\(path): cannot change \(changed.key) in \(changed.table.isEmpty ? "the top level" : Self.header(changed.table)) without changing other lines (a dotted key or an inline table?); edit the file by hand"
        )
    }

    private func root() throws(SettingsProblem) -> TOMLTable {
        do { return try TOMLParser.parse(bytes) } catch {
            throw .usage("\(path):\(error.position.line):\(error.position.column): \(error.message)")
        }
    }

    /// `[profiles.dev]`.
    public static func header(_ table: [String]) -> String {
        "[" + table.map(ProfileValueText.key).joined(separator: ".") + "]"
    }

    static func table(_ path: [String], in root: TOMLTable) -> TOMLTable? {
        var table = root
        for name in path {
            guard case .table(let inner)? = table[name]?.value else { return nil }
            table = inner
        }
        return table
    }

    /// Every value of the document by its key path, without positions, to compare two versions.
    static func flatten(_ table: TOMLTable, prefix: [String] = []) -> [String: String] {
        var out: [String: String] = [:]
        for (key, node) in table.entries {
            if case .table(let inner) = node.value {
                out.merge(flatten(inner, prefix: prefix + [key])) { a, _ in a }
                out[(prefix + [key]).joined(separator: "\u{0}") + "\u{0}"] = "table"
            } else {
                out[(prefix + [key]).joined(separator: "\u{0}")] = canonical(node.value)
            }
        }
        return out
    }

    static func canonical(_ value: TOMLValue) -> String {
        switch value {
        case .array(let items): return "[" + items.map { canonical($0.value) }.joined(separator: ",") + "]"
        case .table(let t):
            return "{"
                + t.entries.map { "\(ProfileValueText.quoted($0.key))=\(canonical($0.node.value))" }.joined(
                    separator: ",") + "}"
        case .string(let s): return ProfileValueText.quoted(s)
        default: return RawSetting.tomlText(value)
        }
    }
}
