/// The entitlements signed into a Mach-O executable (thin, or fat holding several architectures), read from
/// its load commands and its code signature only. Every offset and length the file gives is checked against
/// what holds it before it is used, and each load command moves forward, so a truncated or looping file is a
/// problem, never a crash or a hang. Offsets are read in increasing order, which lets a zip entry be read
/// as a stream.
enum MachOEntitlements {
    /// Where bytes come from: up to `count` bytes at `offset` (fewer at the end), offsets never decreasing.
    typealias Reader = (_ offset: UInt64, _ count: Int) throws(AppBuildProblem) -> [UInt8]

    /// The XML entitlements, or nil when the executable carries no signature or no entitlements blob.
    /// `name` names the executable in problems; `size` is its length.
    static func xml(size: UInt64, name: String, read: Reader) throws(AppBuildProblem) -> [UInt8]? {
        func corrupt(_ reason: String) -> AppBuildProblem { .corrupt(path: name, reason: reason) }
        let head = try read(0, 8)
        guard head.count == 8 else { throw corrupt("too short for an executable") }
        switch Array(head[0..<4]) {
        case [0xCA, 0xFE, 0xBA, 0xBE], [0xCA, 0xFE, 0xBA, 0xBF]:
            let wide = head[3] == 0xBF
            let count = Int(bigEndian(head, 4))
            // Apple's fat files hold a handful of architectures; a Java class file shares the magic with a
            // version number above 40.
            guard count >= 1, count <= 16 else { throw corrupt("a fat header with \(count) architectures") }
            let entrySize = wide ? 32 : 20
            let table = try read(8, count * entrySize)
            guard table.count == count * entrySize else { throw corrupt("a truncated fat header") }
            var slices: [(cpu: UInt32, offset: UInt64, size: UInt64)] = []
            for i in 0..<count {
                let at = i * entrySize
                let offset = wide ? bigEndian64(table, at + 8) : UInt64(bigEndian(table, at + 8))
                let length = wide ? bigEndian64(table, at + 16) : UInt64(bigEndian(table, at + 12))
                guard offset >= UInt64(8 + count * entrySize), offset <= size, length <= size - offset else {
                    throw corrupt("architecture \(i + 1) lies outside the file")
                }
                slices.append((bigEndian(table, at), offset, length))
            }
            // iOS devices run arm64; its slice's signature is the one that counts.
            let arm64: UInt32 = 0x0100_000C
            guard let slice = slices.first(where: { $0.cpu == arm64 }) ?? slices.first else { return nil }
            return try thin(
                base: slice.offset, size: slice.size, name: name, head: try read(slice.offset, 28), read: read)
        default:
            return try thin(base: 0, size: size, name: name, head: head + (try read(8, 20)), read: read)
        }
    }

    /// One architecture's Mach-O at `base`, `size` bytes long, whose first 28 bytes (the 64-bit header's last 4
    /// are reserved, and a stream may not go back for them) are `header`.
    private static func thin(base: UInt64, size: UInt64, name: String, head header: [UInt8], read: Reader)
        throws(AppBuildProblem) -> [UInt8]?
    {
        func corrupt(_ reason: String) -> AppBuildProblem { .corrupt(path: name, reason: reason) }
        guard header.count == 28 else { throw corrupt("too short for a Mach-O header") }
        let headerSize: UInt64
        switch littleEndian(header, 0) {
        case 0xFEED_FACF: headerSize = 32
        case 0xFEED_FACE: headerSize = 28
        default: throw corrupt("not a Mach-O executable (no Mach-O or fat magic number)")
        }
        let commandCount = UInt64(littleEndian(header, 16))
        let commandsSize = UInt64(littleEndian(header, 20))
        guard commandsSize <= size - min(size, headerSize), commandsSize <= 16 << 20 else {
            throw corrupt("load commands run past the end of the file")
        }
        let commands = try read(base + headerSize, Int(commandsSize))
        guard commands.count == Int(commandsSize) else { throw corrupt("truncated load commands") }
        var at = 0
        var signature: (offset: UInt64, size: UInt64)? = nil
        for _ in 0..<commandCount {
            guard at + 8 <= commands.count else { throw corrupt("more load commands than their size holds") }
            let command = littleEndian(commands, at)
            let commandSize = Int(littleEndian(commands, at + 4))
            // Each command moves forward by at least its own header: a zero size would loop for ever.
            guard commandSize >= 8, commandSize <= commands.count - at else {
                throw corrupt("a load command of \(commandSize) bytes at offset \(at)")
            }
            let codeSignature: UInt32 = 0x1D
            if command == codeSignature {
                guard commandSize >= 16 else { throw corrupt("a short LC_CODE_SIGNATURE command") }
                signature = (UInt64(littleEndian(commands, at + 8)), UInt64(littleEndian(commands, at + 12)))
            }
            at += commandSize
        }
        guard let signature else { return nil }
        let commandsEnd = headerSize + commandsSize
        guard signature.offset >= commandsEnd, signature.offset <= size, signature.size <= size - signature.offset
        else { throw corrupt("the code signature lies outside the executable") }
        return try entitlementsBlob(
            at: base + signature.offset, length: signature.size, name: name, read: read)
    }

    /// The XML entitlements blob (magic 0xfade7171) listed in the code signature's SuperBlob at `start`.
    private static func entitlementsBlob(at start: UInt64, length: UInt64, name: String, read: Reader)
        throws(AppBuildProblem) -> [UInt8]?
    {
        func corrupt(_ reason: String) -> AppBuildProblem { .corrupt(path: name, reason: reason) }
        let header = try read(start, 12)
        guard header.count == 12, bigEndian(header, 0) == 0xFADE_0CC0 else {
            throw corrupt("the code signature is not a SuperBlob")
        }
        let declared = min(UInt64(bigEndian(header, 4)), length)
        let count = UInt64(bigEndian(header, 8))
        guard declared >= 12, count <= (declared - 12) / 8 else { throw corrupt("a SuperBlob index past its end") }
        let index = try read(start + 12, Int(count) * 8)
        guard index.count == Int(count) * 8 else { throw corrupt("a truncated SuperBlob index") }
        let entitlementsMagic: UInt32 = 0xFADE_7171
        // The index is read whole first; the one blob wanted comes after it in the stream.
        var candidates: [UInt64] = []
        for i in 0..<Int(count) {
            let offset = UInt64(bigEndian(index, i * 8 + 4))
            guard offset >= 12 + count * 8, offset <= declared - min(declared, 8) else {
                throw corrupt("a code signature blob outside its SuperBlob")
            }
            candidates.append(offset)
        }
        for offset in candidates.sorted() {
            let blobHeader = try read(start + offset, 8)
            guard blobHeader.count == 8 else { throw corrupt("a truncated code signature blob") }
            guard bigEndian(blobHeader, 0) == entitlementsMagic else { continue }
            let blobLength = UInt64(bigEndian(blobHeader, 4))
            guard blobLength >= 8, blobLength <= declared - offset, blobLength <= 1 << 20 else {
                throw corrupt("an entitlements blob of \(blobLength) bytes")
            }
            let body = try read(start + offset + 8, Int(blobLength - 8))
            guard body.count == Int(blobLength - 8) else { throw corrupt("a truncated entitlements blob") }
            return body
        }
        return nil
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    private static func bigEndian64(_ b: [UInt8], _ at: Int) -> UInt64 {
        UInt64(bigEndian(b, at)) << 32 | UInt64(bigEndian(b, at + 4))
    }

    private static func littleEndian(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at + 3]) << 24 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 1]) << 8 | UInt32(b[at])
    }
}
