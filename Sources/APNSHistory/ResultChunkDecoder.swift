import CSQLite

/// Reads back what `ResultChunkEncoder` packed. Every length and form is checked against the blob: a damaged
/// one is SQLite's "corrupt" (so `history` says how to move the file aside), never a crash.
struct ResultChunkDecoder {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) throws(SQLiteError) {
        self.bytes = bytes
        guard bytes.first == ResultChunkEncoder.version else { throw Self.damaged }
        index = 1
    }

    /// The next result, or nil at the blob's end.
    mutating func next() throws(SQLiteError) -> HistoryResult? {
        guard index < bytes.count else { return nil }
        let flags = try varint()
        guard flags <= UInt64(UInt16.max) else { throw Self.damaged }
        let present = ResultField(rawValue: UInt16(flags))
        guard ResultField.known.isSuperset(of: present) else { throw Self.damaged }
        let target = try text()
        let duration = Double(bitPattern: UInt64(littleEndian: try fixed64()))
        guard HistoryEntry.isPlausible(durationMs: duration) else { throw Self.damaged }
        var r = HistoryResult(target: target, durationMs: duration)
        if present.contains(.deviceName) { r.deviceName = try text() }
        if present.contains(.status) { r.status = Int(truncatingIfNeeded: Self.unzigzag(try varint())) }
        if present.contains(.reason) { r.reason = try text() }
        if present.contains(.apnsID) { r.apnsID = try text() }
        if present.contains(.apnsUniqueID) { r.apnsUniqueID = try text() }
        if present.contains(.apnsRequestID) { r.apnsRequestID = try text() }
        if present.contains(.timestamp) { r.timestamp = Self.unzigzag(try varint()) }
        if present.contains(.environment) { r.environment = try text() }
        if present.contains(.endpoint) { r.endpoint = try text() }
        if present.contains(.badDeviceTokenIn) { r.badDeviceTokenIn = try text() }
        if present.contains(.body) { r.body = Array(try take(try length())) }
        if present.contains(.error) { r.error = try text() }
        r.unknownOutcome = present.contains(.unknownOutcome)
        if present.contains(.attempts) {
            let attempts = try varint()
            guard attempts <= UInt64(Int32.max) else { throw Self.damaged }
            r.attempts = Int(attempts)
        }
        return r
    }

    private static var damaged: SQLiteError { .damaged("a stored result") }

    static func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }

    private mutating func byte() throws(SQLiteError) -> UInt8 {
        guard index < bytes.count else { throw Self.damaged }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func take(_ count: Int) throws(SQLiteError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - index else { throw Self.damaged }
        defer { index += count }
        return bytes[index..<index + count]
    }

    private mutating func varint() throws(SQLiteError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw Self.damaged }
            value |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
    }

    private mutating func length() throws(SQLiteError) -> Int {
        let v = try varint()
        guard v <= UInt64(bytes.count) else { throw Self.damaged }
        return Int(v)
    }

    private mutating func fixed64() throws(SQLiteError) -> UInt64 {
        var v: UInt64 = 0
        for (i, b) in try take(8).enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
        return v
    }

    private mutating func text() throws(SQLiteError) -> String {
        guard let form = TextForm(rawValue: try byte()) else { throw Self.damaged }
        switch form {
        case .raw:
            return String(decoding: try take(try length()), as: UTF8.self)
        case .lowercaseHex:
            return Self.hex(try take(try length()), uppercase: false, dashes: false)
        case .uppercaseUUID, .lowercaseUUID:
            return Self.hex(try take(16), uppercase: form == .uppercaseUUID, dashes: true)
        }
    }

    /// Bytes as hex digits, with a UUID's dashes after bytes 4, 6, 8 and 10.
    private static func hex(_ bytes: ArraySlice<UInt8>, uppercase: Bool, dashes: Bool) -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2 + 4)
        for (i, b) in bytes.enumerated() {
            if dashes && (i == 4 || i == 6 || i == 8 || i == 10) { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
