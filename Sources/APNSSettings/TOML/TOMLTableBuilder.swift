/// A table while the document is read: TOML's rules on defining a table twice depend on how each table came
/// to exist (a `[header]`, a dotted key, a parent of either, an inline table), so the builder remembers it.
final class TOMLTableBuilder {
    /// How a table came to exist; decides what may add to it later.
    enum Origin {
        /// Created as the parent of a header or of an array of tables; a `[header]` may still define it once.
        case implicit
        /// Defined by its own `[header]` (or the document root).
        case header
        /// Created by a dotted key (`a.b = 1` makes `a`); only more dotted keys may extend it.
        case dotted
        /// `{ … }`: complete as written.
        case inline
        /// One `[[element]]` of an array of tables.
        case arrayElement
    }

    /// What a key holds while reading.
    enum Entry {
        case value(TOMLValue, TOMLPosition)
        case table(TOMLTableBuilder)
        /// Made by `[[name]]` headers (a static array `a = []` is a `.value`).
        case tables(TOMLTableArray)
    }

    var origin: Origin
    let position: TOMLPosition
    /// How many key names and array positions lead from the root to this table (the root is 0); the reader
    /// refuses anything deeper than `TOMLParser.maximumDepth`, so building and freeing stay shallow.
    let level: Int
    private(set) var keys: [String] = []
    private(set) var entries: [String: Entry] = [:]

    init(origin: Origin, at position: TOMLPosition, level: Int) {
        (self.origin, self.position, self.level) = (origin, position, level)
    }

    /// The entry under `key`.
    subscript(key: String) -> Entry? { entries[key] }

    /// The key stored for `key` when it is the same name in another Unicode form (`café` composed, then
    /// decomposed): TOML keeps the two apart, and Swift's strings, which every setting is read through, do not.
    func otherForm(of key: String) -> String? {
        keys.first { $0 == key && !$0.utf8.elementsEqual(key.utf8) }
    }

    /// Sets `key` (callers check first that it is free, or replace what they looked up).
    func set(_ key: String, _ entry: Entry) {
        if entries[key] == nil { keys.append(key) }
        entries[key] = entry
    }

    /// The finished, immutable table.
    func build() -> TOMLTable {
        TOMLTable(
            entries: keys.compactMap { key in
                guard let entry = entries[key] else { return nil }
                switch entry {
                case .value(let v, let p): return (key, TOMLNode(v, at: p))
                case .table(let t): return (key, TOMLNode(.table(t.build()), at: t.position))
                case .tables(let array):
                    return (
                        key,
                        TOMLNode(
                            .array(array.elements.map { TOMLNode(.table($0.build()), at: $0.position) }),
                            at: array.position)
                    )
                }
            })
    }
}
