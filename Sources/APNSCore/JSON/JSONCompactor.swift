/// Writes JSON back compactly: insignificant whitespace removed, key order, duplicates, string escapes
/// and number literals exactly as written. This is what `send --minify` sends and how a `.apns` file's
/// payload is produced; working on the source bytes keeps `1.0` as `1.0` and `\u00e9` as `\u00e9`.
public enum JSONCompactor {
    /// The compact form of a whole document, or nil when `bytes` is not valid JSON.
    public static func minify(_ bytes: [UInt8]) -> [UInt8]? {
        guard (try? JSONReader.parse(bytes)) != nil else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        appendCompact(bytes[...], to: &out)
        return out
    }

    /// The compact form of `value`, which was read from `source`.
    public static func compact(_ value: JSONValue, in source: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        appendCompact(source[value.start..<value.end], to: &out)
        return out
    }

    /// `members` of a top-level object read from `source`, minus those named `key`, as a compact object, in
    /// the original order: how a `.apns` file's `Simulator Target Bundle` is dropped from the body.
    public static func removing(_ key: String, from members: [JSONMember], in source: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        var first = true
        for member in members where !member.key.utf8.elementsEqual(key.utf8) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendCompact(source[member.keyStart..<member.value.end], to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Copies valid JSON text, dropping whitespace outside strings.
    public static func appendCompact(_ text: ArraySlice<UInt8>, to out: inout [UInt8]) {
        forEachCompactByte(of: text) { out.append($0) }
    }

    /// How many bytes `appendCompact` would write, without writing them (a payload's minified size costs no copy).
    public static func compactCount(_ text: ArraySlice<UInt8>) -> Int {
        var count = 0
        forEachCompactByte(of: text) { _ in count += 1 }
        return count
    }

    /// Calls `body` with each byte of valid JSON `text` but the whitespace outside strings.
    private static func forEachCompactByte(of text: ArraySlice<UInt8>, _ body: (UInt8) -> Void) {
        var inString = false
        var escaped = false
        for b in text {
            if inString {
                body(b)
                if escaped { escaped = false }
                else if b == UInt8(ascii: "\\") { escaped = true }
                else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "\""): inString = true; body(b)
            default: body(b)
            }
        }
    }
}
