import APNSCore
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// A rejection whose reason APNs does not define, from a server this project did not write
/// (`Tests/Interop/h2_answer_server.py`, Python's `h2`): `send` shows it as received, in text and JSON, and
/// exits 1; a documented reason from the same server still gets its meaning and hint.
@Suite struct UnknownReasonTests {
    static let unknownReason = "TooManyPushesToday"
    static let unknownDevice = String(repeating: "ab", count: 32)
    static let documentedDevice = String(repeating: "cd", count: 32)
    static let webPageDevice = String(repeating: "ef", count: 32)
    static let emptyDevice = String(repeating: "0e", count: 32)

    /// The Python server, answering `unknownDevice` 400 with the unknown reason and `documentedDevice` 410
    /// `Unregistered`; killed when the test ends.
    final class AnswerServer {
        let process = Process()
        let port: Int
        let credentials: TestCredentials

        init() throws {
            credentials = try TestCredentials()
            let pem = try credentials.directory.write("server.pem", try credentials.server.pem(), mode: 0o600)
            process.executableURL = URL(fileURLWithPath: try InteropPython.interpreter())
            process.arguments = [
                Repository.path("Tests/Interop/h2_answer_server.py"), "--cert", pem,
                "--answer", "\(UnknownReasonTests.unknownDevice)=400:\(UnknownReasonTests.unknownReason)",
                "--answer", "\(UnknownReasonTests.documentedDevice)=410:Unregistered",
                "--answer", "\(UnknownReasonTests.webPageDevice)=200:<html>portal</html>",
                "--answer", "\(UnknownReasonTests.emptyDevice)=200:<",
                // A web server where a channel management host or a broadcast host should be: 200 pages without the
                // apns-request-id APNs answers every such request with (the last part of each path).
                "--answer", "all-channels=200:<html>portal</html>", "--answer", "channels=200:<html>portal</html>",
                "--answer", "com.example.demo=200:<html>portal</html>",
            ]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.runAsAShellWould()
            // `listening PORT`, once the socket is bound (python starts slowly on a loaded machine).
            var line = ""
            while !line.hasSuffix("\n") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line += String(decoding: chunk, as: UTF8.self)
            }
            guard
                let port = line.split(separator: " ").last.flatMap({
                    Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
                })
            else {
                process.terminate()
                throw TestSupportError("h2_answer_server.py did not start: \(line)")
            }
            self.port = port
        }

        deinit { process.terminate() }

