/// Results packed into one blob, the form the history keeps them in: a batch of 20,000 devices is a few dozen
/// rows of about 64 KB instead of 20,000 rows, so recording it costs a small part of the send. Tokens and UUIDs
/// are kept as their bytes (with their case), everything else as written; `ResultChunkDecoder` reads it back.
///
/// Layout: a version byte, then per result a varint of which fields are present (`ResultField`), the target, the
/// duration (a Double's 8 bytes) and each present field in `ResultField` order.
struct ResultChunkEncoder {
    static let version: UInt8 = 1

    private(set) var bytes: [UInt8]
    private(set) var count = 0

    init() {
        bytes = [Self.version]
        bytes.reserveCapacity(ResultPacking.chunkBytes + 4096)
    }

    /// Whether nothing was added since the start or the last `reset`.
    var isEmpty: Bool { count == 0 }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(Self.version)
        count = 0
    }

    mutating func append(_ r: HistoryResult) {
        var present: ResultField = []
        if r.deviceName != nil { present.insert(.deviceName) }
        if r.status != nil { present.insert(.status) }
        if r.reason != nil { present.insert(.reason) }
        if r.apnsID != nil { present.insert(.apnsID) }
        if r.apnsUniqueID != nil { present.insert(.apnsUniqueID) }
        if r.apnsRequestID != nil { present.insert(.apnsRequestID) }
        if r.timestamp != nil { present.insert(.timestamp) }
        if r.environment != nil { present.insert(.environment) }
        if r.endpoint != nil { present.insert(.endpoint) }
        if r.badDeviceTokenIn != nil { present.insert(.badDeviceTokenIn) }
        if !r.body.isEmpty { present.insert(.body) }
        if r.error != nil { present.insert(.error) }
        if r.unknownOutcome { present.insert(.unknownOutcome) }
        if r.attempts != 1 { present.insert(.attempts) }
        appendVarint(UInt64(present.rawValue))
        appendText(r.target)
        var duration = r.durationMs.bitPattern.littleEndian
        withUnsafeBytes(of: &duration) { bytes.append(contentsOf: $0) }
        if let v = r.deviceName { appendText(v) }
        if let v = r.status { appendVarint(Self.zigzag(Int64(v))) }
        if let v = r.reason { appendText(v) }
        if let v = r.apnsID { appendText(v) }
        if let v = r.apnsUniqueID { appendText(v) }
        if let v = r.apnsRequestID { appendText(v) }
        if let v = r.timestamp { appendVarint(Self.zigzag(v)) }
        if let v = r.environment { appendText(v) }
        if let v = r.endpoint { appendText(v) }
        if let v = r.badDeviceTokenIn { appendText(v) }
        if !r.body.isEmpty {
            appendVarint(UInt64(r.body.count))
            bytes.append(contentsOf: r.body)
        }
        if let v = r.error { appendText(v) }
        if r.attempts != 1 { appendVarint(UInt64(max(0, r.attempts))) }
        count += 1
    }

    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }

    private mutating func appendVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A text as the smallest of its forms (`TextForm`): a canonical UUID or lowercase hex as its bytes, else as is.
    private mutating func appendText(_ text: String) {
        var text = text
        // Native strings are contiguous: their bytes are read in place, a batch's worth of texts at no copy.
        text.withUTF8 { appendText(utf8: $0) }
    }

    /// Each text is read once: its digits are packed into a buffer on the stack while its form is checked, and
    /// the buffer is appended in one copy (byte by byte, packing was most of what recording a batch cost).
    private mutating func appendText(utf8: UnsafeBufferPointer<UInt8>) {
        if utf8.count <= Self.packedLimit * 2 {
            let packed = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.packedLimit) { buffer in
                guard let (form, count) = Self.pack(utf8, into: buffer) else { return false }
                bytes.append(form.rawValue)
                if form == .lowercaseHex { appendVarint(UInt64(count)) }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
                return true
            }
            if packed { return }
        }
        bytes.append(TextForm.raw.rawValue)
        appendVarint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Hex texts longer than twice this are kept raw (tokens are 32 bytes, some 100; UUIDs 16).
    private static let packedLimit = 256

    /// `utf8` packed two digits to a byte into `out` with its form and byte count, when it is a canonical
    /// 8-4-4-4-12 UUID in one case or non-empty lowercase hex of an even length; nil for any other text.
    private static func pack(_ utf8: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>)
        -> (TextForm, Int)?
    {
        let isUUID = utf8.count == 36
        guard isUUID || (!utf8.isEmpty && utf8.count % 2 == 0) else { return nil }
        if isUUID && !(utf8[8] == dash && utf8[13] == dash && utf8[18] == dash && utf8[23] == dash) {
            // Dashes elsewhere than a UUID's are no hex either; without any, 36 digits are hex.
            if utf8[8] == dash || utf8[13] == dash || utf8[18] == dash || utf8[23] == dash { return nil }
            return packDigits(utf8, into: out, isUUID: false)
        }
        return packDigits(utf8, into: out, isUUID: isUUID)
    }

    private static let dash = UInt8(ascii: "-")

    /// Packs hex digits (skipping a UUID's dashes, checked before) and names the form their kinds make.
    private static func packDigits(
        _ utf8: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, isUUID: Bool
    ) -> (TextForm, Int)? {
        digitTable.withUnsafeBufferPointer { table in
            var o = 0
            var seen: UInt8
            if isUUID {
                seen = packRun(utf8, 0..<8, table, out, &o) | packRun(utf8, 9..<13, table, out, &o)
                seen |= packRun(utf8, 14..<18, table, out, &o) | packRun(utf8, 19..<23, table, out, &o)
                seen |= packRun(utf8, 24..<36, table, out, &o)
            } else {
                seen = packRun(utf8, 0..<utf8.count, table, out, &o)
            }
            let kinds = seen & 0xf0
            if !isUUID { return kinds & ~(DigitKind.lower | DigitKind.decimal) == 0 ? (.lowercaseHex, o) : nil }
            if kinds & (DigitKind.other | DigitKind.lower | DigitKind.upper) == DigitKind.upper {
                return (.uppercaseUUID, o)
            }
            return kinds & (DigitKind.other | DigitKind.upper) == 0 ? (.lowercaseUUID, o) : nil
        }
    }

    /// Packs the digits in `range` (of an even count) into `out` from `o`; returns the kinds they held.
    @inline(__always)
    private static func packRun(
        _ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ table: UnsafeBufferPointer<UInt8>,
        _ out: UnsafeMutableBufferPointer<UInt8>, _ o: inout Int
    ) -> UInt8 {
        var seen: UInt8 = 0
        var i = range.lowerBound
        while i < range.upperBound {
            let high = table[Int(utf8[i])]
            let low = table[Int(utf8[i + 1])]
            seen |= high | low
            out[o] = high << 4 | low & 0x0f
            o += 1
            i += 2
        }
        return seen
    }

    /// Which kinds of character a text held, as the high bits of `digitTable`'s entries.
    private enum DigitKind {
        static let decimal: UInt8 = 0x10
        static let lower: UInt8 = 0x20
        static let upper: UInt8 = 0x40
        static let other: UInt8 = 0x80
    }

    /// For each byte, its kind (`DigitKind`) in the high four bits and, for a hex digit, its value in the low
    /// four: one load a character.
    private static let digitTable: [UInt8] = (0...255).map { (c: Int) -> UInt8 in
        switch UInt8(c) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return DigitKind.decimal | (UInt8(c) - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return DigitKind.lower | (UInt8(c) - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return DigitKind.upper | (UInt8(c) - UInt8(ascii: "A") + 10)
        default: return DigitKind.other
        }
    }
}

