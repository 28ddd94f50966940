import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// CLI.md, "Credentials that cannot do a push type": a location push takes token auth only, so with a
/// certificate `send` is exit 77 before connecting (the dry run too), whether `--push-type` or the topic's
/// suffix makes it a location push. In-process, in a `TestWorld`.
@Suite struct CertificatePushTypeTests {
    static let device = String(repeating: "3f2a", count: 16)
    /// A port nothing listens on: a send that got as far as connecting would be exit 69, not 77.
    static let closedEndpoint = "https://127.0.0.1:9"

    struct Files {
        let directory: TemporaryDirectory
        let cert: String
        let payload: String
    }

    static func files() throws -> Files {
        let dir = try TemporaryDirectory(prefix: "cert-push-type")
        let cert = try dir.pem("push.pem", CredentialFixtures.development)
        let payload = try dir.write("where.json", #"{"aps":{},"query":"where"}"#)
        return Files(directory: dir, cert: cert, payload: payload)
    }

    @Test(arguments: [
        (["--push-type", "location", "--topic", "com.example.dev.location-query"], "--dry-run"),
        (["--push-type", "location", "--topic", "com.example.dev.location-query"], "--endpoint=\(closedEndpoint)"),
        (["--push-type", "LOCATION"], "--dry-run"),
        (["--topic", "com.example.dev.location-query"], "--dry-run"),
        (["--topic", "com.example.dev.location-query"], "--endpoint=\(closedEndpoint)"),
    ])
    func aLocationPushWithACertificateIs77BeforeConnecting(_ flags: [String], _ mode: String) throws {
        let f = try Self.files()
        let t = TestWorld(home: f.directory.path)
        let status = t.run(["send", mode, "--cert", f.cert] + flags + ["-d", Self.device, f.payload])
        #expect(status == 77, "\(flags) \(mode): \(status) \(t.stderr.text)")
        #expect(
            t.stderr.lines == [
                "error: --cert \(f.cert): location pushes take token auth only, and APNs answers a certificate TopicDisallowed; send with --auth-key AuthKey_KEYID.p8 --team-id TEAMID --topic com.example.dev.location-query"
            ],
            "\(t.stderr.text)")
        #expect(t.stdout.text.isEmpty, "\(t.stdout.text)")
    }

    /// Token auth carries a location push; a certificate still carries the types it can.
    @Test func tokenAuthSendsLocationAndACertificateOtherTypes() throws {
        let f = try Self.files()
        let p8 = try f.directory.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM)
        let token = TestWorld(home: f.directory.path)
        #expect(
            token.run([
                "send", "--dry-run", "--auth-key", p8, "--team-id", "TEAMID1234", "--push-type", "location",
                "--topic", "com.example.app.location-query", "-d", Self.device, f.payload,
            ]) == 0, "\(token.stderr.text)")
        #expect(token.stdout.lines.contains("apns-push-type: location"), "\(token.stdout.text)")

        let cert = TestWorld(home: f.directory.path)
        #expect(
            cert.run([
                "send", "--dry-run", "--cert", f.cert, "--push-type", "complication", "--topic",
                "com.example.dev.complication",
                "-d", Self.device, f.payload,
            ]) == 0, "\(cert.stderr.text)")
        #expect(cert.stdout.lines.contains("apns-push-type: complication"), "\(cert.stdout.text)")
    }
}
