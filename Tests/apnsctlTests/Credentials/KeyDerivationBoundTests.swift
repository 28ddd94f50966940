import APNSTestSupport
import COpenSSL
import Foundation
import Testing

@testable import APNSCrypto

/// CLI.md, "Exit codes": every key derivation is bounded before it runs — PBKDF2 above 10,000,000 iterations,
/// scrypt needing more than 32 MiB (the most OpenSSL's decryption runs; CLI.md says 256) or N·r·p above 2^24 — for `.p12` files and encrypted PEM keys alike, exit
/// 77 at once and before any passphrase is asked for. The keys are encrypted by `openssl pkcs8 -topk8` with
/// small parameters, which are then rewritten in the DER (the way an attacker would); the `.p12` files are
/// built around such a key bag with a MAC over the rewritten contents, so a derivation really would run.
/// Each case runs the binary with a deadline: a derivation that did start would hang an in-process test.
@Suite struct KeyDerivationBoundTests {
    /// A key's protection, and its rewriting.
    enum Protection: String, CaseIterable, Sendable {
        /// scrypt N=2^20, r=8, p=1: 1 GiB of memory.
        case scryptMemory
        /// scrypt N=2^14, r=16, p=1: 33 MiB, just over what OpenSSL runs (it said "wrong passphrase").
        case scryptOverOpenSSL
        /// scrypt N=2^14, r=8, p=1024: 18 MiB but N·r·p = 2^27, about a minute.
        case scryptWork
        /// PBKDF2 with 2^31 - 1 iterations, the most OpenSSL 3.0 runs (2^31 it refuses itself): about 13 minutes.
        case pbkdf2

        var opensslOptions: [String] {
            switch self {
            case .scryptMemory, .scryptOverOpenSSL, .scryptWork:
                return ["-scrypt", "-scrypt_N", "1024", "-scrypt_r", "8", "-scrypt_p", "1"]
            case .pbkdf2: return ["-v2", "aes-256-cbc", "-iter", "2048"]
            }
        }

        func rewrite(_ tree: DERTree) -> DERTree {
            switch self {
            case .scryptMemory: return tree.replacingIntegerRun([1024, 8, 1], with: [1 << 20, 8, 1])
            case .scryptOverOpenSSL: return tree.replacingIntegerRun([1024, 8, 1], with: [1 << 14, 16, 1])
            case .scryptWork: return tree.replacingIntegerRun([1024, 8, 1], with: [1 << 14, 8, 1024])
            case .pbkdf2: return tree.replacingIntegers(2048, with: Int64(Int32.max))
            }
        }

        /// What the message says the file asks for, after `subject`.
        var asked: String {
            switch self {
            case .scryptMemory:
                return
                    "asks for scrypt with N=1048576, r=8, p=1, which needs 1025 MiB of memory (OpenSSL decrypts with at most 32 MiB)"
            case .scryptOverOpenSSL:
                return
                    "asks for scrypt with N=16384, r=16, p=1, which needs 33 MiB of memory (OpenSSL decrypts with at most 32 MiB)"
            case .scryptWork:
                return
                    "asks for scrypt with N=16384, r=8, p=1024: N·r·p = 134217728 (apnsctl allows at most 16777216), "
                    + "which would take minutes"
            case .pbkdf2:
                return
                    "asks for 2147483647 key-derivation iterations (apnsctl allows at most 10000000), which would take minutes"
            }
        }

        var advice: String {
            self == .pbkdf2
                ? "export it again (exporters use 2048 to 600000)"
                : "export it again (exporters use scrypt N=16384, r=8, p=1, or PBKDF2)"
        }
    }

    enum Command: String, CaseIterable, Sendable { case inspect, dryRun, convert }

    static let passphrase = "pw"

    /// The push key as PKCS#8 DER encrypted by `openssl pkcs8 -topk8` with `protection`'s small parameters.
    static func encryptedKey(_ credentials: TestCredentials, _ protection: Protection) throws -> [UInt8] {
        let directory = credentials.directory
        let plain = try directory.write(
            "plain-key.pem", try credentials.push.privateKey.pkcs8PEM(passphrase: nil), mode: 0o600)
        let encrypted = directory.file("encrypted-\(protection.rawValue).der")
        let made = try CommandRunner.run(
            "openssl",
            [
                "pkcs8", "-topk8", "-in", plain, "-outform", "DER", "-out", encrypted,
                "-passout", "pass:\(passphrase)",
            ] + protection.opensslOptions)
        guard made.status == 0 else { throw TestSupportError("openssl pkcs8: \(made.stderr)") }
        return Array(try Data(contentsOf: URL(fileURLWithPath: encrypted)))
    }