        func send(_ device: String, _ extra: [String] = []) throws -> CommandResult {
            try InProcess.apnsctl(
                [
                    "send", #"{"aps":{"alert":"hi"}}"#, "-d", device, "--endpoint", "https://127.0.0.1:\(port)",
                    "--ca-file", credentials.caFile, "--cert", credentials.pushFile, "--timeout", "20",
                ] + extra)
        }
    }

    @Test func anUnknownReasonIsShownAsReceivedAndExits1() throws {
        let server = try AnswerServer()
        let text = try server.send(Self.unknownDevice)
        #expect(text.status == 1, "\(text.stderr)")
        #expect(
            text.stdout
                == "rejected  400  \(Self.unknownReason)  \(Self.unknownDevice)  \(Self.unknownReason) is not a reason apnsctl knows; "
                + "see Apple's \"Handling notification responses from APNs\".\n", "\(text.stdout)")

        let json = try server.send(Self.unknownDevice, ["-o", "json"])
        #expect(json.status == 1, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["reason"] as? String == Self.unknownReason)
        #expect(object["status"] as? Int == 400)
        #expect(
            object["meaning"] as? String
                == "\(Self.unknownReason) is not a reason apnsctl knows; see Apple's \"Handling notification responses from APNs\"."
        )
        #expect(object["hint"] == nil, "no hint is made up for a reason apnsctl does not know")
    }

    @Test func aDocumentedReasonFromTheSameServerGetsItsMeaningAndHint() throws {
        let server = try AnswerServer()
        let reason = APNSReason.unregistered
        let text = try server.send(Self.documentedDevice)
        #expect(text.status == 1, "\(text.stderr)")
        #expect(
            text.stdout
                == "rejected  410  Unregistered  \(Self.documentedDevice)  \(reason.meaning) \(reason.hint(broadcast: false))\n",
            "\(text.stdout)")

        let json = try server.send(Self.documentedDevice, ["-o", "json"])
        #expect(json.status == 1, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["reason"] as? String == "Unregistered")
        #expect(object["meaning"] as? String == reason.meaning)
        #expect(object["hint"] as? String == reason.hint(broadcast: false))
    }

    /// A 200 without the apns-id APNs sends with every answer is a web server or proxy at a wrong --endpoint: the
    /// push cannot be told to have reached APNs, so it is rejected (exit 1) with the page in `body`, not counted as accepted (exit 0).
    @Test func aTwoHundredWithoutAnAPNsIDIsNotAccepted() throws {
        let server = try AnswerServer()
        let json = try server.send(Self.webPageDevice, ["-o", "json"])
        #expect(json.status == 1, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["status"] as? Int == 200 && object["reason"] is NSNull, "\(json.stdout)")
        #expect(object["body"] as? String == "<html>portal</html>")
        #expect(object["meaning"] as? String == "200 from a web server or proxy, not APNs")
        #expect((object["hint"] as? String)?.hasPrefix("check --endpoint") == true, "\(json.stdout)")
        let text = try server.send(Self.emptyDevice)
        #expect(text.status == 1, "\(text.stderr)")
        #expect(
            text.stdout.hasPrefix(
                "rejected  200  -  \(Self.emptyDevice)  200 from a web server or proxy, not APNs (no apns-id)"),
            "\(text.stdout)")
        // APNs' own 200 is accepted as before.
        #expect(try server.send(String(repeating: "12", count: 32)).status == 0)
    }

    /// The same web server where the broadcast and channel management hosts belong: a broadcast answered 200
    /// without an apns-request-id is rejected, not accepted; a list that is a page is no empty list; a read is no
    /// channel of unknown settings. The page is in `body`, never in `reason`, and said once.
    @Test func broadcastsAndChannelsAnsweredByAWebServerAreNotAPNs() throws {
        let server = try AnswerServer()
        let flags = [
            "--endpoint", "https://127.0.0.1:\(server.port)", "--ca-file", server.credentials.caFile, "--cert",
            server.credentials.pushFile, "--timeout", "20",
        ]
        let update = #"{"aps":{"event":"update","timestamp":1790000000,"content-state":{"score":"2-1"}}}"#
        let broadcast = try InProcess.apnsctl(["send", update, "--channel", "YWJjZA==", "-o", "json"] + flags)
        #expect(broadcast.status == 1, "\(broadcast.stdout)\(broadcast.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(broadcast.stdout.utf8)) as? [String: Any])
        #expect(object["status"] as? Int == 200 && object["reason"] is NSNull, "\(broadcast.stdout)")
        #expect(object["meaning"] as? String == "200 from a web server or proxy, not APNs", "\(broadcast.stdout)")
        #expect((object["hint"] as? String)?.hasSuffix("with an apns-request-id") == true, "\(broadcast.stdout)")
        // In text, the id is said to be the one sent, not one the server gave (it gave none).
        let sentID = "6b1f2e0c-6f43-4bb6-9d6e-3f0a1c2b4d5e"
        let said = try InProcess.apnsctl(["send", update, "--channel", "YWJjZA==", "--request-id", sentID] + flags)
        #expect(said.status == 1, "\(said.stdout)\(said.stderr)")
        #expect(said.stdout.contains("  sent apns-request-id=\(sentID)"), "\(said.stdout)")
        #expect(!said.stdout.contains("  apns-request-id="), "\(said.stdout)")

        let list = try InProcess.apnsctl(["channel", "list"] + flags)
        #expect(list.status == 1 && list.stdout.isEmpty, "\(list.stdout)\(list.stderr)")
        #expect(
            list.stderr.contains("error: channel list: rejected 200: 200 from a web server or proxy, not APNs; "),
            "\(list.stderr)")
        #expect(list.stderr.components(separatedBy: "<html>portal</html>").count == 2, "said once: \(list.stderr)")

        let get = try InProcess.apnsctl(["channel", "get", "YWJjZA==", "-o", "json"] + flags)
        #expect(get.status == 1, "\(get.stdout)\(get.stderr)")
        let read = try #require(try JSONSerialization.jsonObject(with: Data(get.stdout.utf8)) as? [String: Any])
        #expect(read["reason"] is NSNull && read["body"] as? String == "<html>portal</html>", "\(get.stdout)")
        #expect(read["meaning"] as? String == "200 from a web server or proxy, not APNs", "\(get.stdout)")
    }
}
