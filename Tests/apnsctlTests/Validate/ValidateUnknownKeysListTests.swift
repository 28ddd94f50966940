import APNSTestSupport
import Foundation
import Testing

/// Unknown keys are listed like duplicate keys (CLI.md, "Exit codes"): the first 20 of an object, then one line
/// counting the rest, in text and in JSON, for `aps`, `aps.alert` and `aps.sound`; so are UNIX times in
/// `content-state`.
@Suite struct ValidateUnknownKeysListTests {
    /// `{"aps":{<prefix>"u0":1,…,"u<n-1>":1<suffix>}}`.
    static func payload(_ n: Int, prefix: String, suffix: String) -> String {
        #"{"aps":{"# + prefix + (0..<n).map { "\"u\($0)\":1" }.joined(separator: ",") + suffix + "}}"
    }

    @Test(arguments: [
        (#""alert":"hi","#, "", "aps", "unknown aps key", "more unknown aps keys not listed"),
        (#""alert":{"body":"hi","#, "}", "aps.alert", "unknown alert key", "more unknown alert keys not listed"),
        (
            #""alert":"hi","sound":{"critical":1,"name":"default","#, "}", "aps.sound", "unknown sound key",
            "more unknown sound keys not listed"
        ),
    ])
    func twentyUnknownKeysAreListedAndTheRestCounted(
        prefix: String, suffix: String, path: String, listed: String, counted: String
    ) throws {
        let dir = try TemporaryDirectory(prefix: "unknown-keys")
        let file = try dir.write("u.json", Self.payload(100, prefix: prefix, suffix: suffix))
        let text = TestWorld()
        #expect(text.run(["validate", file]) == 0, "\(text.stderr.text)")
        let lines = text.stdout.lines
        #expect(
            lines.filter { $0.contains(": warning: \(path).u") && $0.contains(listed) }.count == 20,
            "\(lines.count) lines")
        #expect(lines.count == 21, "\(lines.suffix(2))")
        #expect(lines.last?.contains(": warning: \(path): 80 \(counted) (100 in all); ") == true, "\(lines.suffix(1))")

        let json = TestWorld()
        #expect(json.run(["validate", "-o", "json", file]) == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.text.utf8)) as? [String: Any])
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.count == 21)
        #expect(problems.filter { ($0["message"] as? String)?.hasPrefix(listed) == true }.count == 20)
        let count = try #require(problems.last)
        #expect(count["severity"] as? String == "warning" && count["path"] as? String == path)
        #expect((count["message"] as? String)?.hasPrefix("80 \(counted) (100 in all); ") == true, "\(count)")
    }

    /// Twenty unknown keys are all listed, with no count line.
    @Test func twentyUnknownKeysAreAllListedWithoutACount() throws {
        let dir = try TemporaryDirectory(prefix: "unknown-keys")
        let file = try dir.write("u.json", Self.payload(20, prefix: #""alert":"hi","#, suffix: ""))
        let t = TestWorld()
        #expect(t.run(["validate", file]) == 0)
        #expect(t.stdout.lines.count == 20 && !t.stdout.text.contains("not listed"), "\(t.stdout.text)")
    }

    /// Every number in content-state that looks like a UNIX time is a warning: the first 20, then a count.
    @Test func contentStateDatesAreListedAndCounted() throws {
        let dir = try TemporaryDirectory(prefix: "unknown-keys")
        let dates = (0..<30).map { "{\"at\":\(1_764_151_200 + $0)}" }.joined(separator: ",")
        let file = try dir.write(
            "la.json", #"{"aps":{"event":"update","timestamp":1800000000,"content-state":{"legs":["# + dates + "]}}}")
        let t = TestWorld()
        #expect(t.run(["validate", file]) == 0, "\(t.stderr.text)")
        let lines = t.stdout.lines
        #expect(lines.count == 21, "\(lines.suffix(2))")
        #expect(
            lines.first?.contains(": warning: aps.content-state.legs[0].at: 1764151200 looks like a UNIX time") == true,
            "\(lines.prefix(1))")
        #expect(
            lines[19].contains(": warning: aps.content-state.legs[19].at: 1764151219 looks like a UNIX time"),
            "\(lines[19])")
        #expect(
            lines.last?.contains(
                ": warning: aps.content-state: 10 more values that look like UNIX times or dates not listed (30 in all); "
            )
                == true,
            "\(lines.suffix(1))")
    }
}
