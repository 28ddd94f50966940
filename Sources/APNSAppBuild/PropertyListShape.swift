/// How deeply a property list nests, checked before libplist parses it: libplist's parsers recurse once per
/// level and run off the stack a few ten thousand levels down. Real lists (Info.plist, entitlements,
/// provisioning profiles) nest fewer than ten levels; `maximumDepth` leaves room without risk.
///
/// A binary list may also refer to one object from many places, and libplist copies the object at each: forty
/// levels of arrays holding the level below twice are a 300-byte file that expands to a trillion items. So the
/// items a binary list expands to are counted too, against `maximumItems` (a real profile with every device
/// of a team has a few thousand).
enum PropertyListShape {
    static let maximumDepth = 64
    static let maximumItems = 100_000

    /// Why `bytes` (XML or binary) nests too deeply or is malformed in a way found on the way; nil when fine.
    static func problem(_ bytes: [UInt8]) -> String? {
        bytes.starts(with: Array("bplist".utf8)) ? binaryProblem(bytes) : xmlProblem(bytes)
    }

    /// Counts `<array>` and `<dict>` openings against their closings (self-closing `<array/>` adds nothing), as an
    /// XML reader sees tags: a name ends at a blank of any kind (`<array\n>` is an opening), and comments, CDATA,
    /// processing instructions and declarations are skipped whole (a comment full of `</array>` closes nothing). A
    /// closing with nothing open is left to the reader to refuse; it never lowers the count below zero.
    static func xmlProblem(_ bytes: [UInt8]) -> String? {
        var depth = 0
        var i = 0
        let lt = UInt8(ascii: "<")
        let slash = UInt8(ascii: "/")
        let gt = UInt8(ascii: ">")
        while i < bytes.count {
            guard bytes[i] == lt else {
                i += 1
                continue
            }
            if let end = skippedMarkup(bytes, at: i) {
                i = end
                continue
            }
            var j = i + 1
            let closing = j < bytes.count && bytes[j] == slash
            if closing { j += 1 }
            let isContainer = matches(bytes, at: j, "array") || matches(bytes, at: j, "dict")
            var k = j
            while k < bytes.count && bytes[k] != gt { k += 1 }
            if isContainer {
                let selfClosing = k > j && bytes[k - 1] == slash
                if closing {
                    depth = max(0, depth - 1)
                } else if !selfClosing {
                    depth += 1
                    if depth > maximumDepth { return "a property list nested more than \(maximumDepth) levels deep" }
                }
            }
            i = k + 1
        }
        return nil
    }

    /// The index after a comment (`<!--…-->`), CDATA section (`<![CDATA[…]]>`), processing instruction (`<?…?>`) or
    /// declaration (`<!DOCTYPE…>`) starting at `i`; nil for a tag. One left open runs to the end.
    private static func skippedMarkup(_ bytes: [UInt8], at i: Int) -> Int? {
        let (terminator, opening): ([UInt8], Int)
        if starts(bytes, at: i, "<!--") {
            (terminator, opening) = (Array("-->".utf8), 4)
        } else if starts(bytes, at: i, "<![CDATA[") {
            (terminator, opening) = (Array("]]>".utf8), 9)
        } else if starts(bytes, at: i, "<?") {
            (terminator, opening) = (Array("?>".utf8), 2)
        } else if starts(bytes, at: i, "<!") {
            (terminator, opening) = (Array(">".utf8), 2)
        } else {
            return nil
        }
        var k = i + opening
        while k + terminator.count <= bytes.count {
            if bytes[k] == terminator[0], Array(bytes[k..<(k + terminator.count)]) == terminator {
                return k + terminator.count
            }
            k += 1
        }
        return bytes.count
    }

    private static func starts(_ bytes: [UInt8], at i: Int, _ text: String) -> Bool {
        let t = Array(text.utf8)
        return i + t.count <= bytes.count && Array(bytes[i..<(i + t.count)]) == t
    }

