import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": `validate` stays under 128 MiB for any input up to its 64 MiB cap. A 42 MB payload of
/// distinct keys took 656 MB: a tree of the whole document and a String and dictionary entry per key. Now only the
/// top-level members the rules read are kept, and keys are found again by their offsets.
@Suite struct ValidateMemoryBoundTests {
    /// `{"aps":{"alert":"hi"},"key-000000000":1,…}` up to `size` bytes, every key distinct.
    static func distinctKeys(size: Int) -> [UInt8] {
        var out: [UInt8] = Array(#"{"aps":{"alert":"hi"}"#.utf8)
        out.reserveCapacity(size)
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 9)
        let member = Array(#","key-"#.utf8), end = Array(#"":1"#.utf8)
        while out.count + member.count + digits.count + end.count + 1 <= size {
            out.append(contentsOf: member)
            out.append(contentsOf: digits)
            out.append(contentsOf: end)
            var i = digits.count - 1
            while i >= 0 {
                if digits[i] == UInt8(ascii: "9") { digits[i] = UInt8(ascii: "0"); i -= 1 } else { digits[i] += 1; break }
            }
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    @Test func sixtyMiBOfDistinctKeysIsValidatedInUnder128MiB() throws {
        let dir = try TemporaryDirectory(prefix: "validate-memory")
        let file = try dir.write("distinct.json", Self.distinctKeys(size: 60 << 20))
        let shell = "\"$0\" -f maxrss_kb=%M \"$1\" validate \"$2\" > \"$3\""
        let run = try CommandRunner.run("/bin/sh", ["-c", shell, "/usr/bin/time", CommandRunner.apnsctlPath, file,
                                                    dir.file("out.txt")], timeout: 300)
        #expect(run.status == 65, "\(run.stderr.suffix(600))")
        let lines = try dir.read("out.txt").split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "\(lines.prefix(3))")
        let sizeError = "\(file):1:1: error: (root): payload is \(try FileManager.default.attributesOfItem(atPath: file)[.size] ?? 0) bytes"
        #expect(lines.first?.hasPrefix(sizeError) == true, "\(lines.prefix(1))")
        let rss = run.stderr.split(separator: "\n").compactMap { $0.hasPrefix("maxrss_kb=") ? Int($0.dropFirst(10)) : nil }.first
        #expect(rss != nil)
        #expect((rss ?? .max) < 128 * 1024, "peak RSS \(rss ?? 0) kB")
    }
}
