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

    @Test(arguments: typed)
    func typedSamplePassesWithItsPushType(file: String, pushType: String) throws {
        let r = try InProcess.apnsctl(
            ["validate", "--push-type", pushType, "Payloads/" + file], directory: Repository.root)
        #expect(r.status == 0)
        #expect(r.lines.count == 1 && r.lines[0].hasSuffix(", \(pushType))"), "\(r.stdout)")
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
