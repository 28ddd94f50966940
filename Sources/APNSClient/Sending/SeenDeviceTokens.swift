import APNSCore

/// The device tokens a batch has reached, so that each is sent once (CLI.md: about 32 bytes a token, a million
/// from a pipe under 100 MiB). A token is kept as a 96-bit fingerprint and the place it was first seen (16 bytes),
/// never as its text, in 64 open-addressing tables chosen by the fingerprint's top bits, each growing on its own at
/// seven eighths full: 18 to 37 bytes a token, and a growth never holds more than one small table twice.
/// The fingerprint is two SipHash values under this process's random seed, so no list can be built to make two
/// tokens collide; by chance, two of a million distinct tokens share one with odds below 10⁻¹⁷.
struct SeenDeviceTokens {
    private struct Slot {
        var high: UInt64
        var low: UInt32
        /// Where the token was first seen (1-based); 0 marks an empty slot.
        var place: UInt32
    }

    private struct Table {
        var slots = [Slot](repeating: SeenDeviceTokens.empty, count: 16)
        var count = 0
    }

    private static let empty = Slot(high: 0, low: 0, place: 0)
    private static let shardBits = 6
    private var tables = [Table](repeating: Table(), count: 1 << shardBits)
    /// Distinct tokens seen.
    private(set) var count = 0

    init() {}

    /// Records `token` as seen at `place` (at least 1); when it was seen before, returns where it was first seen and
    /// records nothing.
    mutating func insert(_ token: DeviceToken, at place: UInt32) -> UInt32? {
        let (high, low) = Self.fingerprint(token)
        let shard = Int(truncatingIfNeeded: high >> UInt64(64 - Self.shardBits))
        if let earlier = Self.insert(Slot(high: high, low: low, place: max(1, place)), into: &tables[shard]) {
            return earlier
        }
        count += 1
        return nil
    }

    /// Forgets every token (a file checked whole is read again to be sent).
    mutating func removeAll() {
        tables = [Table](repeating: Table(), count: 1 << Self.shardBits)
        count = 0
    }

    private static func insert(_ slot: Slot, into table: inout Table) -> UInt32? {
        let mask = table.slots.count - 1
        var i = Int(truncatingIfNeeded: slot.high) & mask
        while table.slots[i].place != 0 {
            if table.slots[i].high == slot.high && table.slots[i].low == slot.low { return table.slots[i].place }
            i = (i + 1) & mask
        }
        table.slots[i] = slot
        table.count += 1
        if table.count * 8 > table.slots.count * 7 { grow(&table) }
        return nil
    }

    private static func grow(_ table: inout Table) {
        let old = table.slots
        table.slots = [Slot](repeating: empty, count: old.count * 2)
        let mask = table.slots.count - 1
        for slot in old where slot.place != 0 {
            var i = Int(truncatingIfNeeded: slot.high) & mask
            while table.slots[i].place != 0 { i = (i + 1) & mask }
            table.slots[i] = slot
        }
    }

    private static func fingerprint(_ token: DeviceToken) -> (UInt64, UInt32) {
        var first = Hasher()
        var second = Hasher()
        first.combine(UInt8(1))
        second.combine(UInt8(2))
        var hex = token.hex
        hex.withUTF8 {
            first.combine(bytes: UnsafeRawBufferPointer($0))
            second.combine(bytes: UnsafeRawBufferPointer($0))
        }
        return (UInt64(bitPattern: Int64(first.finalize())), UInt32(truncatingIfNeeded: second.finalize()))
    }
}
