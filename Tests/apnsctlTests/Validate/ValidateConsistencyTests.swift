import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md `validate` consistency: a missing key is reported at its own path, positioned at the
/// object that lacks it; `sound.critical` is 0 (warning) or 1; the push type is inferred from the payload
/// (mdm, liveactivity) so `validate --help`'s first example passes on the project's own samples.
@Suite struct ValidateConsistencyTests {
    /// Runs `validate ARGS -` on `json` and returns stdout lines.
    func validate(_ json: String, _ arguments: [String] = []) throws -> CommandResult {
        try InProcess.apnsctl(["validate"] + arguments + ["-"], stdin: Array(json.utf8))
    }

    @Test func missingLiveActivityKeysAreReportedAtTheirOwnPaths() throws {
        let json = "{\n  \"aps\": {\n    \"event\": \"update\",\n    \"content-state\": {}\n  }\n}"
        let r = try validate(json, ["--push-type", "liveactivity"])
        #expect(r.status == 65)
        #expect(r.lines.count == 1)
        #expect(
            r.lines.first?.hasPrefix("-:2:10: error: aps.timestamp: Live Activity pushes need \"timestamp\"") == true,
            "\(r.stdout)")
    }

    @Test func missingSoundNameIsReportedAtItsOwnPathOnTheSoundObject() throws {
        let json = "{\"aps\":{\"alert\":\"x\",\"sound\":{\"critical\":1}}}"
        let r = try validate(json)
        #expect(r.status == 0)
        #expect(
            r.lines == [
                "-:1:29: warning: aps.sound.name: critical-alert sound has no \"name\", so no sound plays; add \"name\": \"default\""
            ])
    }

    @Test func missingAPSStaysAtItsOwnPath() throws {
        let r = try validate("{\"alert\":\"x\"}")
        #expect(r.status == 65)
        #expect(r.lines.first?.hasPrefix("-:1:1: error: aps: aps is missing") == true, "\(r.stdout)")
    }

    @Test(arguments: [
        ("1", 0, ""), ("0", 0, "warning: aps.sound.critical: critical 0 is not a critical alert"),
        ("2", 65, "error: aps.sound.critical: critical must be the number 1"),
        ("1.0", 65, "error: aps.sound.critical: critical must be the number 1"),
        ("\"1\"", 65, "error: aps.sound.critical: critical must be the number 1"),
    ])
    func criticalIsZeroOrOne(value: String, status: Int32, expected: String) throws {
        let r = try validate("{\"aps\":{\"alert\":\"x\",\"sound\":{\"critical\":\(value),\"name\":\"default\"}}}")
        #expect(r.status == status, "critical \(value): \(r.stdout)")
        if expected.isEmpty {
            #expect(r.lines == ["-: ok (\(60 + value.utf8.count) bytes of 4096, alert)"])
        } else {
            #expect(r.lines.count == 1 && r.lines[0].hasPrefix("-:1:41: " + expected), "\(r.stdout)")
        }
    }

    @Test func trailingCommaIsReportedAtTheComma() throws {
        let r = try validate("{\"aps\":{\"alert\":\"x\",}}")
        #expect(r.status == 65)
        #expect(
            r.lines.first?.hasPrefix("-:1:20: error: (root): not valid JSON: trailing comma") == true, "\(r.stdout)")
    }

    @Test(arguments: [
        ("{\"mdm\":\"1E2D3C4B\"}", "mdm"),
        ("{\"aps\":{\"event\":\"end\",\"timestamp\":\(SystemClock.now()),\"content-state\":{}}}", "liveactivity"),
        ("{\"aps\":{\"content-available\":1}}", "background"), ("{\"aps\":{\"alert\":\"x\"}}", "alert"),
        ("{\"aps\":{\"alert\":\"x\"},\"mdm\":\"y\"}", "alert"),
    ])
    func pushTypeIsInferredFromThePayload(json: String, type: String) throws {
        let r = try validate(json)
        #expect(r.lines.last?.hasSuffix(", \(type))") == true, "\(json): \(r.stdout)")
    }

    /// Every sample, as a shell expands `Payloads/*.json Payloads/*.apns`, exits 0 (the samples that need a
    /// push type only warn); `apnsctl validate --help`'s first example names samples that pass clean
    /// (`HelpExampleTests` runs it).
    @Test func helpExampleExitsZeroOnTheSamples() throws {
        let help = try InProcess.apnsctl(["validate", "--help"])
        #expect(help.stdout.contains("apnsctl validate Payloads/alert.json Payloads/badge.json Payloads/demo.apns"))
        // The shell's expansion, in-process with absolute paths (the process's working directory is shared).
        let names = try FileManager.default.contentsOfDirectory(atPath: Repository.path("Payloads"))
        let samples =
            (names.filter { $0.hasSuffix(".json") }.sorted() + names.filter { $0.hasSuffix(".apns") }.sorted())
            .map { Repository.path("Payloads/" + $0) }
        // At the moment the Live Activity samples were written (later their timestamps only warn).
        let t = TestWorld(now: ValidateSamplesTests.samplesWritten)
        #expect(t.run(["validate"] + samples) == 0, "\(t.stdout.text)")
        #expect(
            t.stdout.text.contains("Payloads/mdm.json: ok (")
                && t.stdout.text.contains("Payloads/liveactivity-update.json: ok (")
        )
    }
}
