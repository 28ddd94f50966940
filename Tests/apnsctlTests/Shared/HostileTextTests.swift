import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md: no input drives the terminal (control characters from tokens, flag values, file names and the
/// network are escaped), and header values with whitespace or control characters are refused before
/// connecting, naming the flag.
@Suite struct HostileTextTests {
    static let retitle = "\u{1B}]0;owned\u{07}"

    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "ab" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    static func expectNoRawControls(
        _ r: CommandResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (name, text) in [("stdout", r.stdout), ("stderr", r.stderr)] {
            #expect(
                !text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" },
                "\(what): raw ESC/BEL on \(name): \(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    /// A closed port: a check that happened only after connecting would be 69 here, not 64.
    static let nowhere = ["--endpoint", "https://127.0.0.1:9", "--timeout", "2"]

    @Test func headerValuesWithWhitespaceOrControlsAreRefusedBeforeConnecting() throws {
        let mock = try InProcessMock()
        let base = ["send", "--cert", mock.certificate, "-d", Self.token(1)] + Self.nowhere
        let cases: [([String], String)] = [
            (["--topic", "com.example.demo "], "error: --topic \"com.example.demo \": ends with a space; "),
            (["--topic", "com.example\tdemo"], "error: --topic \"com.example\\u{9}demo\": holds a tab; "),
            (["--topic", "com.example.demo\n"], "error: --topic \"com.example.demo\\u{A}\": ends with a line break; "),
            (["--collapse-id", "a b"], "error: --collapse-id \"a b\": holds a space; "),
            (
                ["--collapse-id", "id\u{1B}]0;x"],
                "error: --collapse-id \"id\\u{1B}]0;x\": holds a control character (U+001B); "
            ),
            (["--apns-id", " 8A6C1F8E-0000-4000-8000-000000000000"], "error: --apns-id "),
            // A bidirectional override would reorder the dry run's request and curl lines, printed raw.
            (
                ["--collapse-id", "ab\u{202E}cd", "--dry-run"],
                "error: --collapse-id \"ab\\u{202E}cd\": holds a bidirectional override (U+202E); "
            ),
            (
                ["--topic", "com.example.demo\u{2066}"],
                "error: --topic \"com.example.demo\\u{2066}\": ends with a bidirectional override (U+2066); "
            ),
        ]
        for (extra, expected) in cases {
            let r = try InProcess.apnsctl(base + extra)
            #expect(r.status == 64, "\(extra): \(r.stderr)")
            #expect(r.stderr.hasPrefix(expected), "\(extra): \(r.stderr)")
            Self.expectNoRawControls(r, "\(extra)")
        }
        let channel = try InProcess.apnsctl(
            [
                "send", "--cert", mock.certificate, "--channel", "abc\tdef",
                #"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#,
            ] + Self.nowhere)
        #expect(channel.status == 64, "\(channel.stderr)")
        #expect(channel.stderr.hasPrefix("error: --channel \"abc\\u{9}def\": holds a tab"), "\(channel.stderr)")
        let requestID = try InProcess.apnsctl(
            [
                "send", "--cert", mock.certificate, "--channel", "YWJj", "--request-id", "x y",
                #"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#,
            ] + Self.nowhere)
        #expect(requestID.status == 64, "\(requestID.stderr)")
        #expect(requestID.stderr.hasPrefix("error: --request-id \"x y\""), "\(requestID.stderr)")
        for sub in ["get", "delete"] {
            let r = try InProcess.apnsctl(
                ["channel", sub, "abc ", "--cert", mock.certificate] + (sub == "delete" ? ["--yes"] : []) + Self.nowhere
            )
            #expect(r.status == 64, "\(sub): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: channel \(sub) \"abc \": ends with a space"), "\(sub): \(r.stderr)")
        }
    }

    @Test func controlCharactersFromInputAreEscapedInMessages() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "hostile")
        let token = try InProcess.apnsctl(["send", "--cert", mock.certificate, "-d", Self.retitle] + Self.nowhere)
        #expect(token.status == 64, "\(token.stderr)")
        // Quoted by its first 8 characters, as a value that is no token's shape is.
        #expect(token.stderr.contains("--device \"\\u{1B}]0;owne…\""), "\(token.stderr)")
        Self.expectNoRawControls(token, "token")

        let missing = scratch.file("devices\(Self.retitle).txt")
        let file = try InProcess.apnsctl(["send", "--cert", mock.certificate, "--devices", missing] + Self.nowhere)
        #expect(file.status == 66, "\(file.stderr)")
        Self.expectNoRawControls(file, "file name")
        let payload = try InProcess.apnsctl(["validate", scratch.file("p\(Self.retitle).json")])
        #expect(payload.status == 66, "\(payload.stderr)")
        Self.expectNoRawControls(payload, "payload file name")
        let valid = try scratch.write("ok\(Self.retitle).json", #"{"aps":{"alert":"hi"}}"#)
        let ok = try InProcess.apnsctl(["validate", valid])
        #expect(ok.status == 0 && ok.stdout.contains(": ok ("), "\(ok.stdout)\(ok.stderr)")
        Self.expectNoRawControls(ok, "payload file name on its ok line")

        for args in [["sen\(Self.retitle)"], ["send", "--topic\(Self.retitle)", "x"]] {
            let r = try InProcess.apnsctl(args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            Self.expectNoRawControls(r, "argument \(args)")
        }

        let lines = try scratch.write("d.txt", "\(Self.token(1))\n\(Self.retitle)\n")
        let line = try InProcess.apnsctl(["send", "--cert", mock.certificate, "--devices", lines] + Self.nowhere)
        #expect(line.status == 64, "\(line.stderr)")
        Self.expectNoRawControls(line, "device line")
    }

    /// A server's answer: a proxy whose CONNECT answer holds ESC and BEL (a small in-test server).
    @Test func aServersAnswerIsEscaped() throws {
        let proxy = try FixedAnswerProxy(answer: "HTTP/1.1 403 Forbidden \(Self.retitle)\r\nContent-Length: 0\r\n\r\n")
        let port = proxy.port
        let mock = try InProcessMock()
        let r = try InProcess.apnsctl([
            "send", "--cert", mock.certificate, "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
            "--proxy", "http://127.0.0.1:\(port)", "-d", Self.token(1), "--timeout", "5",
        ])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.contains("403 Forbidden \\u{1B}]0;owned\\u{7}"), "\(r.stderr)")
        Self.expectNoRawControls(r, "proxy answer")
    }
}
