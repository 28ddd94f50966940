/// A payload's bytes read as the rules read them: its JSON with only what `RootMembersRead` keeps (or why it is
/// not JSON), and its repeated keys. Read once per payload; a `.apns` file is read this way when loaded, for its
/// bundle id, and the rules reuse that reading.
struct PayloadDocument: Sendable {
    /// The document, duplicates collapsed to their last copy; nil when empty or not JSON.
    let root: JSONValue?
    let duplicates: JSONDuplicateKeys
    let syntaxError: JSONSyntaxError?

    /// Reads `source` (collapsed: a million copies of one key are checked in bounded memory; only the top-level
    /// members the rules read are kept, so a payload of millions of custom keys is too).
    init(reading source: [UInt8]) {
        var root: JSONValue? = nil
        var duplicates = JSONDuplicateKeys()
        var syntaxError: JSONSyntaxError? = nil
        if !source.isEmpty {
            do {
                (root, duplicates) = try JSONReader.parseCollapsingDuplicates(source, keeping: RootMembersRead.filter())
            } catch { syntaxError = error }
        }
        (self.root, self.duplicates, self.syntaxError) = (root, duplicates, syntaxError)
    }
}
