/// The keys of one object being read, for finding a repeated key in bounded memory: each key is held as the
/// offset of its first copy's opening quote (4 bytes, not a String and a dictionary entry each) in an
/// open-addressing table, and compared by its decoded bytes read back from the source. A payload of millions of
/// distinct keys costs under 9 bytes a key here (the table fills up to 15/16 before it doubles, in place).
struct JSONKeyOffsets {
    /// 0 for a free slot; else the key's offset + 1 in the low `offsetBits` and, above them, a few bits of its
    /// hash, so most slots of other keys are passed over without reading the source.
    private var slots: [UInt32] = []
    private var count = 0

    /// Where the first copy of `key` (whose quote is at `keyStart`) starts; nil when it is new, which records it.
    /// The parser's source must be shorter than 4 GiB (`JSONReader.parseCollapsingDuplicates` checks).
    mutating func firstStart(of key: String, at keyStart: Int, in parser: JSONParser) -> Int? {
        if slots.isEmpty { slots = [UInt32](repeating: 0, count: 8) }
        let layout = Layout(sourceCount: parser.bytes.count)
        var key = key
        let hash = key.withUTF8 { Self.hash(UnsafeRawBufferPointer($0)) }
        let tag = layout.tag(of: hash)
        var mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i] != 0 {
            let entry = slots[i]
            if entry >> layout.offsetBits == tag {
                let stored = Int(entry & layout.offsetMask) - 1
                if key.withUTF8({ parser.keyBytes(at: stored, equal: UnsafeRawBufferPointer($0)) }) { return stored }
            }
            i = (i + 1) & mask
        }
        if (count + 1) * 16 > slots.count * 15 {
            grow(layout, in: parser)
            mask = slots.count - 1
            i = Int(truncatingIfNeeded: hash) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
        }
        slots[i] = tag << layout.offsetBits | UInt32(keyStart + 1)
        count += 1
        return nil
    }

    /// Twice the slots, each key placed again by its hash (read back from the source). In place, so the old
    /// and the new table never both take memory: past `reservedFrom` slots, room for every doubling the rest of
    /// the source could need is reserved once (room never written costs nothing), and the keys are moved within
    /// the array (each marked pending, then placed, as hashbrown rehashes in place).
    private mutating func grow(_ layout: Layout, in parser: JSONParser) {
        let old = slots.count
        guard layout.offsetBits < 32 else { return growByCopy(layout, in: parser) }
        if old * 2 > slots.capacity, old * 2 >= Self.reservedFrom {
            // A member with a key not seen before takes at least 5 bytes (`"ab":0`, or `"a":0,`).
            let keysAtMost = count + (parser.bytes.count - parser.index) / 5
            var room = old * 2
            while keysAtMost * 16 > room * 15 { room *= 2 }
            slots.reserveCapacity(room)
        }
        slots.append(contentsOf: repeatElement(0, count: old))
        let mask = slots.count - 1
        for i in 0..<old where slots[i] != 0 { slots[i] |= Layout.pending }
        for i in 0..<old {
            // Placed keys are never moved again and are only ever probed past, so each stays reachable.
            while slots[i] & Layout.pending != 0 {
                let entry = slots[i] & ~Layout.pending
                let hash = parser.withKeyBytes(at: Int(entry & layout.offsetMask) - 1) { Self.hash($0) }
                var p = Int(truncatingIfNeeded: hash) & mask
                while slots[p] != 0 && slots[p] & Layout.pending == 0 { p = (p + 1) & mask }
                if p == i {
                    slots[i] = entry
                } else {
                    let displaced = slots[p]  // free, or a pending key: placed next
                    slots[p] = entry
                    slots[i] = displaced
                }
            }
        }
    }

    /// Tables from which growing reserves its future room rather than copying (1 MiB of slots).
    private static let reservedFrom = 1 << 18

    /// `grow` for a source too long for the pending mark: a new table, the keys placed again, the old one freed.
    private mutating func growByCopy(_ layout: Layout, in parser: JSONParser) {
        var bigger = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = bigger.count - 1
        for entry in slots where entry != 0 {
            let stored = Int(entry & layout.offsetMask) - 1
            let hash = parser.withKeyBytes(at: stored) { Self.hash($0) }
            var i = Int(truncatingIfNeeded: hash) & mask
            while bigger[i] != 0 { i = (i + 1) & mask }
            bigger[i] = entry
        }
        slots = bigger
    }

    /// A key's hash: Swift's seeded hasher, so no payload can be built to make every key collide.
    static func hash(_ utf8: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: utf8)
        return hasher.finalize()
    }

    /// How a slot splits into offset and hash bits: 27 bits of offset cover the 64 MiB a payload may have,
    /// leaving 4 for the hash and the top one to mark keys still to move while growing; a longer source uses
    /// all 32 for the offset.
    private struct Layout {
        static let pending: UInt32 = 1 << 31

        let offsetBits: UInt32
        let offsetMask: UInt32

        init(sourceCount: Int) {
            offsetBits = sourceCount < (1 << 27) - 1 ? 27 : 32
            offsetMask = offsetBits == 32 ? .max : (1 << offsetBits) - 1
        }

        func tag(of hash: Int) -> UInt32 {
            offsetBits == 32 ? 0 : UInt32(truncatingIfNeeded: UInt(bitPattern: hash) >> UInt(Int.bitWidth - 4))
        }
    }
}

extension JSONParser {
    /// Calls `body` with the decoded UTF-8 of the key whose opening quote is at `offset` (a key read before,
    /// so well-formed): its source bytes when it has no escape, else the key decoded again.
    func withKeyBytes<R>(at offset: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var end = offset + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[(offset + 1)..<end])) }
        }
        var again = JSONParser(bytes: bytes)
        again.index = offset
        var decoded = (try? again.parseString()) ?? ""
        return decoded.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// Whether the key whose opening quote is at `offset` decodes to exactly `utf8`.
    func keyBytes(at offset: Int, equal utf8: UnsafeRawBufferPointer) -> Bool {
        withKeyBytes(at: offset) { stored in
            stored.count == utf8.count && stored.elementsEqual(utf8)
        }
    }
}
