import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// Every PEM form of a private key reads as the key `openssl` wrote, whichever reader takes it: unencrypted
/// RSA and EC keys are decoded as their named type (OpenSSL 3.0's generic reader tries every decoder first,
/// which is slow), everything else (Ed25519, encrypted, a label before the key) by the generic reader. The
/// public half is compared with `openssl pkey -pubout`, so a key decoded as the wrong type or not at all fails.
@Suite struct PrivateKeyFormsTests {
    static let forms: [(name: String, generate: [String], convert: [String])] = [
        ("rsa-pkcs8", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], []),
        ("rsa-pkcs1", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], ["rsa", "-traditional"]),
        ("ec-pkcs8", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], []),
        ("ec-sec1", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], ["ec"]),
        ("ec-p384-pkcs8", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"], []),
        ("ed25519", ["genpkey", "-algorithm", "ED25519"], []),
    ]

    func openssl(_ args: [String], in dir: TemporaryDirectory) throws -> CommandResult {
        let r = try CommandRunner.run("openssl", args, directory: dir.path)
        guard r.status == 0 else { throw TestSupportError("openssl \(args.joined(separator: " ")): \(r.stderr)") }
        return r
    }

    @Test(arguments: forms.map(\.name))
    func eachFormReadsAsTheKeyOpenSSLWrote(form: String) throws {
        let dir = try TemporaryDirectory(prefix: "key-forms")
        let spec = try #require(Self.forms.first { $0.name == form })
        _ = try openssl(spec.generate + ["-out", "key.pem"], in: dir)
        if !spec.convert.isEmpty { _ = try openssl(spec.convert + ["-in", "key.pem", "-out", "key.pem"], in: dir) }
        _ = try openssl(["pkey", "-in", "key.pem", "-pubout", "-outform", "DER", "-out", "pub.der"], in: dir)
        let pem = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file("key.pem"))))
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file("pub.der"))))

        let key = try PrivateKey(pem: pem, passphrase: nil)
        #expect(try key.publicKey.der == expected, "\(form)")

        // The same key after a certificate block (the generic reader finds it), and encrypted.
        let certificateFirst = Array("-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n".utf8) + pem
        #expect(
            try PrivateKey(pem: certificateFirst, passphrase: nil).publicKey.der == expected, "\(form) after a block")
        _ = try openssl(
            ["pkey", "-in", "key.pem", "-aes-256-cbc", "-passout", "pass:secret", "-out", "enc.pem"], in: dir)
        let encrypted = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file("enc.pem"))))
        #expect(try PrivateKey(pem: encrypted, passphrase: "secret").publicKey.der == expected, "\(form) encrypted")
        #expect(throws: OpenSSLError.self) { try PrivateKey(pem: encrypted, passphrase: nil) }
    }

    /// A traditional encrypted key (`Proc-Type: 4,ENCRYPTED` header) is not taken as an unencrypted one.
    @Test func traditionalEncryptedKeyNeedsItsPassphrase() throws {
        let dir = try TemporaryDirectory(prefix: "key-forms")
        _ = try openssl(
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "key.pem"], in: dir)
        _ = try openssl(["ec", "-in", "key.pem", "-aes256", "-passout", "pass:secret", "-out", "enc.pem"], in: dir)
        _ = try openssl(["pkey", "-in", "key.pem", "-pubout", "-outform", "DER", "-out", "pub.der"], in: dir)
        let encrypted = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file("enc.pem"))))
        #expect(String(decoding: encrypted, as: UTF8.self).contains("Proc-Type: 4,ENCRYPTED"))
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file("pub.der"))))
        #expect(try PrivateKey(pem: encrypted, passphrase: "secret").publicKey.der == expected)
        #expect(throws: OpenSSLError.self) { try PrivateKey(pem: encrypted, passphrase: nil) }
    }
}
