import APNSTestSupport
import Foundation
import Testing

/// Where `convert` may write: directories, missing folders, and `--force` replacing a file whole.
@Suite struct ConvertOutputPathTests {
    let scratch: TemporaryDirectory
    let p12: String
    init() throws {
        scratch = try TemporaryDirectory(prefix: "convert-out")
        let d = scratch.path
        let made = try CommandRunner.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                                                     "-nodes", "-keyout", "\(d)/k.pem", "-out", "\(d)/c.pem", "-days", "2",
                                                     "-subj", "/CN=convert test"])
        #expect(made.status == 0, "\(made.stderr)")
        p12 = scratch.file("in.p12")
        let exported = try CommandRunner.run("openssl", ["pkcs12", "-export", "-in", "\(d)/c.pem", "-inkey", "\(d)/k.pem",
                                                         "-out", p12, "-passout", "pass:"])
        #expect(exported.status == 0, "\(exported.stderr)")
    }

    private func convert(_ args: [String]) throws -> CommandResult {
        try CommandRunner.apnsctl(["convert", p12] + args, environment: ["APNSCTL_PASSPHRASE": ""])
    }

    @Test func aDirectoryIsNotAnOutputFileEvenWithForce() throws {
        let dir = scratch.file("outdir")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for extra in [[], ["--force"]] {
            let r = try convert(["-o", dir] + extra)
            #expect(r.status == 73)
            #expect(r.stderr.hasPrefix("error: -o \(dir): is a directory, not a regular file"), "\(r.stderr)")
            #expect(r.stderr.contains("-o -"))
        }
    }

    @Test func aMissingFolderIsNamedWithAdvice() throws {
        let r = try convert(["-o", scratch.file("no/such/dir/out.pem")])
        #expect(r.status == 73)
        #expect(r.stderr.contains("its directory does not exist; create it first"))
    }

    @Test func forceReplacesTheFileWholeWithMode0600AndLeavesNoTemporaryFile() throws {
        let out = try scratch.write("out.pem", "old contents\n", mode: 0o644)
        let r = try convert(["-o", out, "--force"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try scratch.read("out.pem")
        #expect(text.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }
}
