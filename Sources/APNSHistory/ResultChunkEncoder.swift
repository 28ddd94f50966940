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

    private mutating func appendText(utf8: UnsafeBufferPointer<UInt8>) {
        if utf8.count == 36, let form = Self.uuidForm(utf8) {
            bytes.append(form.rawValue)
            appendPairs(utf8)
            return
        }
        if !utf8.isEmpty, utf8.count % 2 == 0, utf8.allSatisfy({ Self.isLowerHex($0) }) {
            bytes.append(TextForm.lowercaseHex.rawValue)
            appendVarint(UInt64(utf8.count / 2))
            appendPairs(utf8)
            return
        }
        bytes.append(TextForm.raw.rawValue)
        appendVarint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Hex digits (checked before), two to a byte, skipping a UUID's dashes (each group has an even count).
    private mutating func appendPairs(_ digits: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i + 1 < digits.count {
            if digits[i] == UInt8(ascii: "-") {
                i += 1
                continue
            }
            bytes.append(Self.nibble(digits[i]) << 4 | Self.nibble(digits[i + 1]))
            i += 2
        }
    }

    /// The form of a 36-byte text that is a canonical 8-4-4-4-12 UUID in one case, nil otherwise.
    private static func uuidForm(_ utf8: UnsafeBufferPointer<UInt8>) -> TextForm? {
        var lower = false
        var upper = false
        for i in 0..<utf8.count {
            let c = utf8[i]
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != UInt8(ascii: "-") { return nil }
            } else if c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f") {
                lower = true
            } else if c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F") {
                upper = true
            } else if !(c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) {
                return nil
            }
        }
        if lower && upper { return nil }
        return lower ? .lowercaseUUID : .uppercaseUUID
    }

    private static func isLowerHex(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f"))
    }

    /// A hex digit's value (the digit was checked before).
    private static func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c &- UInt8(ascii: "A") &+ 10
        default: return c &- UInt8(ascii: "0")
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
