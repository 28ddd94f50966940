import APNSCore
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// `apnsctl convert` end to end: openssl reads what apnsctl writes, and round trips keep the certificate.
@Suite struct ConvertCommandTests {
    let pass = CredentialFixtures.passphrase
    let outPass = "0ut-Pa55word"

    @Test(arguments: [PKCS12Encryption.modern, .legacy])
    func pkcs12ToPEM(encryption: PKCS12Encryption) throws {
        let dir = try TemporaryDirectory()
        let p12 = try dir.p12("push.p12", CredentialFixtures.universal, password: pass, encryption: encryption)
        let r = try InProcess.apnsctl(["convert", p12, "-o", dir.file("out.pem"), "--passphrase", pass])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(try dir.mode("out.pem") == 0o600)
        let text = try dir.read("out.pem")
        #expect(text.components(separatedBy: "BEGIN CERTIFICATE").count == 3)
        #expect(text.contains("-----BEGIN PRIVATE KEY-----"))
        let subject = try CommandRunner.run("openssl", ["x509", "-in", dir.file("out.pem"), "-noout", "-subject"])
        #expect(subject.status == 0 && subject.stdout.contains("com.example.demo"))
        let key = try CommandRunner.run("openssl", ["pkey", "-in", dir.file("out.pem"), "-noout"])
        #expect(key.status == 0, "\(key.stderr)")
        let verify = try CommandRunner.run("openssl", ["verify", "-CAfile", dir.file("out.pem"), dir.file("out.pem")])
        #expect(verify.status == 0, "\(verify.stderr)")
        let back = try InProcess.apnsctl(["inspect", dir.file("out.pem"), "-o", "json"])
        #expect(back.status == 0)
        #expect(try jsonObject(back.stdout)["sha256"] as? String == CredentialFixtures.universal.info.sha256)
        #expect(!r.stderr.contains(pass))
    }

