import APNSTestSupport
import Foundation
import Testing

/// The samples in Payloads/ through the binary, as `make demo` runs them.
@Suite struct ValidateSamplesTests {
    static let typed: [(String, String)] = [
        ("voip.json", "voip"), ("liveactivity-start.json", "liveactivity"),
        ("liveactivity-update.json", "liveactivity"),
        ("liveactivity-end.json", "liveactivity"), ("widgets.json", "widgets"), ("mdm.json", "mdm"),
    ]

    @Test func inferableSamplesPassInOneCall() throws {
        let all = try FileManager.default.contentsOfDirectory(atPath: Repository.path("Payloads"))
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".apns") }
            .filter { name in !Self.typed.contains { $0.0 == name } }
            .sorted()
        let r = try InProcess.apnsctl(["validate"] + all.map { "Payloads/" + $0 }, directory: Repository.root)
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.lines.count == all.count)
        #expect(r.lines.allSatisfy { $0.contains(": ok (") })
        #expect(r.lines.contains("Payloads/background.json: ok (88 bytes of 4096, background)"))
    }

    /// When the Live Activity samples were written: their timestamps are within the hour of it.
    static let samplesWritten: Int64 = 1_762_167_000

    /// Each sample passes clean with its push type, judged at the moment it was written (later, a Live Activity
    /// sample's timestamp is a warning, as any old timestamp is).
    @Test(arguments: typed)
    func typedSamplePassesWithItsPushType(file: String, pushType: String) throws {
        let t = TestWorld(now: Self.samplesWritten)
        let status = t.run(["validate", "--push-type", pushType, Repository.path("Payloads/" + file)])
        let lines = t.stdout.text.split(separator: "\n")
        #expect(status == 0)
        #expect(lines.count == 1 && lines[0].hasSuffix(", \(pushType))"), "\(t.stdout.text)")
    }

    /// At any later time the Live Activity samples' timestamps are more than an hour old: a warning that says
    /// so, still exit 0.
    @Test func anOldLiveActivitySampleIsAWarningLater() throws {
        let t = TestWorld(now: Self.samplesWritten + 30 * 86_400)
        let file = Repository.path("Payloads/liveactivity-update.json")
        #expect(t.run(["validate", file]) == 0)
        #expect(
            t.stdout.text.hasPrefix(
                "\(file):3:18: warning: aps.timestamp: timestamp 1762167000 (2025-11-03T10:50:00Z) is 30 days before now;"
            ), "\(t.stdout.text)")
    }

    @Test func everyInvalidSampleFails() throws {
        let dir = Repository.path("Payloads/invalid")
        let needType = [
            "background-with-alert.json": "background", "liveactivity-start-incomplete.json": "liveactivity",
            "widgets-missing-content-changed.json": "widgets",
        ]
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
            .filter { needType[$0] == nil }.map { dir + "/" + $0 }
        let r = try InProcess.apnsctl(["validate", "--strict", "-o", "json"] + files)
        #expect(r.status == 65)
        #expect(r.lines.count == files.count)
        #expect(r.lines.allSatisfy { $0.contains("\"valid\":false") }, "\(r.stdout)")
        for (name, type) in needType {
            #expect(try InProcess.apnsctl(["validate", "--push-type", type, dir + "/" + name]).status == 65, "\(name)")
        }
    }
}
