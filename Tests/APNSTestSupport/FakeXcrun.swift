import Foundation

/// A stand-in for Xcode's `xcrun`, first on `PATH`: a shell script that records each call's arguments (one per
/// line, calls separated by `--`) and the payload file `simctl push` was given, answers `simctl list devices -j`
/// with the devices it was set up with, and fails as simctl does when told to.
public final class FakeXcrun: @unchecked Sendable {
    public let directory: TemporaryDirectory
    /// A folder holding only `xcrun`, to put first on `PATH`.
    public var binDirectory: String { directory.file("bin") }

    /// A simulator as simctl lists it.
    public struct Device: Sendable {
        public let name: String
        public let udid: String
        public let booted: Bool
        public init(_ name: String, _ udid: String, booted: Bool) {
            (self.name, self.udid, self.booted) = (name, udid, booted)
        }
    }

    /// `devices` listed under an iOS 18.2 runtime; `listFails`/`pushFails`: that call exits 2 with simctl's
    /// kind of message on stderr.
    public init(devices: [Device], listFails: Bool = false, pushFails: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "fake-xcrun")
        try FileManager.default.createDirectory(atPath: binDirectory, withIntermediateDirectories: true)
        let list = devices.map {
            #"{"lastBootedAt":"2026-11-28T10:00:00Z","dataPath":"/x","isAvailable":true,"logPath":"/y","udid":"\#($0.udid)","deviceTypeIdentifier":"com.apple.CoreSimulator.SimDeviceType.iPhone-16","state":"\#($0.booted ? "Booted" : "Shutdown")","name":"\#($0.name)"}"#
        }.joined(separator: ",")
        try directory.write(
            "devices.json",
            #"{"devices":{"com.apple.CoreSimulator.SimRuntime.iOS-18-2":[\#(list)],"com.apple.CoreSimulator.SimRuntime.watchOS-11-2":[]}}"#
        )
        let d = directory.path
        try directory.write(
            "bin/xcrun",
            """
            #!/bin/sh
            { for a in "$@"; do printf '%s\\n' "$a"; done; echo --; } >> '\(d)/calls'
            [ "$1" = simctl ] || { echo "xcrun: error: unknown tool" >&2; exit 1; }
            case "$2" in
            list)
                \(listFails ? "echo 'An error was encountered processing the command (domain=NSPOSIXErrorDomain, code=60).' >&2; exit 2" : "cat '\(d)/devices.json'") ;;
            push)
                cat "$5" > '\(d)/payload'
                \(pushFails ? "echo 'An error was encountered processing the command (domain=SimulatorKit.SimulatorError, code=2): Unable to deliver the notification: the app is not installed.' >&2; exit 2" : "echo \"Notification sent to $4\"") ;;
            *) exit 64 ;;
            esac
            """, mode: 0o755)
    }

    /// Each call's arguments, in order.
    public var calls: [[String]] {
        let text = (try? directory.read("calls")) ?? ""
        return text.components(separatedBy: "--\n").filter { !$0.isEmpty }.map {
            $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        }
    }

    /// The bytes of the payload file the last `simctl push` read.
    public var payload: [UInt8]? {
        (try? Data(contentsOf: URL(fileURLWithPath: directory.file("payload")))).map { [UInt8]($0) }
    }

    /// The environment that puts this `xcrun` first on `PATH`.
    public var environment: [String: String] {
        ["PATH": binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }
}
