import APNSCrypto
import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": a PKCS#12 whose key-derivation iteration count is above 10,000,000 is exit 77 before
/// any derivation. The files are real exports with their counts rewritten in the DER (their MAC no longer
/// matches, which does not matter: nothing may be derived from them at all).
@Suite struct PKCS12IterationBoundTests {
    /// Where the count is raised: the MAC's (`MacData.iterations`), or every password-based encryption's.
    enum Place: String, Sendable { case mac, encryption }

    /// A DER tree, enough to rewrite PKCS#12 files: OCTET STRINGs whose contents are whole DER are descended
    /// into (PKCS#12 wraps its safes that way); anything else stays bytes.
    indirect enum Node {
        case primitive(tag: UInt8, bytes: [UInt8])
        case constructed(tag: UInt8, children: [Node])
        case wrapped(tag: UInt8, children: [Node])

        static func parseAll(_ bytes: [UInt8]) -> [Node]? {
            var nodes: [Node] = []
            var offset = 0
            while offset < bytes.count {
                guard let (node, next) = parse(bytes, at: offset) else { return nil }
                nodes.append(node)
                offset = next
            }
            return nodes
        }

        static func parse(_ bytes: [UInt8], at start: Int) -> (Node, Int)? {
            guard start + 2 <= bytes.count else { return nil }
            let tag = bytes[start]
            var offset = start + 1
            var length = Int(bytes[offset])
            offset += 1
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard count >= 1, count <= 4, offset + count <= bytes.count else { return nil }
                length = 0
                for _ in 0..<count { length = length << 8 | Int(bytes[offset]); offset += 1 }
            }
            guard offset + length <= bytes.count else { return nil }
            let content = Array(bytes[offset..<offset + length])
            let end = offset + length
            if tag & 0x20 != 0 {
                guard let children = parseAll(content) else { return nil }
                return (.constructed(tag: tag, children: children), end)
            }
            if tag == 0x04, content.first == 0x30, let children = parseAll(content) {
                return (.wrapped(tag: tag, children: children), end)
            }
            return (.primitive(tag: tag, bytes: content), end)
        }

        var encoded: [UInt8] {
            switch self {
            case .primitive(let tag, let bytes): return Node.header(tag, bytes.count) + bytes
            case .constructed(let tag, let children), .wrapped(let tag, let children):
                let content = children.flatMap(\.encoded)
                return Node.header(tag, content.count) + content
            }
        }

        static func header(_ tag: UInt8, _ length: Int) -> [UInt8] {
            if length < 0x80 { return [tag, UInt8(length)] }
            var digits: [UInt8] = []
            var rest = length
            while rest > 0 { digits.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 }
            return [tag, 0x80 | UInt8(digits.count)] + digits
        }

        /// Every INTEGER equal to `from` replaced by `to`.
        func replacingIntegers(_ from: Int64, with to: Int64) -> Node {
            switch self {
            case .primitive(let tag, let bytes):
                return tag == 0x02 && bytes == Node.integer(from) ? .primitive(tag: tag, bytes: Node.integer(to)) : self
            case .constructed(let tag, let children):
                return .constructed(tag: tag, children: children.map { $0.replacingIntegers(from, with: to) })
            case .wrapped(let tag, let children):
                return .wrapped(tag: tag, children: children.map { $0.replacingIntegers(from, with: to) })
            }
        }

        /// The minimal two's-complement bytes of a positive value.
        static func integer(_ value: Int64) -> [UInt8] {
            var bytes: [UInt8] = []
            var rest = value
            repeat { bytes.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 } while rest > 0
            if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
            return bytes
        }
    }

    /// A `.p12` export of the push identity (2,048 iterations everywhere) with the count at `place` set to `count`.
    static func export(_ credentials: TestCredentials, encryption: PKCS12Encryption, place: Place, count: Int64) throws -> [UInt8] {
        let bytes = try credentials.push.pkcs12(password: SecretBytes(Array("pw".utf8)), encryption: encryption)
        guard let (root, _) = Node.parse(bytes, at: 0), case .constructed(let tag, var parts) = root, parts.count == 3 else {
            throw TestSupportError("not a PFX with a MAC")
        }
        let index = place == .mac ? 2 : 1
        parts[index] = parts[index].replacingIntegers(2048, with: count)
        let patched = Node.constructed(tag: tag, children: parts).encoded
        guard patched != bytes else { throw TestSupportError("no count of 2048 at \(place)") }
        return patched
    }

    @Test(arguments: [(Place.mac, PKCS12Encryption.modern, Int64(2_000_000_000)),
                      (Place.mac, PKCS12Encryption.modern, Int64(10_000_001)),
                      (Place.encryption, PKCS12Encryption.modern, Int64(2_000_000_000)),
                      (Place.encryption, PKCS12Encryption.legacy, Int64(2_000_000_000))])
    func aHugeIterationCountIsExit77BeforeAnyDerivation(_ place: Place, _ encryption: PKCS12Encryption, _ count: Int64) throws {
        let credentials = try TestCredentials()
        let p12 = try credentials.directory.write("huge.p12", try Self.export(credentials, encryption: encryption, place: place, count: count))
        let passFile = try credentials.directory.write("pass.txt", "pw\n", mode: 0o600)

        let r = try CommandRunner.apnsctl(["inspect", p12, "--passphrase-file", passFile], timeout: 30)

        #expect(!r.timedOut && r.seconds < 10, "the count was derived (\(r.seconds) s)")
        #expect(r.status == 77, "\(r.stderr)")
        #expect(r.errorLines == ["error: \(p12): the PKCS#12 file asks for \(count) key-derivation iterations (apnsctl allows "
                                 + "at most 10000000), which would take minutes; nothing was decrypted; export it again "
                                 + "(exporters use 2048 to 600000)"], "\(r.stderr)")
    }

    /// The same export untouched opens: the bound is about the count, not about the file or the rewriting.
    @Test func theUsualCountOpens() throws {
        let credentials = try TestCredentials()
        let bytes = try credentials.push.pkcs12(password: SecretBytes(Array("pw".utf8)), encryption: .modern)
        guard let (root, _) = Node.parse(bytes, at: 0) else { throw TestSupportError("unparsable") }
        #expect(root.encoded == bytes, "the rewriter re-encodes an export byte for byte")
        let p12 = try credentials.directory.write("usual.p12", bytes)
        let passFile = try credentials.directory.write("pass.txt", "pw\n", mode: 0o600)
        let r = try CommandRunner.apnsctl(["inspect", p12, "--passphrase-file", passFile], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
    }
}