    @Test func pemToPKCS12ModernAndLegacyRoundTrip() throws {
        let dir = try TemporaryDirectory()
        let pem = try dir.pem("in.pem", CredentialFixtures.development, passphrase: pass)
        let outFile = try dir.write("out-pass.txt", outPass + "\n")
        for (name, extra, legacyRead) in [
            ("modern.p12", [String](), [String]()), ("legacy.p12", ["--legacy"], ["-legacy"]),
        ] {
            let r = try InProcess.apnsctl(
                ["convert", pem, "-o", dir.file(name), "--out-passphrase-file", outFile] + extra,
                environment: ["APNSCTL_PASSPHRASE": pass])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try dir.mode(name) == 0o600)
            let info = try CommandRunner.run(
                "openssl",
                ["pkcs12", "-in", dir.file(name), "-passin", "pass:\(outPass)", "-info", "-noout"] + legacyRead)
            #expect(info.status == 0, "\(info.stderr)")
            #expect(info.stderr.contains(extra.isEmpty ? "AES-256-CBC" : "pbeWithSHA1And40BitRC2-CBC"))
            let nodes = try CommandRunner.run(
                "openssl", ["pkcs12", "-in", dir.file(name), "-passin", "pass:\(outPass)", "-nodes"] + legacyRead)
            #expect(nodes.stdout.contains("BEGIN PRIVATE KEY") && nodes.stdout.contains("com.example.dev"))
            // And back with apnsctl.
            let back = try InProcess.apnsctl(
                ["inspect", dir.file(name), "-o", "json"], environment: ["APNSCTL_PASSPHRASE": outPass])
            #expect(back.status == 0, "\(back.stderr)")
            #expect(try jsonObject(back.stdout)["sha256"] as? String == CredentialFixtures.development.info.sha256)
            for output in [r.stdout, r.stderr, back.stdout, back.stderr] {
                #expect(!output.contains(pass) && !output.contains(outPass))
            }
        }
    }

    /// A password file saved as UTF-16 (a NUL every other byte), or a PEM file given as the password's: no `.p12` is
    /// written (with a NUL, OpenSSL encrypted with the password cut at it and sealed with all of it: a file that
    /// opened nowhere, said to be written). On the input side, a wrong passphrase with a NUL says so.
    @Test func aPasswordFileThatIsNoPasswordWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let pem = try dir.pem("in.pem", CredentialFixtures.universal)
        var utf16: [UInt8] = [0xFF, 0xFE]
        for byte in "secret123\r\n".utf8 { utf16 += [byte, 0] }
        let wide = try dir.write("utf16.txt", utf16)
        let nul = try dir.write("nul.txt", Array("abc\u{0}def\n".utf8))
        for (file, said) in [
            (wide, "holds a NUL byte (a file saved as UTF-16?), which a .p12 password cannot carry"),
            (nul, "holds a NUL byte (a file saved as UTF-16?), which a .p12 password cannot carry"),
            (pem, "is a PEM file (a key or certificate), not a password"),
        ] {
            let out = dir.file("out.p12")
            let r = try InProcess.apnsctl(["convert", pem, "-o", out, "--out-passphrase-file", file])
            #expect(r.status == 64, "\(r.stderr)")
            #expect(
                r.stderr.hasPrefix("error: --out-passphrase-file \(file) \(said); \(out) was not written: "),
                "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let p12 = try dir.p12("in.p12", CredentialFixtures.universal, password: "secret123")
        let wrong = try InProcess.apnsctl(["inspect", p12, "--passphrase-file", wide])
        #expect(wrong.status == 77, "\(wrong.stderr)")
        #expect(
            wrong.stderr.hasSuffix(
                ": the line holds a NUL byte (a file saved as UTF-16?); save the passphrase as UTF-8 text\n"),
            "\(wrong.stderr)")
    }

    /// `--passphrase` given for a PEM that needs none, meant as the new `.p12`'s password: the refusal says what it
    /// is for, so the user is not left wondering why it was not taken.
    @Test func anInputPassphraseForAnUnencryptedInputIsSaidToBeTheInputs() throws {
        let dir = try TemporaryDirectory()
        let pem = try dir.pem("in.pem", CredentialFixtures.universal)
        let out = dir.file("new.p12")
        let r = try InProcess.apnsctl(["convert", pem, "-o", out, "--passphrase", "newpw"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "error: no password for \(out) (--passphrase opens the input, which is not encrypted; it is not the new file's password); pass --out-passphrase-file FILE or set APNSCTL_OUT_PASSPHRASE"
            ], "\(r.stderr)")
        #expect(!r.stderr.contains("newpw"))
        // An encrypted input took it: nothing to add.
        let encrypted = try dir.pem("enc.pem", CredentialFixtures.universal, passphrase: "pw")
        let e = try InProcess.apnsctl(["convert", encrypted, "-o", dir.file("e.p12"), "--passphrase", "pw"])
        #expect(
            e.errorLines == [
                "error: no password for \(dir.file("e.p12")); pass --out-passphrase-file FILE or set APNSCTL_OUT_PASSPHRASE"
            ], "\(e.stderr)")
    }

    @Test func outPassphraseFromEnvironmentAndEmptyPassword() throws {
        let dir = try TemporaryDirectory()
        let pem = try dir.pem("in.pem", CredentialFixtures.universal)
        let r = try InProcess.apnsctl(
            ["convert", pem, "-o", dir.file("env.p12")], environment: ["APNSCTL_OUT_PASSPHRASE": outPass])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            try CommandRunner.run(
                "openssl", ["pkcs12", "-in", dir.file("env.p12"), "-passin", "pass:\(outPass)", "-noout"]
            ).status == 0)
        // An empty line is an empty password, and a trailing blank part of the new one: each said (as the input side
        // says it), the password never shown.
        for (name, line, said) in [
            ("empty", "\n", "its first line is empty, so \(dir.file("empty.p12")) gets an empty password"),
            (
                "spaced", "NewPass9 \n",
                "its first line ends with a space or tab, which is part of \(dir.file("spaced.p12"))'s password"
            ),
        ] {
            let file = try dir.write(name + ".txt", line)
            let r = try InProcess.apnsctl([
                "convert", pem, "-o", dir.file(name + ".p12"), "--out-passphrase-file", file,
            ])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("warning: --out-passphrase-file \(file): \(said)"), "\(r.stderr)")
            #expect(!r.stderr.contains("NewPass9"))
        }
        // Both passwords from standard input: the first would take the line meant for the other.
        let both = try InProcess.apnsctl(
            ["convert", pem, "-o", dir.file("both.p12"), "--passphrase-file", "-", "--out-passphrase-file", "-"],
            stdin: Array("one\ntwo\n".utf8))
        #expect(both.status == 64, "\(both.stderr)")
        #expect(
            both.stderr.hasPrefix(
                "error: --passphrase-file - and --out-passphrase-file - both read standard input"), "\(both.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("both.p12")))
        // The file itself from standard input, beside the passphrase: inspect and convert alike.
        for command in [["inspect", "-"], ["convert", "-", "-o", dir.file("in.pem")]] {
            let r = try InProcess.apnsctl(command + ["--passphrase-file", "-"], stdin: Array("one\n".utf8))
            #expect(r.status == 64, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("--passphrase-file - both read standard input"), "\(r.stderr)")
        }
        #expect(
            try CommandRunner.run("openssl", ["pkcs12", "-in", dir.file("empty.p12"), "-passin", "pass:", "-noout"])
                .status == 0)
        #expect(try InProcess.apnsctl(["inspect", dir.file("empty.p12")]).status == 0)
    }

    @Test func noOutputPasswordIsUsageError() throws {
        let dir = try TemporaryDirectory()
        let pem = try dir.pem("in.pem", CredentialFixtures.universal)
        let r = try InProcess.apnsctl(["convert", pem, "-o", dir.file("x.p12")])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--out-passphrase-file"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.p12")))
    }

    @Test func existingOutputIsUntouchedWithoutForce() throws {
        let dir = try TemporaryDirectory()
        let p12 = try dir.p12("push.p12", CredentialFixtures.universal, password: "")
        let out = try dir.write("out.pem", "keep me\n", mode: 0o644)
        let r = try InProcess.apnsctl(["convert", p12, "-o", out])
        #expect(r.status == 73)
        #expect(try dir.read("out.pem") == "keep me\n")
        let f = try InProcess.apnsctl(["convert", p12, "-o", out, "--force"])
        #expect(f.status == 0, "\(f.stderr)")
        #expect(try dir.read("out.pem").contains("BEGIN PRIVATE KEY"))
        #expect(try dir.mode("out.pem") == 0o600)
    }

    @Test func stdoutOutput() throws {
        let dir = try TemporaryDirectory()
        let p12 = try dir.p12("push.p12", CredentialFixtures.universal, password: pass)
        let r = try InProcess.apnsctl(["convert", p12, "-o", "-"], environment: ["APNSCTL_PASSPHRASE": pass])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(r.stdout.contains("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func badInputs() throws {
        let dir = try TemporaryDirectory()
        let p12 = try dir.p12("push.p12", CredentialFixtures.universal, password: pass)
        #expect(try InProcess.apnsctl(["convert", p12, "-o", dir.file("o.pem"), "--passphrase", "wrong"]).status == 77)
        #expect(!FileManager.default.fileExists(atPath: dir.file("o.pem")))
        #expect(try InProcess.apnsctl(["convert", dir.file("none.p12"), "-o", dir.file("o.pem")]).status == 66)
        #expect(try InProcess.apnsctl(["convert", p12]).status == 64)
        let certOnly = try dir.write("cert.pem", CredentialFixtures.universal.certificate.pem)
        let r = try InProcess.apnsctl(
            ["convert", certOnly, "-o", dir.file("c.p12")], environment: ["APNSCTL_OUT_PASSPHRASE": "x"])
        #expect(r.status == 77)
        #expect(r.stderr.contains("no private key"))
    }

    /// A missing `--out-passphrase-file` is named as such (it used to be blamed on `--passphrase-file`).
    @Test func missingOutputPasswordFileNamesItsFlag() throws {
        let dir = try TemporaryDirectory()
        let pem = try dir.pem("in.pem", CredentialFixtures.universal)
        let r = try InProcess.apnsctl([
            "convert", pem, "-o", dir.file("x.p12"), "--out-passphrase-file", dir.file("nope"),
        ])
        #expect(r.status == 66)
        #expect(r.stderr.hasPrefix("error: --out-passphrase-file: no such file"), "\(r.stderr)")
        #expect(!r.stderr.contains("nope"), "\(r.stderr)")
    }
}
