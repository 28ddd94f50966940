/// Writes JSON back compactly: insignificant whitespace removed, key order, duplicates, string escapes
/// and number literals exactly as written. This is what `send --minify` sends and how a `.apns` file's
/// payload is produced; working on the source bytes keeps `1.0` as `1.0` and `\u00e9` as `\u00e9`.
public enum JSONCompactor {
    /// The compact form of a whole document, or nil when `bytes` is not valid JSON.
    public static func minify(_ bytes: [UInt8]) -> [UInt8]? {
        guard isValid(bytes) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        appendCompact(bytes[...], to: &out)
        return out
    }

    /// How many bytes `minify` would write, without writing them; nil when `bytes` is not valid JSON.
    public static func compactCount(ofValid bytes: [UInt8]) -> Int? {
        isValid(bytes) ? compactCount(bytes[...]) : nil
    }

    /// Whether `bytes` is one valid JSON value, checked without a tree of it (nothing of it is kept).
    private static func isValid(_ bytes: [UInt8]) -> Bool {
        (try? JSONReader.parseCollapsingDuplicates(bytes, keepingRootMember: { _ in false })) != nil
    }

    /// The compact form of `value`, which was read from `source`.
    public static func compact(_ value: JSONValue, in source: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        appendCompact(source[value.start..<value.end], to: &out)
        return out
    }

    /// The top-level object of `source` (valid JSON) minus its members named `key`, as a compact object in the
    /// original order: how a `.apns` file's `Simulator Target Bundle` is dropped from the body. Walked in the
    /// source, so it costs the output and no tree.
    public static func removing(_ key: String, fromObject source: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        forEachCompactByte(removing: key, fromObject: source) { out.append($0) }
        return out
    }

    /// How many bytes `removing(_:fromObject:)` would write, without writing them.
    public static func countRemoving(_ key: String, fromObject source: [UInt8]) -> Int {
        var count = 0
        forEachCompactByte(removing: key, fromObject: source) { _ in count += 1 }
        return count
    }

    private static func forEachCompactByte(removing key: String, fromObject source: [UInt8], _ body: (UInt8) -> Void) {
        let parser = JSONParser(bytes: source)
        let start = source.firstIndex { $0 == UInt8(ascii: "{") } ?? 0
        var first = true
        body(UInt8(ascii: "{"))
        var key = key
        key.withUTF8 { name in
            // An escape is at most 6 bytes for 1 byte of the name; a longer key cannot be it (and is not decoded).
            let longest = 6 * name.count + 2
            JSONChildScan.forEachMember(in: source, object: start..<source.count) { keyRange, value in
                if keyRange.count <= longest,
                    parser.keyBytes(at: keyRange.lowerBound, equal: UnsafeRawBufferPointer(name))
                {
                    return
                }
                if !first { body(UInt8(ascii: ",")) }
                first = false
                forEachCompactByte(of: source[keyRange.lowerBound..<value.upperBound]) { b, _ in body(b) }
            }
        }
        body(UInt8(ascii: "}"))
    }

    /// Copies valid JSON text, dropping whitespace outside strings.
    public static func appendCompact(_ text: ArraySlice<UInt8>, to out: inout [UInt8]) {
        forEachCompactByte(of: text) { b, _ in out.append(b) }
    }

    /// How many bytes `appendCompact` would write, without writing them (a payload's minified size costs no copy).
    public static func compactCount(_ text: ArraySlice<UInt8>) -> Int {
        var count = 0
        forEachCompactByte(of: text) { _, _ in count += 1 }
        return count
    }

    /// Calls `body` with each byte of valid JSON `text` but the whitespace outside strings, and whether the byte
    /// is part of a string (its quotes included): what lays JSON out (`history show`) decides on the others.
    /// Inlined, over the buffer: measuring a 60 MiB payload then costs a few instructions a byte.
    @inline(__always)
    public static func forEachCompactByte(of text: ArraySlice<UInt8>, _ body: (_ byte: UInt8, _ inString: Bool) -> Void)
    {
        var inString = false
        var escaped = false
        text.withUnsafeBufferPointer { buffer in
            for b in buffer {
                if inString {
                    body(b, true)
                    if escaped {
                        escaped = false
                    } else if b == UInt8(ascii: "\\") {
                        escaped = true
                    } else if b == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch b {
                case 0x20, 0x09, 0x0A, 0x0D: continue
                case UInt8(ascii: "\""):
                    inString = true
                    body(b, true)
                default: body(b, false)
                }
            }
        }
    }
}