/// Which of a result's optional fields a packed result holds, in the order they follow its target and duration.
struct ResultField: OptionSet {
    let rawValue: UInt16

    static let deviceName = ResultField(rawValue: 1 << 0)
    static let status = ResultField(rawValue: 1 << 1)
    static let reason = ResultField(rawValue: 1 << 2)
    static let apnsID = ResultField(rawValue: 1 << 3)
    static let apnsUniqueID = ResultField(rawValue: 1 << 4)
    static let apnsRequestID = ResultField(rawValue: 1 << 5)
    static let timestamp = ResultField(rawValue: 1 << 6)
    static let environment = ResultField(rawValue: 1 << 7)
    static let endpoint = ResultField(rawValue: 1 << 8)
    static let badDeviceTokenIn = ResultField(rawValue: 1 << 9)
    static let body = ResultField(rawValue: 1 << 10)
    static let error = ResultField(rawValue: 1 << 11)
    static let unknownOutcome = ResultField(rawValue: 1 << 12)
    /// Absent in results packed before it was kept: those read as sent once.
    static let attempts = ResultField(rawValue: 1 << 13)
    /// Every field this build knows: a result with another is one it cannot read past.
    static let known = ResultField(rawValue: (1 << 14) - 1)
}

/// How a packed text is kept: its first byte.
enum TextForm: UInt8 {
    /// A varint length, then the UTF-8 bytes.
    case raw = 0
    /// A varint byte count, then the bytes of a lowercase hex text (a device token).
    case lowercaseHex = 1
    /// The 16 bytes of a canonical UUID written in uppercase (an `apns-id`).
    case uppercaseUUID = 2
    /// The same, written in lowercase (an `apns-unique-id`).
    case lowercaseUUID = 3
}