    /// `der` with `protection`'s parameters raised; throws when nothing changed.
    static func raised(_ der: [UInt8], _ protection: Protection) throws -> [UInt8] {
        guard let patched = DERTree.rewrite(der, protection.rewrite), patched != der else {
            throw TestSupportError("no \(protection) parameters to raise")
        }
        return patched
    }

    /// PEM text of an `EncryptedPrivateKeyInfo`.
    static func pem(_ der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN ENCRYPTED PRIVATE KEY-----\n\(base64)\n-----END ENCRYPTED PRIVATE KEY-----\n"
    }

    /// A `.p12` holding the push certificate and `keyBag` (an `EncryptedPrivateKeyInfo`) in a plain safe, with
    /// a MAC under `macPassword` over exactly these contents: the MAC checks out, so the key bag is next.
    static func pkcs12(_ credentials: TestCredentials, keyBag: [UInt8], macPassword: String) throws -> [UInt8] {
        let signature = keyBag.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw TestSupportError("the key bag is no EncryptedPrivateKeyInfo") }
        guard let bag = PKCS12_SAFEBAG_create0_pkcs8(signature) else {
            X509_SIG_free(signature)
            throw TestSupportError("PKCS12_SAFEBAG_create0_pkcs8 failed")
        }
        var bags: OpaquePointer? = nil
        guard PKCS12_add_cert(&bags, credentials.push.certificate.pointer) != nil, let bags else {
            PKCS12_SAFEBAG_free(bag)
            throw TestSupportError("PKCS12_add_cert failed")
        }
        defer { COpenSSL_sk_PKCS12_SAFEBAG_pop_free(bags) }
        guard OPENSSL_sk_push(bags, UnsafeRawPointer(bag)) > 0 else {
            PKCS12_SAFEBAG_free(bag)
            throw TestSupportError("cannot add the key bag")
        }
        var safes: OpaquePointer? = nil
        guard PKCS12_add_safe(&safes, bags, -1, 0, nil) == 1, let safes else {
            throw TestSupportError("PKCS12_add_safe failed")
        }
        defer { COpenSSL_sk_PKCS7_pop_free(safes) }
        guard let p12 = PKCS12_add_safes(safes, 0) else { throw TestSupportError("PKCS12_add_safes failed") }
        defer { PKCS12_free(p12) }
        guard PKCS12_set_mac(p12, macPassword, Int32(macPassword.utf8.count), nil, 0, 2048, EVP_sha256()) == 1 else {
            throw TestSupportError("PKCS12_set_mac failed")
        }
        var der: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_PKCS12(p12, &der)
        guard length > 0, let der else { throw TestSupportError("i2d_PKCS12 failed") }
        defer { COpenSSL_OPENSSL_free(der) }
        return Array(UnsafeBufferPointer(start: der, count: Int(length)))
    }

    /// `command` on `file` (with `key` as its key file when given), `passphraseFile` or none.
    static func run(
        _ command: Command, _ credentials: TestCredentials, file: String, key: String?,
        passphraseFile: String?
    ) throws -> CommandResult {
        let keyArguments = key.map { ["--key", $0] } ?? []
        let passphraseArguments = passphraseFile.map { ["--passphrase-file", $0] } ?? []
        let arguments: [String]
        switch command {
        case .inspect:
            arguments = ["inspect", file] + keyArguments
        case .dryRun:
            arguments =
                ["send", "--cert", file] + keyArguments + [
                    "--topic", credentials.bundleID, "--alert", "Hi",
                    "-d", String(repeating: "ab", count: 32), "--dry-run",
                ]
        case .convert:
            arguments =
                ["convert", file] + keyArguments + ["-o", credentials.directory.file("out-\(UUID().uuidString).pem")]
        }
        // No terminal: a passphrase, if one were asked for, could only come from the file.
        return try InProcess.apnsctl(arguments + passphraseArguments, stdin: [], timeout: 30)
    }

    static func expectRefused(
        _ r: CommandResult, file: String, subject: String, _ protection: Protection,
        _ command: Command
    ) {
        let notDecrypted = subject.hasPrefix("the PKCS#12") ? "so its key was not decrypted" : "so it was not decrypted"
        #expect(!r.timedOut && r.seconds < 5, "\(command): the key was derived (\(r.seconds) s)")
        #expect(r.status == 77, "\(command): \(r.stderr)")
        #expect(
            r.errorLines == ["error: \(file): \(subject) \(protection.asked), \(notDecrypted); \(protection.advice)"],
            "\(command): \(r.stderr)")
        #expect(r.stdout.isEmpty, "\(command): \(r.stdout)")
    }

    /// An encrypted PEM key (`--key`) with raised parameters: refused at once by every command that loads it.
    @Test(arguments: Protection.allCases, Command.allCases)
    func anEncryptedPEMKeyBeyondTheBoundIsExit77AtOnce(_ protection: Protection, _ command: Command) throws {
        let credentials = try TestCredentials()
        let key = try credentials.directory.write(
            "key.pem", Self.pem(try Self.raised(Self.encryptedKey(credentials, protection), protection)),
            mode: 0o600)
        let cert = try credentials.directory.write("cert.pem", credentials.push.certificate.pem)
        let passFile = try credentials.directory.write("pass.txt", Self.passphrase + "\n", mode: 0o600)

        let r = try Self.run(command, credentials, file: cert, key: key, passphraseFile: passFile)

        Self.expectRefused(r, file: key, subject: "the encrypted private key", protection, command)
    }

    /// The same key in one file with its certificate and no passphrase anywhere: the bound comes before the
    /// passphrase is looked for (and would be asked for on a terminal), not "no passphrase was given".
    @Test(arguments: Protection.allCases)
    func theBoundComesBeforeThePassphrase(_ protection: Protection) throws {
        let credentials = try TestCredentials()
        let pem =
            String(decoding: credentials.push.certificate.pem, as: UTF8.self)
            + Self.pem(try Self.raised(Self.encryptedKey(credentials, protection), protection))
        let file = try credentials.directory.write("push.pem", pem, mode: 0o600)

        let r = try Self.run(.inspect, credentials, file: file, key: nil, passphraseFile: nil)

        Self.expectRefused(r, file: file, subject: "the encrypted private key", protection, .inspect)
    }

    /// A `.p12` whose key bag is encrypted with raised scrypt parameters. With an empty MAC password and no
    /// passphrase given (the review's case) the empty password was tried on the key for minutes; with the
    /// passphrase the same.
    @Test(arguments: [Protection.scryptMemory, .scryptWork], Command.allCases)
    func aPKCS12WithAnScryptKeyBagBeyondTheBoundIsExit77AtOnce(_ protection: Protection, _ command: Command) throws {
        let credentials = try TestCredentials()
        let keyBag = try Self.raised(Self.encryptedKey(credentials, protection), protection)
        for macPassword in ["", Self.passphrase] {
            let p12 = try credentials.directory.write(
                "scrypt-\(macPassword.isEmpty ? "empty" : "pw").p12",
                try Self.pkcs12(credentials, keyBag: keyBag, macPassword: macPassword), mode: 0o600)
            let passFile =
                macPassword.isEmpty ? nil : try credentials.directory.write("pass.txt", macPassword + "\n", mode: 0o600)

            let r = try Self.run(command, credentials, file: p12, key: nil, passphraseFile: passFile)

            Self.expectRefused(r, file: p12, subject: "the PKCS#12 file", protection, command)
        }
    }

    /// The same keys with the parameters openssl wrote (scrypt N=1024, r=8, p=1; PBKDF2 2,048) load, as PEM
    /// and in a `.p12`: the bound is about the cost, not about scrypt or the files' making.
    @Test(arguments: Protection.allCases)
    func usualParametersStillLoad(_ protection: Protection) throws {
        let credentials = try TestCredentials()
        let der = try Self.encryptedKey(credentials, protection)
        let key = try credentials.directory.write("key.pem", Self.pem(der), mode: 0o600)
        let cert = try credentials.directory.write("cert.pem", credentials.push.certificate.pem)
        let p12 = try credentials.directory.write(
            "usual.p12", try Self.pkcs12(credentials, keyBag: der, macPassword: Self.passphrase),
            mode: 0o600)
        let passFile = try credentials.directory.write("pass.txt", Self.passphrase + "\n", mode: 0o600)
        for command in Command.allCases {
            let pem = try Self.run(command, credentials, file: cert, key: key, passphraseFile: passFile)
            #expect(pem.status == 0, "\(command) PEM: \(pem.stderr)")
            let bundle = try Self.run(command, credentials, file: p12, key: nil, passphraseFile: passFile)
            #expect(bundle.status == 0, "\(command) p12: \(bundle.stderr)")
        }
    }
}