    /// Whether `word` is the tag name at `i`: followed by `>`, `/` or a blank (space, tab, line break).
    private static func matches(_ bytes: [UInt8], at i: Int, _ word: String) -> Bool {
        guard starts(bytes, at: i, word) else { return false }
        let n = i + word.utf8.count
        let next = n < bytes.count ? bytes[n] : UInt8(ascii: ">")
        return [UInt8(ascii: ">"), UInt8(ascii: "/"), 0x20, 0x09, 0x0A, 0x0D].contains(next)
    }

    /// Walks a binary list's object graph from its top object without recursion, each object at most once per
    /// depth, and refuses what nests more than `maximumDepth` levels, points outside the file or expands to more
    /// than `maximumItems` items.
    static func binaryProblem(_ bytes: [UInt8]) -> String? {
        let malformed = "a malformed binary property list"
        guard bytes.count >= 8 + 32 else { return malformed }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let refSize = Int(bytes[trailer + 7])
        let objectCount = readUInt(bytes, trailer + 8, 8)
        let top = readUInt(bytes, trailer + 16, 8)
        let tableOffset = readUInt(bytes, trailer + 24, 8)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize), objectCount > 0, top < objectCount,
            tableOffset < UInt64(trailer), objectCount <= UInt64(trailer) / UInt64(offsetSize),
            tableOffset + objectCount * UInt64(offsetSize) <= UInt64(trailer)
        else { return malformed }
        let count = Int(objectCount)
        func offset(of object: Int) -> Int? {
            let o = readUInt(bytes, Int(tableOffset) + object * offsetSize, offsetSize)
            return o >= 8 && o < UInt64(tableOffset) ? Int(o) : nil
        }
        var deepestSeen = [Int](repeating: -1, count: count)
        var children = [[Int]](repeating: [], count: count)
        var pending: [(object: Int, depth: Int)] = [(Int(top), 0)]
        while let (object, depth) = pending.popLast() {
            guard depth <= maximumDepth else {
                return "a property list nested more than \(maximumDepth) levels deep"
            }
            guard deepestSeen[object] < depth else { continue }
            let firstVisit = deepestSeen[object] < 0
            deepestSeen[object] = depth
            guard let at = offset(of: object) else { return malformed }
            let marker = bytes[at]
            let kind = marker >> 4
            // Arrays (0xA), sets (0xC) and dictionaries (0xD) hold references; nothing else does.
            guard kind == 0xA || kind == 0xC || kind == 0xD else { continue }
            var entries = Int(marker & 0x0F)
            var refs = at + 1
            if entries == 0x0F {
                guard refs < Int(tableOffset), bytes[refs] >> 4 == 0x1 else { return malformed }
                let width = 1 << Int(bytes[refs] & 0x0F)
                guard width <= 8, refs + 1 + width <= Int(tableOffset) else { return malformed }
                let n = readUInt(bytes, refs + 1, width)
                guard n <= UInt64(bytes.count) else { return malformed }
                entries = Int(n)
                refs += 1 + width
            }
            let total = kind == 0xD ? entries * 2 : entries
            guard refs + total * refSize <= Int(tableOffset) else { return malformed }
            for r in 0..<total {
                let child = readUInt(bytes, refs + r * refSize, refSize)
                guard child < objectCount else { return malformed }
                pending.append((Int(child), depth + 1))
                if firstVisit { children[object].append(Int(child)) }
            }
        }
        // No loop is left (one would have gone past `maximumDepth`), so the counting below ends, its recursion no
        // deeper than the list.
        var expanded = [Int](repeating: -1, count: count)
        func items(_ object: Int) -> Int {
            if expanded[object] >= 0 { return expanded[object] }
            var total = 1
            for child in children[object] where total <= maximumItems { total += items(child) }
            expanded[object] = min(total, maximumItems + 1)
            return expanded[object]
        }
        guard items(Int(top)) <= maximumItems else {
            return "a property list whose shared entries expand to more than \(maximumItems) items"
        }
        return nil
    }

    /// A big-endian unsigned integer of `width` bytes at `at` (callers check the range).
    private static func readUInt(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<width { value = value << 8 | UInt64(bytes[at + i]) }
        return value
    }
}
