import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// Handshakes that fail for a reason the user can act on, said as that reason.
@Suite struct TLSAdviceTests {
    /// A server whose certificate the given CA did issue, but for another name than the one in --endpoint: send and
    /// doctor say which names it is for and that the name is at fault, never "give the CA that signed it" (which
    /// the user did) nor "the CA file holds another CA".
    @Test func aCertificateForAnotherNameIsSaidToBe() throws {
        let credentials = try TestCredentials()
        let other = try CredentialGenerator.makeServerCertificate(
            ca: credentials.ca, dnsNames: ["other.example"], ipAddresses: [])
        let server = try MockServer(
            configuration: MockConfiguration(
                identity: MockServerIdentity(
                    certificate: other.certificate, key: other.privateKey, clientCA: credentials.ca.certificate)))
        let port = try server.start()
        defer { server.stop() }
        let flags = [
            "--topic", credentials.bundleID, "--cert", credentials.pushFile, "--endpoint",
            "https://127.0.0.1:\(port)", "--ca-file", credentials.caFile, "--timeout", "20",
        ]
        let send = try InProcess.apnsctl(
            ["send", #"{"aps":{"alert":"hi"}}"#, "-d", String(repeating: "3f2a", count: 16)] + flags)
        #expect(send.status == 69, "\(send.stdout)\(send.stderr)")
        #expect(
            send.stdout.contains(
                "IP address mismatch (the certificate is for other.example, not for 127.0.0.1); the CA is right but "
                    + "the name is not: give --endpoint a name the certificate is for"), "\(send.stdout)")
        #expect(!send.stdout.contains("pass --ca-file"), "\(send.stdout)")

        let doctor = try InProcess.apnsctl(["doctor"] + flags)
        #expect(doctor.status == 69, "\(doctor.stdout)\(doctor.stderr)")
        let tls = doctor.lines.first { $0.hasPrefix("fail  tls ") } ?? ""
        #expect(tls.contains("the CA is right but the name is not"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("holds another CA"), "\(doctor.stdout)")

        // Apple's own name is never the one to change: a certificate the trust store takes, for another name, is
        // something answering in Apple's place (a captive portal, an intercepting proxy).
        let toLoopback = NameLookup { (_, port) throws(SocketError) in
            try Socket.resolveAll(host: "127.0.0.1", port: port)
        }
        var apple = flags
        apple[apple.firstIndex(of: "https://127.0.0.1:\(port)") ?? 0] = "https://api.sandbox.push.apple.com:\(port)"
        let intercepted = try InProcess.apnsctl(
            ["send", #"{"aps":{"alert":"hi"}}"#, "-d", String(repeating: "3f2a", count: 16)] + apple,
            nameLookup: toLoopback)
        #expect(intercepted.status == 69, "\(intercepted.stdout)\(intercepted.stderr)")
        #expect(
            intercepted.stdout.contains(
                "not for api.sandbox.push.apple.com); something on the way answers in Apple's place"),
            "\(intercepted.stdout)")
        let checked = try InProcess.apnsctl(["doctor"] + apple, nameLookup: toLoopback)
        let line = checked.lines.first { $0.hasPrefix("fail  tls ") } ?? ""
        #expect(
            line.contains("something on the way answers in Apple's place") && !line.contains("give --endpoint"),
            "\(checked.stdout)")
    }

    /// A server that takes ALPN but not h2 (OpenSSL's s_server with -alpn http/1.1, a server this project did not
    /// write) alerts "no application protocol": said as a server that did not agree to HTTP/2, not in OpenSSL's words.
    @Test func aServerRefusingH2ByAlertIsSaidToSpeakNoHTTP2() throws {
        let credentials = try TestCredentials()
        let pem = try credentials.directory.write("server.pem", try credentials.server.pem(), mode: 0o600)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try CommandRunner.which("openssl"))
        process.arguments = [
            "s_server", "-accept", "127.0.0.1:0", "-cert", pem, "-alpn", "http/1.1",
        ]
        let out = Pipe()
        // s_server stops at the end of its standard input: a pipe held open until the test ends.
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.runAsAShellWould()
        defer {
            process.terminate()
            process.waitUntilExit()
            withExtendedLifetime(input) {}
        }
        // `ACCEPT 127.0.0.1:PORT`, once it listens (after a line about DH parameters).
        var text = ""
        while !(text.components(separatedBy: "ACCEPT ").last ?? "").contains("\n") || !text.contains("ACCEPT ") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("ACCEPT ") }.flatMap { $0.split(separator: ":").last }
                .flatMap { Int($0) }, "\(text)")
        let r = try InProcess.apnsctl([
            "send", #"{"aps":{"alert":"hi"}}"#, "-d", String(repeating: "3f2a", count: 16), "--topic",
            credentials.bundleID, "--cert", credentials.pushFile, "--endpoint", "https://127.0.0.1:\(port)",
            "--ca-file", credentials.caFile, "--timeout", "20",
        ])
        #expect(r.status == 69, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stdout.contains("the server did not agree to HTTP/2 (ALPN h2); is this an HTTP/1.1-only server?"),
            "\(r.stdout)")
        #expect(!r.stdout.contains("no application protocol"), "\(r.stdout)")
        // doctor says the same, with the advice for a server that is not APNs (it does speak TLS).
        let doctor = try InProcess.apnsctl([
            "doctor", "--cert", credentials.pushFile, "--endpoint", "https://127.0.0.1:\(port)", "--ca-file",
            credentials.caFile, "--env", "sandbox", "--timeout", "20",
        ])
        let tls = doctor.lines.first { $0.hasPrefix("fail  tls ") } ?? ""
        #expect(
            tls.contains("the server did not agree to HTTP/2")
                && tls.hasSuffix("is --endpoint an APNs server? a proxy that terminates TLS may also do this"),
            "\(doctor.stdout)")
    }
}
