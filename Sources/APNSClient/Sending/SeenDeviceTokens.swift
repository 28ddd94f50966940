import APNSCore

/// The device tokens a batch has reached, so that each is sent once (CLI.md: about 32 bytes a token, a million
/// from a pipe under 100 MiB). A token is kept as a 96-bit fingerprint and the place it was first seen, in an
/// open-addressing table that grows at seven eighths full (16 bytes a slot: 18 to 37 bytes a token), never as
/// its text. The fingerprint is two SipHash values under this process's random seed, so no list can be built
/// to make two tokens collide; by chance, two of a million distinct tokens share one with odds below 10⁻¹⁷.
struct SeenDeviceTokens {
    private struct Slot {
        var high: UInt64
        var low: UInt32
        /// Where the token was first seen (1-based); 0 marks an empty slot.
        var place: UInt32
    }

    private static let empty = Slot(high: 0, low: 0, place: 0)
    private var slots: [Slot]
    private var mask: Int
    private(set) var count = 0

    init() {
        slots = Array(repeating: Self.empty, count: 1024)
        mask = 1023
    }

    /// Records `token` as seen at `place` (at least 1); when it was seen before, returns where it was first seen and
    /// records nothing.
    mutating func insert(_ token: DeviceToken, at place: UInt32) -> UInt32? {
        let (high, low) = Self.fingerprint(token)
        var i = Int(truncatingIfNeeded: high) & mask
        while slots[i].place != 0 {
            if slots[i].high == high && slots[i].low == low { return slots[i].place }
            i = (i + 1) & mask
        }
        slots[i] = Slot(high: high, low: low, place: max(1, place))
        count += 1
        if count * 8 > slots.count * 7 { grow() }
        return nil
    }

    /// Forgets every token (a file checked whole is read again to be sent).
    mutating func removeAll() {
        slots = Array(repeating: Self.empty, count: 1024)
        mask = 1023
        count = 0
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Self.empty, count: old.count * 2)
        mask = slots.count - 1
        for slot in old where slot.place != 0 {
            var i = Int(truncatingIfNeeded: slot.high) & mask
            while slots[i].place != 0 { i = (i + 1) & mask }
            slots[i] = slot
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
