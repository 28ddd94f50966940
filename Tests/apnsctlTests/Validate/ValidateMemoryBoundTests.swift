import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": `validate` stays under 128 MiB for any input up to its 64 MiB cap. A 42 MB payload of
/// distinct keys took 656 MB: a tree of the whole document and a String and dictionary entry per key. Now only
/// what the rules read is kept (top-level members, then of `aps` its known keys and the first unknown ones), and
/// keys are found again by their offsets.
@Suite struct ValidateMemoryBoundTests {
    /// `prefix` + `"key-000000000":1,…` + `suffix`, `size` bytes at most, every key distinct.
    static func distinctKeys(size: Int, prefix: String = #"{"aps":{"alert":"hi"},"#, suffix: String = "}") -> [UInt8] {
        var out: [UInt8] = Array(prefix.utf8)
        out.reserveCapacity(size)
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 9)
        let member = Array(#""key-"#.utf8)
        let end = Array(#"":1,"#.utf8)
        while out.count + member.count + digits.count + end.count + suffix.utf8.count <= size {
            out.append(contentsOf: member)
            out.append(contentsOf: digits)
            out.append(contentsOf: end)
            var i = digits.count - 1
            while i >= 0 {
                if digits[i] == UInt8(ascii: "9") {
                    digits[i] = UInt8(ascii: "0")
                    i -= 1
                } else {
                    digits[i] += 1
                    break
                }
            }
        }
        out.removeLast()
        out.append(contentsOf: suffix.utf8)
        return out
    }

    /// Runs the built binary's `validate` on `bytes` (as `name`) under /usr/bin/time: exit status, stdout lines,
    /// the file's path and the peak RSS in kB.
    static func validate(_ bytes: [UInt8], as name: String) throws -> (
        status: Int32, lines: [String], file: String, rssKB: Int?
    ) {
        let dir = try TemporaryDirectory(prefix: "validate-memory")
        let file = try dir.write(name, bytes)
        let shell = "\"$0\" -f maxrss_kb=%M \"$1\" validate \"$2\" > \"$3\""
        let run = try CommandRunner.run(
            "/bin/sh",
            [
                "-c", shell, "/usr/bin/time", CommandRunner.measuredPath, file,
                dir.file("out.txt"),
            ], timeout: 300)
        let lines = try dir.read("out.txt").split(separator: "\n").map(String.init)
        let rss = run.stderr.split(separator: "\n").compactMap {
            $0.hasPrefix("maxrss_kb=") ? Int($0.dropFirst(10)) : nil
        }.first
        return (run.status, lines, file, rss)
    }

    @Test func sixtyMiBOfDistinctKeysIsValidatedInUnder128MiB() throws {
        let bytes = Self.distinctKeys(size: 60 << 20)
        let run = try Self.validate(bytes, as: "distinct.json")
        #expect(run.status == 65)
        #expect(run.lines.count == 1, "\(run.lines.prefix(3))")
        #expect(
            run.lines.first?.hasPrefix("\(run.file):1:1: error: (root): payload is \(bytes.count) bytes") == true,
            "\(run.lines.prefix(1))")
        #expect((run.rssKB ?? .max) < 128 * 1024, "peak RSS \(run.rssKB ?? 0) kB")
    }

    /// 60 MiB of unknown keys inside `aps`: 219 MiB at 6 MiB before, and a warning line per key. Now the first 20
    /// are listed and the rest counted, and only those 20 are kept.
    @Test func sixtyMiBOfUnknownAPSKeysAreTwentyLinesAndACountInUnder128MiB() throws {
        let bytes = Self.distinctKeys(size: 60 << 20, prefix: #"{"aps":{"alert":"hi","#, suffix: "}}")
        let run = try Self.validate(bytes, as: "aps.json")
        #expect(run.status == 65)
        #expect(run.lines.count == 22, "the size error, 20 unknown keys and the count: \(run.lines.count) lines")
        #expect(run.lines.filter { $0.contains("unknown aps key \"key-") }.count == 20)
        #expect(
            run.lines.last?.contains(": warning: aps: ") == true
                && run.lines.last?.contains(" more unknown aps keys not listed (") == true,
            "\(run.lines.suffix(1))")
        #expect((run.rssKB ?? .max) < 128 * 1024, "peak RSS \(run.rssKB ?? 0) kB")
    }

