import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// `send --simulator` against a fake `xcrun` first on `PATH`: the validated bytes are what simctl received,
/// the device and bundle are the ones CLI.md picks, and the results and exit codes are CLI.md's, on the macOS
/// path (the platform check says macOS) and off it.
@Suite struct SendSimulatorTests {
    static let macOS = CommandHost(runsSimulators: true)
    static let linux = CommandHost(runsSimulators: false)
    static let phone = FakeXcrun.Device("iPhone 16", "6C1D4A2E-0F3B-4C5D-8E9F-0A1B2C3D4E5F", booted: true)
    static let pad = FakeXcrun.Device("iPad Air 11-inch (M2)", "9A8B7C6D-5E4F-4321-9876-0FEDCBA98765", booted: true)
    static let watch = FakeXcrun.Device(
        "iPhone SE (3rd generation)", "11111111-2222-4333-8444-555555555555", booted: false)

    static func send(_ arguments: [String], _ xcrun: FakeXcrun, host: CommandHost = macOS, stdin: [UInt8]? = nil)
        throws -> CommandResult
    {
        try InProcess.apnsctl(["send"] + arguments, stdin: stdin, environment: xcrun.environment, host: host)
    }

    @Test func theOneBootedSimulatorGetsTheValidatedBytes() throws {
        let xcrun = try FakeXcrun(devices: [Self.phone, Self.watch])
        let payload = #"{"aps": {"alert": "Hello from apnsctl"}}"#
        let r = try Self.send([payload, "--simulator", "--topic", "com.example.app"], xcrun)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "delivered  simulator  iPhone 16 (\(Self.phone.udid))  com.example.app\n")
        #expect(xcrun.payload == Array(payload.utf8))
        let calls = xcrun.calls
        #expect(calls.count == 2)
        #expect(calls.first == ["simctl", "list", "devices", "-j"])
        #expect(Array(calls.last?.prefix(4) ?? []) == ["simctl", "push", Self.phone.udid, "com.example.app"])
        #expect(calls.last?.last?.hasSuffix("/payload.json") == true)
        // The payload's file was ours, and is gone.
        #expect(!FileManager.default.fileExists(atPath: calls.last?.last ?? "/"))
    }

    /// The bundle: --topic without its push type's suffix, else the .apns file's, else --app's; JSON output.
    @Test func theBundleAndJSON() throws {
        let xcrun = try FakeXcrun(devices: [Self.phone])
        let dir = try TemporaryDirectory()
        let apns = try dir.write(
            "alert.apns", #"{"Simulator Target Bundle": "com.example.apns", "aps": {"alert": "hi"}}"#)
        let fromApns = try Self.send([apns, "--simulator", "-o", "json"], xcrun)
        #expect(fromApns.status == 0, "\(fromApns.stderr)")
        #expect(
            fromApns.stdout
                == #"{"simulator":"\#(Self.phone.udid)","name":"iPhone 16","bundle":"com.example.apns","status":"delivered"}"#
                + "\n")
        #expect(String(decoding: xcrun.payload ?? [], as: UTF8.self) == #"{"aps":{"alert":"hi"}}"#)
        let voip = try Self.send(
            [#"{"aps":{}}"#, "--simulator", "booted", "--topic", "com.example.app.voip"], xcrun)
        #expect(voip.stdout.hasSuffix("  com.example.app\n"), "\(voip.stdout)\(voip.stderr)")
        let fixtures = try AppBuildFixtures()
        let app = try fixtures.app(profile: .development)
        let fromApp = try Self.send(["--alert", "hi", "--simulator", "iphone 16", "--app", app], xcrun)
        #expect(fromApp.stdout.hasSuffix("  \(AppBuildFixtures.bundle)\n"), "\(fromApp.stdout)\(fromApp.stderr)")
    }

    @Test func noneOrSeveralBooted() throws {
        let none = try FakeXcrun(devices: [Self.watch])
        let r = try Self.send(["--alert", "hi", "--simulator", "--topic", "com.example.app"], none)
        #expect(r.status == 69)
        #expect(r.stderr.contains("no simulator is booted; boot one with xcrun simctl boot NAME"), "\(r.stderr)")
        let several = try FakeXcrun(devices: [Self.phone, Self.pad])
        let s = try Self.send(["--alert", "hi", "--simulator", "--topic", "com.example.app"], several)
        #expect(s.status == 64)
        #expect(
            s.stderr.contains(
                "2 simulators are booted; name one: iPhone 16 (\(Self.phone.udid), iOS 18.2); iPad Air 11-inch (M2) (\(Self.pad.udid), iOS 18.2)"
            ), "\(s.stderr)")
        #expect(several.calls.count == 1)
    }

    @Test func simctlFailuresAndAMissingXcrun() throws {
        let pushFails = try FakeXcrun(devices: [Self.phone], pushFails: true)
        let r = try Self.send(
            ["--alert", "hi", "--simulator", Self.phone.udid, "--topic", "com.example.app"], pushFails)
        #expect(r.status == 69)
        #expect(r.stdout.hasPrefix("failed     simulator  iPhone 16"), "\(r.stdout)")
        #expect(r.stdout.contains("the app is not installed"))
        let listFails = try FakeXcrun(devices: [], listFails: true)
        #expect(try Self.send(["--alert", "hi", "--simulator", "--topic", "a.b"], listFails).status == 69)
        let unknown = try Self.send(["--alert", "hi", "--simulator", "iPhone 61", "--topic", "a.b"], pushFails)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("did you mean \"iPhone 16\"?"), "\(unknown.stderr)")
        let missing = try InProcess.apnsctl(
            ["send", "--alert", "hi", "--simulator", "--topic", "a.b"], environment: ["PATH": "/nonexistent"],
            host: Self.macOS)
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("xcrun not found on PATH"))
    }

    /// What cannot go to a simulator is refused before simctl runs; an invalid payload is 65 as for APNs.
    @Test func refusalsBeforeSimctl() throws {
        let xcrun = try FakeXcrun(devices: [Self.phone])
        for (args, status) in [
            (["--alert", "hi", "--simulator", "-d", String(repeating: "ab", count: 32), "--topic", "a.b"], Int32(64)),
            (["--alert", "hi", "--simulator", "--env", "production", "--topic", "a.b"], 64),
            (["--alert", "hi", "--simulator", "--endpoint", "https://127.0.0.1:1", "--topic", "a.b"], 64),
            (["--alert", "hi", "--simulator"], 64),
            ([#"{"aps":{"badge":"1"}}"#, "--simulator", "--topic", "a.b"], 65),
        ] {
            let r = try Self.send(args, xcrun)
            #expect(r.status == status, "\(args): \(r.stderr)")
        }
        #expect(xcrun.calls.isEmpty)
        let dry = try Self.send(["--alert", "hi", "--simulator", "--topic", "a.b", "--dry-run"], xcrun)
        #expect(dry.stdout.hasPrefix("xcrun simctl push booted a.b payload.json\n"), "\(dry.stdout)")
        // A payload file named in capitals after a bare --simulator is the payload, not the device.
        let files = try TemporaryDirectory(prefix: "simulator")
        for name in ["Alert.JSON", "Alert.APNS"] {
            let payload = try files.write(name, #"{"aps":{"alert":"hi"}}"#)
            let named = try Self.send(["--simulator", payload, "--topic", "a.b", "--dry-run"], xcrun)
            #expect(named.stdout.hasPrefix("xcrun simctl push booted a.b payload.json\n"), "\(name): \(named.stderr)")
        }
        #expect(xcrun.calls.isEmpty)
    }

    /// The dry run's command is pasted: a simulator's name with spaces stays one word. With `-o json` it is one
    /// object, the payload embedded.
    @Test func dryRunQuotesTheNameAndSpeaksJSON() throws {
        let xcrun = try FakeXcrun(devices: [Self.phone])
        let args = ["--alert", "hi", "--simulator", "iPhone 16 Pro", "--topic", "a.b", "--dry-run"]
        let text = try Self.send(args, xcrun)
        #expect(text.stdout.hasPrefix("xcrun simctl push 'iPhone 16 Pro' a.b payload.json\n"), "\(text.stdout)")
        let json = try Self.send(args + ["-o", "json"], xcrun)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        #expect(object["simulator"] as? String == "iPhone 16 Pro")
        #expect(object["command"] as? String == "xcrun simctl push 'iPhone 16 Pro' a.b payload.json")
        #expect((object["payload"] as? [String: Any])?["aps"] as? [String: String] == ["alert": "hi"])
        #expect(xcrun.calls.isEmpty)
    }

    /// Off macOS: 64 with the advice, and simctl never runs (the same command as the macOS test above).
    @Test func offMacOSIs64() throws {
        let xcrun = try FakeXcrun(devices: [Self.phone])
        let r = try Self.send(["--alert", "hi", "--simulator", "--topic", "com.example.app"], xcrun, host: Self.linux)
        #expect(r.status == 64)
        #expect(r.stderr.contains("simulators run on macOS with Xcode"), "\(r.stderr)")
        #expect(r.stderr.contains("can be sent to through the sandbox as usual"))
        #expect(xcrun.calls.isEmpty)
    }
}
