import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": `validate` lists the first 20 duplicate keys of a payload and counts the rest, in
/// bounded memory (a million duplicates in well under 64 MiB), where it used to print a warning per copy.
@Suite struct ValidateDuplicateKeysBoundTests {
    @Test func aMillionDuplicateKeysAreTwentyLinesAndACountInUnder64MiB() async throws {
        try await offThePool {
            let dir = try TemporaryDirectory(prefix: "duplicates")
            let copies = 1_000_000
            var text = "{\"aps\":{\"alert\":\"hi\"}"
            text.reserveCapacity(22 + copies * 6 + 1)
            for _ in 0..<copies { text += ",\"k\":1" }
            text += "}"
            let file = try dir.write("dup.json", text)
            let shell = "\"$0\" -f maxrss_kb=%M \"$1\" validate \"$2\" > \"$3\""
            let run = try CommandRunner.run(
                "/bin/sh",
                [
                    "-c", shell, "/usr/bin/time", CommandRunner.measuredPath, file,
                    dir.file("out.txt"),
                ], timeout: 120)

            #expect(run.status == 65, "\(run.stderr.suffix(600))")
            let lines = try dir.read("out.txt").split(separator: "\n").map(String.init)
            let duplicates = lines.filter { $0.contains("duplicate key \"k\"") }
            #expect(duplicates.count == 20, "\(lines.count) lines")
            #expect(
                duplicates.first == "\(file):1:29: warning: k: duplicate key \"k\" (first at line 1, column 23); "
                    + "JSON parsers disagree on which copy wins: keep one")
            // Bools, so a failure on a binary that prints a million lines does not print them all again.
            let counted = lines.contains(
                "\(file):1:143: warning: (root): 999979 more duplicate keys not listed (999999 in all); "
                    + "JSON parsers disagree on which copy wins: keep one of each")
            #expect(counted, "\(lines.suffix(2))")
            #expect(lines.count == 22, "the size error, 20 duplicates and the count: \(lines.count) lines")
            let rss = run.stderr.split(separator: "\n").compactMap {
                $0.hasPrefix("maxrss_kb=") ? Int($0.dropFirst(10)) : nil
            }.first
            #expect(rss != nil)
            #expect((rss ?? .max) < 64 * 1024, "peak RSS \(rss ?? 0) kB")
        }
    }

    /// Under the limit, every duplicate is listed as before, and no count line is added.
    @Test func twentyDuplicatesAreAllListedWithoutACount() async throws {
        try await offThePool {
            let dir = try TemporaryDirectory(prefix: "duplicates")
            let file = try dir.write(
                "dup.json", "{\"aps\":{\"alert\":\"hi\"}" + String(repeating: ",\"k\":1", count: 21) + "}")
            let r = try InProcess.apnsctl(["validate", file])
            #expect(r.status == 0, "warnings only: \(r.stderr)")
            #expect(r.lines.filter { $0.contains("duplicate key \"k\"") }.count == 20)
            #expect(!r.stdout.contains("more duplicate"))
        }
    }
}
