/// Small Mach-O executables whose code signature carries an entitlements blob, made byte by byte the way
/// `ld` and `codesign` lay out an iOS app's main executable: a 64-bit header, load commands ending with
/// `LC_CODE_SIGNATURE`, and at the end a SuperBlob (big-endian) indexing a code directory and the XML
/// entitlements. The code directory is a placeholder: nothing apnsctl reads looks inside it.
public enum MachOFixture {
    public static let arm64: UInt32 = 0x0100_000C
    public static let x86: UInt32 = 0x0100_0007

    /// A thin executable for `cpu` signed with `entitlements` (an XML property list), or unsigned when nil.
    public static func thin(cpu: UInt32 = arm64, entitlements: String?) -> [UInt8] {
        var commands: [UInt8] = []
        // LC_UUID, a command every executable has, so the signature is not the only one.
        commands += le(0x1B) + le(24) + [UInt8](repeating: 0xAB, count: 16)
        let headerSize = 32
        let signatureOffset = 4096
        let signature = entitlements.map(superBlob) ?? []
        if !signature.isEmpty {
            commands += le(0x1D) + le(16) + le(UInt32(signatureOffset)) + le(UInt32(signature.count))
        }
        let ncmds: UInt32 = signature.isEmpty ? 1 : 2
        var file = le(0xFEED_FACF) + le(cpu) + le(0) + le(2) + le(ncmds) + le(UInt32(commands.count)) + le(0) + le(0)
        file += commands
        file += [UInt8](repeating: 0, count: signatureOffset - headerSize - commands.count)
        file += signature
        return file
    }

    /// A fat (universal) file holding `slices` (cpu type and thin file), each at a 4096-byte boundary.
    public static func fat(_ slices: [(cpu: UInt32, file: [UInt8])]) -> [UInt8] {
        var header = be(0xCAFE_BABE) + be(UInt32(slices.count))
        var offset = 4096
        var body: [UInt8] = []
        for slice in slices {
            header += be(slice.cpu) + be(0) + be(UInt32(offset)) + be(UInt32(slice.file.count)) + be(12)
            let padded = slice.file + [UInt8](repeating: 0, count: (4096 - slice.file.count % 4096) % 4096)
            body += padded
            offset += padded.count
        }
        return header + [UInt8](repeating: 0, count: 4096 - header.count) + body
    }

    /// The code signature: a SuperBlob with a placeholder code directory and the entitlements blob.
    static func superBlob(_ entitlements: String) -> [UInt8] {
        let codeDirectory = be(0xFADE_0C02) + be(16) + be(0x0002_0400) + be(0)
        let xml = Array(entitlements.utf8)
        let entitlementsBlob = be(0xFADE_7171) + be(UInt32(8 + xml.count)) + xml
        let indexEnd = 12 + 2 * 8
        let blob =
            be(0xFADE_0CC0) + be(UInt32(indexEnd + codeDirectory.count + entitlementsBlob.count)) + be(2)
            + be(0) + be(UInt32(indexEnd)) + be(5) + be(UInt32(indexEnd + codeDirectory.count))
        return blob + codeDirectory + entitlementsBlob
    }

    public static func le(_ v: UInt32) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
    }
    public static func be(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}