    /// A known key holding a huge object: `aps.alert` with 60 MiB of unknown keys.
    @Test func sixtyMiBInsideAPSAlertIsValidatedInUnder128MiB() throws {
        let bytes = Self.distinctKeys(size: 60 << 20, prefix: #"{"aps":{"alert":{"body":"hi","#, suffix: "}}}")
        let run = try Self.validate(bytes, as: "alert.json")
        #expect(run.status == 65)
        #expect(run.lines.count == 22, "\(run.lines.count) lines")
        #expect(run.lines.filter { $0.contains("unknown alert key \"key-") }.count == 20)
        #expect(
            run.lines.last?.contains(": warning: aps.alert: ") == true
                && run.lines.last?.contains(" more unknown alert keys not listed (") == true,
            "\(run.lines.suffix(1))")
        #expect((run.rssKB ?? .max) < 128 * 1024, "peak RSS \(run.rssKB ?? 0) kB")
    }

    /// `content-state`, the app's own data under a known key: 60 MiB of it is walked in the source, not kept.
    @Test func sixtyMiBOfContentStateIsValidatedInUnder128MiB() throws {
        let prefix = #"{"aps":{"event":"update","timestamp":1800000000,"content-state":{"at":1764151200,"#
        let run = try Self.validate(Self.distinctKeys(size: 60 << 20, prefix: prefix, suffix: "}}}"), as: "state.json")
        #expect(run.status == 65)
        #expect(run.lines.count == 2, "the size error and the date: \(run.lines)")
        #expect(
            run.lines.last?.contains(": warning: aps.content-state.at: 1764151200 looks like a UNIX time") == true,
            "\(run.lines.suffix(1))")
        #expect((run.rssKB ?? .max) < 128 * 1024, "peak RSS \(run.rssKB ?? 0) kB")
    }

    /// `prefix` + `"abcdefghijklmn","abcdefghijklmn",…` + `suffix`, `size` bytes at most: millions of short strings.
    static func shortStrings(size: Int, prefix: String, suffix: String) -> [UInt8] {
        let element = Array(#""abcdefghijklmn","#.utf8)
        var out: [UInt8] = Array(prefix.utf8)
        out.reserveCapacity(size)
        for _ in 0..<((size - out.count - suffix.utf8.count) / element.count) { out.append(contentsOf: element) }
        out.removeLast()
        out.append(contentsOf: suffix.utf8)
        return out
    }

    /// A 60 MiB `.apns` file was read whole into a tree for its bundle id, and its body written beside it: 282 MB
    /// for this one, 409 MB for distinct keys. Now it is read as a `.json` is, and the body only counted.
    @Test func sixtyMiBAPNSFileIsValidatedInUnder128MiB() throws {
        let bundle = #""Simulator Target Bundle":"com.example.app","#
        let bytes = Self.shortStrings(
            size: 60 << 20, prefix: "{" + bundle + #""aps":{"alert":"hi"},"custom":["#, suffix: "]}")
        let run = try Self.validate(bytes, as: "big.apns")
        #expect(run.status == 65)
        #expect(run.lines.count == 1, "\(run.lines.prefix(3))")
        // The size is the body's, without the bundle key (the file has no whitespace to drop).
        let body = bytes.count - bundle.utf8.count
        #expect(
            run.lines.first?.hasPrefix("\(run.file):1:1: error: (root): payload is \(body) bytes, ") == true,
            "\(run.lines.prefix(1))")
        #expect(run.lines.first?.contains("it is already compact") == true, "\(run.lines.prefix(1))")
        #expect((run.rssKB ?? .max) < 128 * 1024, "peak RSS \(run.rssKB ?? 0) kB")
    }

    /// `loc-args` was kept whole, a value per element: 282 MB for 60 MiB of short strings (884 MB for `"a"`s).
    /// Now its elements are checked in the source.
    @Test func sixtyMiBLocArgsArrayIsValidatedInUnder128MiB() throws {
        let prefix = #"{"aps":{"alert":{"loc-key":"K","loc-args":["#
        let run = try Self.validate(Self.shortStrings(size: 60 << 20, prefix: prefix, suffix: "]}}}"), as: "args.json")
        #expect(run.status == 65)
        #expect(run.lines.count == 1, "the size error only: \(run.lines.prefix(3))")
        #expect(run.lines.first?.contains(": error: (root): payload is ") == true, "\(run.lines.prefix(1))")
        #expect((run.rssKB ?? .max) < 128 * 1024, "peak RSS \(run.rssKB ?? 0) kB")
    }
}
