/// The keys of one object being read, for finding a repeated key in bounded memory: each key is held as the
/// offset of its first copy's opening quote (4 bytes, not a String and a dictionary entry each) in an
/// open-addressing table, and compared by its decoded bytes read back from the source. A payload of millions of
/// distinct keys costs under 9 bytes a key here (the table fills up to 15/16 before it doubles, in place).
struct JSONKeyOffsets {
    /// 0 for a free slot; else the key's offset + 1 in the low `offsetBits` and, above them, a few bits of its
    /// hash, so most slots of other keys are passed over without reading the source.
    private var slots: [UInt32] = []
    private var count = 0

    /// Where the first copy of the key whose quote is at `keyStart` starts; nil when it is new, which records it.
    /// Keys are hashed and compared whole in the source, however long (the reader keeps only the start of a
    /// long one). The parser's source must be shorter than 4 GiB (`JSONReader.parseCollapsingDuplicates` checks).
    mutating func firstStart(ofKeyAt keyStart: Int, in parser: JSONParser) -> Int? {
        if slots.isEmpty { slots = [UInt32](repeating: 0, count: 8) }
        let layout = Layout(sourceCount: parser.bytes.count)
        let hash = parser.keyHash(at: keyStart)
        let tag = layout.tag(of: hash)
        var mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i] != 0 {
            let entry = slots[i]
            if entry >> layout.offsetBits == tag {
                let stored = Int(entry & layout.offsetMask) - 1
                if parser.keysEqual(at: stored, keyStart) { return stored }
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
                let hash = parser.keyHash(at: Int(entry & layout.offsetMask) - 1)
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

    /// `grow` for a source too long to leave a hash bit (and so the pending mark): a new table, the keys placed
    /// again, the old one freed.
    private mutating func growByCopy(_ layout: Layout, in parser: JSONParser) {
        var bigger = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = bigger.count - 1
        for entry in slots where entry != 0 {
            let stored = Int(entry & layout.offsetMask) - 1
            let hash = parser.keyHash(at: stored)
            var i = Int(truncatingIfNeeded: hash) & mask
            while bigger[i] != 0 { i = (i + 1) & mask }
            bigger[i] = entry
        }
        slots = bigger
    }

    /// How a slot splits into offset and hash bits: the offset takes as many bits as the source's length needs
    /// (26 for a payload under 64 MiB, 13 for a 5 KB one), the top bit marks keys still to move while growing,
    /// and the bits between hold the top of the key's hash: 5 of them under 64 MiB, so a probe reads the source
    /// for one other key in 32. A source too long to leave a hash bit uses all 32 for the offset.
    private struct Layout {
        static let pending: UInt32 = 1 << 31

        let offsetBits: UInt32
        let offsetMask: UInt32
        private let tagBits: UInt32

        init(sourceCount: Int) {
            // Slots hold offset + 1, at most `sourceCount`.
            let needed = UInt32(max(1, Int.bitWidth - sourceCount.leadingZeroBitCount))
            (offsetBits, tagBits) = needed < 31 ? (needed, 31 - needed) : (32, 0)
            offsetMask = offsetBits == 32 ? .max : (1 << offsetBits) - 1
        }

        func tag(of hash: Int) -> UInt32 {
            tagBits == 0 ? 0 : UInt32(truncatingIfNeeded: UInt(bitPattern: hash) >> UInt(Int.bitWidth - Int(tagBits)))
        }
    }
}

extension JSONParser {
    /// Whether the key whose opening quote is at `offset` (a key read before, so well-formed) decodes to exactly
    /// `utf8`: its source bytes when it has no escape, else decoded as it is compared.
    func keyBytes(at offset: Int, equal utf8: UnsafeRawBufferPointer) -> Bool {
        if let end = plainKeyEnd(at: offset) {
            return end - offset - 1 == utf8.count && bytes[(offset + 1)..<end].elementsEqual(utf8)
        }
        var decoded = JSONKeyBytes(self, keyAt: offset)
        for b in utf8 where decoded.next() != b { return false }
        return decoded.next() == nil
    }

    /// The hash of the decoded key whose opening quote is at `offset`: Swift's seeded hasher (no payload can be
    /// built to make every key collide), fed in pieces of `hashPiece` decoded bytes, so a key with escapes and the
    /// same key without hash alike, and no key is decoded whole.
    func keyHash(at offset: Int) -> Int {
        var hasher = Hasher()
        if let end = plainKeyEnd(at: offset) {
            var start = offset + 1
            bytes.withUnsafeBytes { all in
                while start < end {
                    let stop = min(end, start + Self.hashPiece)
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all[start..<stop]))
                    start = stop
                }
            }
            return hasher.finalize()
        }
        var decoded = JSONKeyBytes(self, keyAt: offset)
        var piece: [UInt8] = []
        piece.reserveCapacity(Self.hashPiece)
        while let b = decoded.next() {
            piece.append(b)
            if piece.count == Self.hashPiece {
                piece.withUnsafeBytes { hasher.combine(bytes: $0) }
                piece.removeAll(keepingCapacity: true)
            }
        }
        if !piece.isEmpty { piece.withUnsafeBytes { hasher.combine(bytes: $0) } }
        return hasher.finalize()
    }

    /// How many decoded bytes `keyHash` hashes at a time.
    private static let hashPiece = 4096

    /// Whether the keys whose opening quotes are at `a` and `b` decode to the same bytes, compared in the source.
    func keysEqual(at a: Int, _ b: Int) -> Bool {
        if let endA = plainKeyEnd(at: a), let endB = plainKeyEnd(at: b) {
            return endA - a == endB - b && bytes[(a + 1)..<endA].elementsEqual(bytes[(b + 1)..<endB])
        }
        var (left, right) = (JSONKeyBytes(self, keyAt: a), JSONKeyBytes(self, keyAt: b))
        while true {
            let l = left.next()
            guard l == right.next() else { return false }
            if l == nil { return true }
        }
    }

    /// Where the closing quote of the key at `offset` is, when the key has no escape (its bytes are its text).
    private func plainKeyEnd(at offset: Int) -> Int? {
        bytes.withUnsafeBufferPointer { all -> Int? in
            // Through the base pointer: hashing and comparing keys reads each key again, millions in a payload.
            guard let base = all.baseAddress else { return nil }
            var end = offset + 1
            while end < all.count {
                let b = base[end]
                if b == UInt8(ascii: "\"") { return end }
                if b == UInt8(ascii: "\\") { return nil }
                end += 1
            }
            return nil
        }
    }
}

/// The decoded UTF-8 of a key already read (so well-formed), one byte at a time from the source: two keys with
/// escapes are compared without decoding either whole.
struct JSONKeyBytes: IteratorProtocol {
    private var parser: JSONParser
    /// The UTF-8 of the escape being handed out, and how much of it was.
    private var escape: [UInt8] = []
    private var handed = 0

    init(_ source: JSONParser, keyAt offset: Int) {
        parser = JSONParser(bytes: source.bytes)
        parser.index = offset + 1
    }

    mutating func next() -> UInt8? {
        if handed < escape.count {
            handed += 1
            return escape[handed - 1]
        }
        guard parser.index < parser.bytes.count else { return nil }
        let b = parser.bytes[parser.index]
        switch b {
        case UInt8(ascii: "\""):
            return nil
        case UInt8(ascii: "\\"):
            escape.removeAll(keepingCapacity: true)
            handed = 0
            do { try parser.parseEscape(into: &escape) } catch {
                parser.index = parser.bytes.count  // not reached for a key the reader accepted
                return nil
            }
            return next()
        default:
            parser.index += 1
            return b
        }
    }
}
