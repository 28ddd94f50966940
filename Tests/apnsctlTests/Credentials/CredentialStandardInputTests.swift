import APNSCore
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// `-` for a credential or a passphrase file reads the command's standard input: in-process, the world's, never
/// the test process's own (a terminal there kept `make test` waiting for a line typed at it, and a pipe lost the
/// bytes that were meant for the command). Each command here succeeds only with what its own input holds.
@Suite struct CredentialStandardInputTests {
    @Test func aPassphraseFileOfDashReadsTheCommandsInput() throws {
        let (dir, p12) = try CredentialSlipTests.p12()
        let typed = Array((CredentialSlipTests.password + "\n").utf8)
        let inspect = try InProcess.apnsctl(["inspect", p12, "--passphrase-file", "-"], stdin: typed)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let pem = dir.file("out.pem")
        let convert = try InProcess.apnsctl(["convert", p12, "-o", pem, "--passphrase-file", "-"], stdin: typed)
        #expect(convert.status == 0, "\(convert.stderr)")
        let written = dir.file("again.p12")
        let out = try InProcess.apnsctl(
            ["convert", pem, "-o", written, "--out-passphrase-file", "-"], stdin: Array("fresh\n".utf8))
        #expect(out.status == 0, "\(out.stderr)")
        let reopened = try InProcess.apnsctl(["inspect", written, "--passphrase", "fresh"])
        #expect(reopened.status == 0, "the password written is the line given: \(reopened.stderr)")
    }

    @Test func aCredentialOfDashReadsTheCommandsInput() throws {
        let dir = try TemporaryDirectory(prefix: "stdin-credential")
        let pem = try dir.pem("push.pem", CredentialFixtures.universal)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: pem)))
        let inspect = try InProcess.apnsctl(["inspect", "-", "-o", "json"], stdin: bytes)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("\"subject\""), "\(inspect.stdout.prefix(300))")
        let convert = try InProcess.apnsctl(["convert", "-", "-o", dir.file("copy.pem")], stdin: bytes)
        #expect(convert.status == 0, "\(convert.stderr)")
        let p8 = try CredentialFixtures.signingKey.p8PEM
        let jwt = try InProcess.apnsctl(
            ["jwt", "--auth-key", "-", "--key-id", "ABCDE12345", "--team-id", "TEAMID1234"], stdin: p8)
        #expect(jwt.status == 0, "\(jwt.stderr)")
        #expect(jwt.stdout.split(separator: ".").count == 3, "\(jwt.stdout.prefix(100))")
        // No file name to take the key id from: said so, not "the file name -".
        let noID = try InProcess.apnsctl(["jwt", "--auth-key", "-", "--team-id", "TEAMID1234"], stdin: p8)
        #expect(noID.status == 77, "\(noID.stderr)")
        #expect(
            noID.stderr.contains("--key-id: missing, and a key read from standard input has no file name to carry one"),
            "\(noID.stderr)")
    }

    /// `send --cert -`: the certificate and its key from the command's input, sent with.
    @Test func sendReadsACertificateOfDashFromTheCommandsInput() async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: mock.certificate)))
            let r = try InProcess.apnsctl(
                [
                    "send", "--cert", "-", "-d", String(repeating: "ab", count: 32), "--alert", "hi",
                    "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                ], stdin: bytes)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix("accepted  200"), "\(r.stdout)")
        }
    }
}
