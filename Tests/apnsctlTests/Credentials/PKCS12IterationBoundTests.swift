import APNSTestSupport
import COpenSSL
import Foundation
import Testing

@testable import APNSCrypto

/// CLI.md, "Exit codes": a PKCS#12 whose key-derivation iteration count is above 10,000,000 is exit 77 before
/// any derivation. The files are real exports with their counts rewritten in the DER (their MAC no longer
/// matches, which does not matter: nothing may be derived from them at all).
@Suite struct PKCS12IterationBoundTests {
    /// Where the count is raised: the MAC's (`MacData.iterations`), or every password-based encryption's.
    enum Place: String, Sendable { case mac, encryption }

    /// A `.p12` export of the push identity (2,048 iterations everywhere) with the count at `place` set to `count`.
    static func export(_ credentials: TestCredentials, encryption: PKCS12Encryption, place: Place, count: Int64) throws
        -> [UInt8]
    {
        let bytes = try credentials.push.pkcs12(password: SecretBytes(Array("pw".utf8)), encryption: encryption)
        guard let (root, _) = DERTree.parse(bytes, at: 0), case .constructed(let tag, var parts) = root,
            parts.count == 3
        else {
            throw TestSupportError("not a PFX with a MAC")
        }
        let index = place == .mac ? 2 : 1
        parts[index] = parts[index].replacingIntegers(2048, with: count)
        let patched = DERTree.constructed(tag: tag, children: parts).encoded
        guard patched != bytes else { throw TestSupportError("no count of 2048 at \(place)") }
        return patched
    }

    @Test(arguments: [
        (Place.mac, PKCS12Encryption.modern, Int64(2_000_000_000)),
        (Place.mac, PKCS12Encryption.modern, Int64(10_000_001)),
        (Place.encryption, PKCS12Encryption.modern, Int64(2_000_000_000)),
        (Place.encryption, PKCS12Encryption.legacy, Int64(2_000_000_000)),
    ])
    func aHugeIterationCountIsExit77BeforeAnyDerivation(_ place: Place, _ encryption: PKCS12Encryption, _ count: Int64)
        throws
    {
        let credentials = try TestCredentials()
        let p12 = try credentials.directory.write(
            "huge.p12", try Self.export(credentials, encryption: encryption, place: place, count: count))
        let passFile = try credentials.directory.write("pass.txt", "pw\n", mode: 0o600)

        let r = try InProcess.apnsctl(["inspect", p12, "--passphrase-file", passFile], timeout: 30)

        #expect(!r.timedOut && r.seconds < 10, "the count was derived (\(r.seconds) s)")
        #expect(r.status == 77, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "error: \(p12): the PKCS#12 file asks for \(count) key-derivation iterations (apnsctl allows "
                    + "at most 10000000), which would take minutes, so its key was not decrypted; export it again "
                    + "(exporters use 2048 to 600000)"
            ], "\(r.stderr)")
    }

    /// A key bag inside an encrypted safe, the safe and the MAC at 2,048 rounds (so the passphrase checks out)
    /// and the key bag's own PBE parameters set to `count` without deriving anything. No exporter writes this
    /// layout, so it is built with OpenSSL's PKCS#12 calls; it is what `openssl pkcs12` reads as "Shrouded
    /// Keybag" inside "PKCS7 Encrypted data".
    static func keyInEncryptedSafe(_ credentials: TestCredentials, count: Int32) throws -> [UInt8] {
        let nid = NID_pbe_WithSHA1And3_Key_TripleDES_CBC
        var bags: OpaquePointer? = nil
        guard let bag = PKCS12_add_key(&bags, credentials.push.privateKey.pointer, 0, 2048, nid, "pw") else {
            throw TestSupportError("PKCS12_add_key failed")
        }
        defer { COpenSSL_sk_PKCS12_SAFEBAG_pop_free(bags) }
        guard let shrouded = PKCS12_SAFEBAG_get0_pkcs8(bag) else { throw TestSupportError("no shrouded key") }
        var algorithm: UnsafeMutablePointer<X509_ALGOR>? = nil
        X509_SIG_getm(shrouded, &algorithm, nil)
        guard let algorithm, PKCS5_pbe_set0_algor(algorithm, nid, count, nil, 8) == 1 else {
            throw TestSupportError("cannot set the key bag's count")
        }
        var safes: OpaquePointer? = nil
        guard PKCS12_add_safe(&safes, bags, nid, 2048, "pw") == 1, let safes else {
            throw TestSupportError("PKCS12_add_safe failed")
        }
        defer { COpenSSL_sk_PKCS7_pop_free(safes) }
        guard let p12 = PKCS12_add_safes(safes, 0) else { throw TestSupportError("PKCS12_add_safes failed") }
        defer { PKCS12_free(p12) }
        guard PKCS12_set_mac(p12, "pw", -1, nil, 0, 2048, EVP_sha256()) == 1 else {
            throw TestSupportError("PKCS12_set_mac failed")
        }
        var der: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_PKCS12(p12, &der)
        guard length > 0, let der else { throw TestSupportError("i2d_PKCS12 failed") }
        defer { COpenSSL_OPENSSL_free(der) }
        return Array(UnsafeBufferPointer(start: der, count: Int(length)))
    }

    /// Only the passphrase opens the safe that holds the key bag: the count is read once it is open (the MAC
    /// and the safe cost 2,048 rounds each), and refused before the key itself is derived.
    @Test func aHugeCountOnAKeyInsideAnEncryptedSafeIsExit77() throws {
        let credentials = try TestCredentials()
        let p12 = try credentials.directory.write(
            "nested.p12", try Self.keyInEncryptedSafe(credentials, count: 2_000_000_000))
        let passFile = try credentials.directory.write("pass.txt", "pw\n", mode: 0o600)

        let r = try InProcess.apnsctl(["inspect", p12, "--passphrase-file", passFile], timeout: 30)

        #expect(!r.timedOut && r.seconds < 10, "the count was derived (\(r.seconds) s)")
        #expect(r.status == 77, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "error: \(p12): the PKCS#12 file asks for 2000000000 key-derivation iterations (apnsctl allows "
                    + "at most 10000000), which would take minutes, so its key was not decrypted; export it again "
                    + "(exporters use 2048 to 600000)"
            ], "\(r.stderr)")
    }

    /// The same export untouched opens: the bound is about the count, not about the file or the rewriting.
    @Test func theUsualCountOpens() throws {
        let credentials = try TestCredentials()
        let bytes = try credentials.push.pkcs12(password: SecretBytes(Array("pw".utf8)), encryption: .modern)
        guard let (root, _) = DERTree.parse(bytes, at: 0) else { throw TestSupportError("unparsable") }
        #expect(root.encoded == bytes, "the rewriter re-encodes an export byte for byte")
        let p12 = try credentials.directory.write("usual.p12", bytes)
        let passFile = try credentials.directory.write("pass.txt", "pw\n", mode: 0o600)
        let r = try InProcess.apnsctl(["inspect", p12, "--passphrase-file", passFile], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
    }
}
